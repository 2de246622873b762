/**
 * Docstrings as descriptions and examples. The text is dedented like `inspect.cleandoc`,
 * reST roles and literals are rendered as `code`, Google/NumPy sections stay as text, and
 * examples (`>>>` sessions anywhere; everything in an `Examples:` section; fenced blocks and
 * `.. code-block::` directives) are taken out to become their own snippets.
 */

/** An example found in a docstring. */
export interface DocstringExample {
  code: string;
  /** "pycon" for `>>>` sessions, "python" or the fence's language otherwise. */
  language: string;
  /** The prose just before the example ("" when none). */
  caption: string;
  /** 0-based line of the code within the cleaned docstring. */
  offset: number;
}

/** A docstring split into what describes the symbol and what shows it in use. */
export interface DocstringParts {
  description: string;
  examples: DocstringExample[];
}

/** Section headers are capitalised ("Examples:"), unlike a sentence ending in "for example:". */
const GOOGLE_EXAMPLES = /^(Examples?|EXAMPLES?|Usage|Example usage)\s*:{1,2}\s*$/;
const NUMPY_EXAMPLES = /^(Examples?|EXAMPLES?|Usage)\s*$/;
const DIRECTIVE = /^\.\.\s+(?:code-block|code|sourcecode)::\s*([\w+#.-]*)/;
/** Lines that read as Python statements rather than prose. */
const CODE_LINE =
  /^(>>>|\.\.\.|#|@|import\s|from\s+\S+\s+import\s|(async\s+)?(def|class|with|for|while|if|elif|else|try|except|finally|return|await|yield|raise|assert|print)\b|[\w.[\]'"]+\s*(=|\+=|-=|:\s*\w[\w.[\], ]*\s*=)\s*[^=\s]|[\w.]+\(.*|[)\]}]+[,;]?$)/;

/**
 * `inspect.cleandoc`: the first line stripped, the others dedented by their common
 * indentation, blank lines around removed. `skipped` is how many leading lines went.
 */
export function cleanDocstring(raw: string): { text: string; skipped: number } {
  const lines = raw.replace(/\t/g, '        ').split('\n');
  let margin = Infinity;
  for (const l of lines.slice(1)) if (l.trim() !== '') margin = Math.min(margin, l.length - l.trimStart().length);
  const out = lines.map((l, i) => (i === 0 ? l.trim() : Number.isFinite(margin) ? l.slice(margin).replace(/\s+$/, '') : l.trim()));
  let start = 0;
  let end = out.length;
  while (start < end && out[start] === '') start++;
  while (end > start && out[end - 1] === '') end--;
  return { text: out.slice(start, end).join('\n'), skipped: start };
}

/** Splits a cleaned docstring into its description and its examples. */
export function splitDocstring(text: string): DocstringParts {
  const lines = text.split('\n');
  const kept: string[] = [];
  const examples: DocstringExample[] = [];
  let i = 0;
  while (i < lines.length) {
    const t = lines[i].trim();
    const ind = indentOf(lines[i]);
    if (GOOGLE_EXAMPLES.test(t)) {
      const end = blockEnd(lines, i + 1, ind);
      examples.push(...sectionExamples(lines, i + 1, end));
      i = end;
    } else if (NUMPY_EXAMPLES.test(t) && /^\s*-{3,}\s*$/.test(lines[i + 1] ?? '')) {
      let end = i + 2;
      while (end < lines.length && !(lines[end].trim() !== '' && /^\s*-{3,}\s*$/.test(lines[end + 1] ?? ''))) end++;
      examples.push(...sectionExamples(lines, i + 2, end));
      i = end;
    } else if (t.startsWith('>>>') || t.startsWith('```') || DIRECTIVE.test(t)) {
      const found = codeAt(lines, i, captionOf(kept));
      examples.push(found.example);
      if (kept.length > 0) kept[kept.length - 1] = kept[kept.length - 1].replace(/::$/, ':');
      i = found.end;
    } else {
      kept.push(lines[i]);
      i++;
    }
  }
  const description = renderRoles(
    kept
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  );
  return { description, examples: examples.filter((e) => e.code.trim() !== '') };
}

/** reST roles and literals as `code`: :func:`~a.b` → `b`, :meth:`title <a.b>` → `title`, ``x`` → `x`. */
export function renderRoles(text: string): string {
  return text
    .replace(/:(?:[\w-]+:)+`!?([^`]+)`/g, (_m, inner: string) => {
      const titled = /^(.*?)\s*<[^>]+>$/.exec(inner);
      if (titled) return `\`${titled[1]}\``;
      return `\`${inner.startsWith('~') ? (inner.split('.').pop() ?? inner) : inner}\``;
    })
    .replace(/``([^`]+)``/g, '`$1`')
    .replace(/`([^`<]+?)\s*<(https?:[^>]+)>`__?/g, '$1 ($2)')
    .replace(/`([^`]+)`__?(?!\w)/g, '$1');
}

/**
 * The examples of an `Examples` section (lines `from`..`to`): code with the prose before it
 * as captions. The paragraph before the section header is another section, so it is not one.
 */
function sectionExamples(lines: string[], from: number, to: number): DocstringExample[] {
  const base = Math.min(
    ...lines
      .slice(from, to)
      .filter((l) => l.trim() !== '')
      .map(indentOf),
    Infinity,
  );
  const out: DocstringExample[] = [];
  let caption = '';
  let i = from;
  while (i < to) {
    const t = lines[i].trim();
    if (t === '') {
      i++;
      continue;
    }
    if (t.startsWith('>>>') || t.startsWith('```') || DIRECTIVE.test(t) || indentOf(lines[i]) > base) {
      const found = indentOf(lines[i]) > base && !t.startsWith('>>>') ? literalAt(lines, i, to, base, caption) : codeAt(lines, i, caption);
      out.push(found.example);
      i = Math.min(found.end, to);
      continue;
    }
    let end = i + 1;
    if (CODE_LINE.test(t)) {
      // Code written straight into the section: it runs on through deeper lines (blocks) and
      // blank lines until prose starts again.
      while (end < to && (lines[end].trim() === '' || indentOf(lines[end]) > base || CODE_LINE.test(lines[end].trim()))) end++;
      out.push({ code: dedent(lines.slice(i, end)), language: 'python', caption, offset: i });
    } else {
      while (end < to && lines[end].trim() !== '' && indentOf(lines[end]) <= base && !/^\s*(>>>|```)/.test(lines[end])) end++;
      caption = lines
        .slice(i, end)
        .map((l) => l.trim())
        .join(' ')
        .replace(/::$/, ':');
    }
    i = end;
  }
  return out;
}

/** A `>>>` session (to the next blank line), a fenced block, or a code-block directive at line `i`. */
function codeAt(lines: string[], i: number, caption: string): { example: DocstringExample; end: number } {
  const t = lines[i].trim();
  if (t.startsWith('>>>')) {
    let end = i;
    while (end < lines.length && lines[end].trim() !== '') end++;
    return { example: { code: dedent(lines.slice(i, end)), language: 'pycon', caption, offset: i }, end };
  }
  if (t.startsWith('```')) {
    let end = i + 1;
    while (end < lines.length && !lines[end].trim().startsWith('```')) end++;
    const language = normaliseLanguage(t.slice(3).trim());
    return { example: { code: dedent(lines.slice(i + 1, end)), language, caption, offset: i + 1 }, end: end + 1 };
  }
  const language = normaliseLanguage(DIRECTIVE.exec(t)?.[1] ?? '');
  const end = blockEnd(lines, i + 1, indentOf(lines[i]));
  let first = i + 1;
  while (first < end && /^\s*(:[\w-]+:.*)?$/.test(lines[first])) first++;
  return { example: { code: dedent(lines.slice(first, end)), language, caption, offset: first }, end };
}

/** An indented literal block inside an Examples section. */
function literalAt(lines: string[], i: number, to: number, base: number, caption: string): { example: DocstringExample; end: number } {
  const end = Math.min(blockEnd(lines, i, base), to);
  const body = lines.slice(i, end);
  const language = body
    .find((l) => l.trim() !== '')
    ?.trim()
    .startsWith('>>>')
    ? 'pycon'
    : 'python';
  return { example: { code: dedent(body), language, caption, offset: i }, end };
}

/** The end of the block after line `from - 1`: blank lines and lines indented deeper than `indent`. */
function blockEnd(lines: string[], from: number, indent: number): number {
  let end = from;
  while (end < lines.length && (lines[end].trim() === '' || indentOf(lines[end]) > indent)) end++;
  while (end > from && lines[end - 1].trim() === '') end--;
  return end;
}

/** The last paragraph of the description so far, as an example's caption. */
function captionOf(kept: string[]): string {
  let start = kept.length;
  while (start > 0 && kept[start - 1].trim() === '') start--;
  const endAt = start;
  while (start > 0 && kept[start - 1].trim() !== '') start--;
  const paragraph = kept
    .slice(start, endAt)
    .map((l) => l.trim())
    .join(' ');
  return paragraph.length <= 300 ? renderRoles(paragraph.replace(/::$/, ':')) : '';
}

function normaliseLanguage(info: string): string {
  const lang = (/^[\w+#.-]+/.exec(info)?.[0] ?? '').toLowerCase();
  if (lang === '' || lang === 'py' || lang === 'python3') return 'python';
  return lang === 'pycon' || lang === 'doctest' ? 'pycon' : lang;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function dedent(lines: string[]): string {
  const body = [...lines];
  while (body.length > 0 && body[body.length - 1].trim() === '') body.pop();
  while (body.length > 0 && body[0].trim() === '') body.shift();
  const margin = Math.min(...body.filter((l) => l.trim() !== '').map(indentOf), Infinity);
  return body.map((l) => (Number.isFinite(margin) ? l.slice(margin) : l).replace(/\s+$/, '')).join('\n');
}
