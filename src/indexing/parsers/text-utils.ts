/**
 * Small text helpers shared by every parser: line splitting with original line numbers,
 * indentation arithmetic, code dedenting, fence languages and titles from file names.
 */

/** One line of a source file with its 1-based line number in the original file. */
export interface SourceLine {
  text: string;
  line: number;
  /** The line held only a picture or an embedded player, removed (markdown-unwrap.ts). */
  media?: boolean;
}

/** Splits text into lines (any line ending), dropping a leading byte-order mark. */
export function splitLines(text: string): string[] {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return t.includes('\r') ? t.split(/\r\n|\r|\n/) : t.split('\n');
}

/** Lines numbered from `firstLine` (1 for a whole file). */
export function numberLines(text: string, firstLine = 1): SourceLine[] {
  return splitLines(text).map((t, i) => ({ text: t, line: firstLine + i }));
}

export function isBlank(s: string): boolean {
  return s.trim() === '';
}

/** Width of the leading whitespace, a tab advancing to the next multiple of 4 as in CommonMark. */
export function indentWidth(s: string): number {
  let width = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) width++;
    else if (c === 9) width += 4 - (width % 4);
    else break;
  }
  return width;
}

/** Removes up to `n` columns of leading whitespace (tabs expanded), keeping any excess. */
export function stripIndent(s: string, n: number): string {
  let width = 0;
  let i = 0;
  while (i < s.length && width < n) {
    const c = s.charCodeAt(i);
    if (c === 32) width++;
    else if (c === 9) width += 4 - (width % 4);
    else break;
    i++;
  }
  // A tab that overshoots the column keeps its remainder as spaces so nested indentation survives.
  return (width > n ? ' '.repeat(width - n) : '') + s.slice(i);
}

/** Removes the indentation common to all non-blank lines and the blank lines around the block. */
export function dedentBlock(lines: readonly string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && isBlank(lines[start])) start++;
  while (end > start && isBlank(lines[end - 1])) end--;
  const body = lines.slice(start, end).map((l) => l.trimEnd());
  let common = Infinity;
  for (const l of body) if (l !== '') common = Math.min(common, indentWidth(l));
  if (!Number.isFinite(common) || common === 0) return body.join('\n');
  return body.map((l) => stripIndent(l, common)).join('\n');
}

/**
 * The language of a fence info string or directive argument: its first word, lowercased.
 * Pandoc's `{.python}` and attribute suffixes such as VitePress's `js{4}` or `ts:line-numbers`
 * are not part of the language.
 */
export function normaliseLanguage(info: string): string {
  const m = /^[\s{.]*([\w#+-][\w#+.-]*)([^\s{},]*)/.exec(info);
  // `hl_lines="4"` alone is an attribute, not a language.
  if (!m || m[2].startsWith('=')) return '';
  const language = m[1].toLowerCase();
  return NO_LANGUAGE.has(language) ? '' : language;
}

/** Text without blank lines around it and trailing space; the first line keeps its indentation (a nested list item). */
export function trimBlock(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

/** A paragraph cleaned by `clean`, keeping the indentation it opens with (a nested item of a loose list); "" when nothing is left. */
export function cleanKeepingIndent(text: string, clean: (text: string) => string): string {
  const cleaned = clean(text).trimStart();
  return cleaned === '' ? '' : (/^ */.exec(text)?.[0] ?? '') + cleaned;
}

/** Box-drawing, arrow and triangle characters: what a drawing in a code block is made of. */
const DRAWING = /[\u2190-\u21ff\u2500-\u257f\u25b2-\u25c5]/;

/**
 * A command line without a prompt: a package manager, build or version-control tool first, then
 * arguments (no call, no assignment to the command word: `git = repo()` is code).
 */
export const SHELL_COMMAND =
  /^(?:npm|npx|pnpm|pnpx|yarn|bun|bunx|deno|node|pip3?|pipx|python3?|poetry|uv|conda|cargo|rustup|go|git|cd|mkdir|curl|wget|docker|kubectl|make|brew|apt(?:-get)?|sudo|export|source|pytest|flask|django-admin|gunicorn|uvicorn|celery|mvn|gradle|dotnet|composer|gem|bundle|\.\/[\w./-]+)(?:\s+(?!=)[^()]*)?$/;

/**
 * The language an unlabelled block shows it is in: a recorded session — a shell prompt (`$ npm
 * test`) is `console`, the Python prompt (`>>> import x`) `pycon` — a JSON document `json`,
 * commands without a prompt (`npm i` then `npm run dev`) `sh`, or a drawing (a directory tree, a lifecycle diagram:
 * box-drawing characters on most of its lines, or a tree of file names drawn by indentation) `text`; otherwise "".
 */
export function sessionLanguage(code: string): string {
  const first = code.trimStart();
  if (first.startsWith('>>>')) return 'pycon';
  if (/^\$ \S/.test(first)) return 'console';
  if (/^[[{]/.test(first) && isJson(first)) return 'json';
  const lines = code.split('\n').filter((l) => l.trim() !== '' && !/^\s*#/.test(l));
  // A command continued over lines (`npx jscodeshift ./src \` then `  --parser=tsx`) is one command.
  const commands = lines
    .join('\n')
    .replace(/\\\n\s*/g, ' ')
    .split('\n');
  if (lines.length > 0 && commands.every((l) => SHELL_COMMAND.test(l.trim()))) return 'sh';
  if (lines.length > 0 && lines.filter((l) => DRAWING.test(l)).length * 2 > lines.length) return 'text';
  return isFileTree(lines) ? 'text' : '';
}

/** A directory tree drawn by indentation alone: every line a file or folder name, some folders (`versions/`), some nested. */
function isFileTree(lines: readonly string[]): boolean {
  if (lines.length < 3 || !lines.every((l) => /^\s*[\w.@+-]+\/?\s*$/.test(l))) return false;
  return lines.some((l) => /\/\s*$/.test(l)) && lines.some((l) => /^\s+\S/.test(l));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Fence words that explicitly say "no highlighting". */
const NO_LANGUAGE = new Set(['none', 'no-highlight', 'nohighlight']);

/** Collapses runs of whitespace into single spaces. */
export function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * A title made from a file name: `docs/guide/query-params.md` → "Query params". Index and
 * README pages take their folder's name, which says more than "index".
 */
export function titleFromPath(path: string): string {
  const parts = path.split('/').filter(Boolean);
  let name = (parts.pop() ?? '').replace(/\.[^.]+$/, '');
  if (/^(index|readme|_index)$/i.test(name) && parts.length > 0) name = parts[parts.length - 1];
  // Ordering prefixes ("02-runes", "06-$bindable") are for the sidebar, not the reader.
  const words = name
    .replace(/^\d+[-_.]+(?=\D)/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  if (words === '') return name || path;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Splits text longer than `max` at line, sentence or word boundaries; the first piece at most `first` long. */
export function splitLongText(text: string, max: number, first = max): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > (out.length === 0 ? first : max)) {
    const limit = out.length === 0 ? first : max;
    const head = rest.slice(0, limit);
    let cut = head.lastIndexOf('\n');
    if (cut < limit / 2) cut = Math.max(head.lastIndexOf('. '), head.lastIndexOf('? '), head.lastIndexOf('! ')) + 1;
    if (cut < limit / 2) cut = head.lastIndexOf(' ');
    if (cut < limit / 2) cut = limit;
    out.push(trimBlock(rest.slice(0, cut)));
    rest = rest.slice(cut);
    // Cut at a line end, the next line keeps its indentation (a nested list item); else the space goes.
    rest = /^[ \t]*\n/.test(rest) ? trimBlock(rest) : rest.trim();
  }
  if (rest !== '') out.push(rest);
  return out;
}
