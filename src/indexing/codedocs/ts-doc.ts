/**
 * JSDoc/TSDoc comments read from the raw text rather than from the compiler's JSDoc nodes:
 * the raw text keeps the indentation of code inside a comment (koa's ` *    this.throw(403)`),
 * tells us on which line each `@example` starts (for URLs), and is simpler to test.
 */
import ts from 'typescript';

/** A parsed `/** … *\/` comment. */
export interface DocComment {
  /** The prose before the first block tag, margins removed. */
  summary: string;
  tags: DocTag[];
}

/** One block tag (`@param {T} name - text`), its text spanning the lines up to the next tag. */
export interface DocTag {
  name: string;
  text: string;
  /** 0-based line of the tag in the file. */
  line: number;
  /** 0-based line in the file of the first line of `text`. */
  textLine: number;
}

/** One `@example`: fenced blocks become separate examples, prose before a fence their caption. */
export interface DocExample {
  code: string;
  /** The fence's language ("" when none: the caller uses the file's language). */
  language: string;
  caption: string;
  /** 0-based line in the file where the code starts. */
  line: number;
}

/** Comments that describe the file rather than the declaration below them. */
const FILE_HEADER = /@(license|preserve|file|fileoverview|overview|packageDocumentation|copyright)\b|^\/\*\*\s*!|\bcopyright\b/i;
const HIDDEN = /^(private|internal|ignore|hidden|protected)$/;

/** The doc comment directly above `node` (the last `/** … *\/` among its leading comments). */
export function docCommentOf(sf: ts.SourceFile, node: ts.Node): DocComment | undefined {
  const text = sf.text;
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  for (let i = ranges.length - 1; i >= 0; i--) {
    const r = ranges[i];
    if (r.kind !== ts.SyntaxKind.MultiLineCommentTrivia || !text.startsWith('/**', r.pos) || r.end - r.pos < 5) continue;
    const raw = text.slice(r.pos, r.end);
    if (FILE_HEADER.test(raw)) return undefined;
    return parseDocComment(raw, sf.getLineAndCharacterOfPosition(r.pos).line);
  }
  return undefined;
}

/** Splits a raw comment into summary and tags; `firstLine` is the 0-based line of `/**`. */
export function parseDocComment(raw: string, firstLine = 0): DocComment {
  const lines = raw
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map(stripMargin);
  const summary: string[] = [];
  const tags: { name: string; lines: string[]; line: number }[] = [];
  let inFence = false;
  lines.forEach((line, i) => {
    const tag = inFence ? null : /^\s{0,3}@([A-Za-z][\w-]*)(?:\s+(.*))?$/.exec(line);
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (tag) tags.push({ name: tag[1], lines: [tag[2] ?? ''], line: firstLine + i });
    else if (tags.length > 0) tags[tags.length - 1].lines.push(line);
    else summary.push(line);
  });
  return {
    summary: dedent(summary),
    tags: tags.map((t) => ({
      name: t.name,
      text: dedent(t.lines),
      line: t.line,
      textLine:
        t.line +
        Math.max(
          0,
          t.lines.findIndex((l) => l.trim() !== ''),
        ),
    })),
  };
}

/** Whether the comment marks its declaration as not part of the public API. */
export function isHiddenDoc(doc: DocComment | undefined): boolean {
  if (!doc) return false;
  return doc.tags.some((t) => HIDDEN.test(t.name) || ((t.name === 'api' || t.name === 'access') && /^(private|protected)\b/.test(t.text)));
}

/** Summary, then parameters, return value, errors and deprecation as plain lines. */
export function renderDocDescription(doc: DocComment | undefined): string {
  if (!doc) return '';
  const parts = [resolveInlineTags(doc.summary)];
  const remarks = doc.tags.filter((t) => t.name === 'remarks' || t.name === 'description' || t.name === 'desc');
  for (const r of remarks) parts.push(resolveInlineTags(r.text));
  const params = doc.tags.filter((t) => /^(param|arg|argument|typeParam|template|prop|property)$/.test(t.name)).map(renderParam);
  if (params.length > 0) parts.push(['Parameters:', ...params].join('\n'));
  const lines: string[] = [];
  for (const t of doc.tags) {
    const text = resolveInlineTags(stripType(t.text).text);
    if (t.name === 'returns' || t.name === 'return') lines.push(`Returns: ${text || stripType(t.text).type}`);
    else if (t.name === 'throws' || t.name === 'throw' || t.name === 'exception') lines.push(`Throws: ${text || stripType(t.text).type}`);
    else if (t.name === 'deprecated') lines.push(`Deprecated${text ? `: ${text}` : '.'}`);
    else if (t.name === 'defaultValue' || t.name === 'default') lines.push(`Default: ${text}`);
    else if (t.name === 'see') lines.push(`See: ${text}`);
  }
  if (lines.length > 0) parts.push(lines.join('\n'));
  return parts
    .filter((p) => p.trim() !== '')
    .join('\n\n')
    .trim();
}

/** The `@example` tags as code blocks, fences split apart and captions kept. */
export function docExamples(doc: DocComment | undefined): DocExample[] {
  if (!doc) return [];
  const out: DocExample[] = [];
  for (const tag of doc.tags) {
    if (tag.name !== 'example') continue;
    let text = tag.text;
    let caption = '';
    const cap = /^\s*<caption>([\s\S]*?)<\/caption>\s*/.exec(text);
    if (cap) {
      caption = cap[1].trim();
      text = text.slice(cap[0].length);
    }
    const textLine = tag.textLine + (cap ? cap[0].split('\n').length - 1 : 0);
    if (/^\s*(```|~~~)/m.test(text)) out.push(...fencedBlocks(text, textLine, caption));
    else if (text.trim() !== '') out.push({ code: dedent(text.split('\n')), language: '', caption, line: textLine });
  }
  return out;
}

function fencedBlocks(text: string, firstLine: number, caption: string): DocExample[] {
  const out: DocExample[] = [];
  const lines = text.split('\n');
  let prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(```|~~~)\s*([\w#+.-]*)/.exec(lines[i]);
    if (!open) {
      prose.push(lines[i]);
      continue;
    }
    const body: string[] = [];
    let k = i + 1;
    while (k < lines.length && !lines[k].trimStart().startsWith(open[1])) body.push(lines[k++]);
    const before = prose.join('\n').trim();
    out.push({ code: dedent(body), language: open[2].toLowerCase(), caption: before || caption, line: firstLine + i + 1 });
    prose = [];
    i = k;
  }
  return out.filter((e) => e.code.trim() !== '');
}

/** `@param {Type} [name=default] - text` → `- name (Type): text`. */
function renderParam(tag: DocTag): string {
  const { type, text } = stripType(tag.text);
  // `{T} a, b or c` names the alternatives of one parameter: keep them together as its name.
  const m = /^([\w$]+(?:,\s*[\w$]+)+(?:,?\s+or\s+[\w$]+)?|\[[^\]]*\]|[\w$.[\]'"]+)\s*(?:-\s*)?([\s\S]*)$/.exec(text);
  if (!m) return `- ${resolveInlineTags(text)}`;
  const optional = m[1].startsWith('[');
  const [name, defaultValue] = m[1].replace(/^\[|\]$/g, '').split('=');
  const details = [type, optional ? 'optional' : '', defaultValue ? `default ${defaultValue.trim()}` : ''].filter(Boolean).join(', ');
  const body = resolveInlineTags(m[2]).replace(/\n+/g, ' ');
  return `- ${name.trim()}${details ? ` (${details})` : ''}${body ? `: ${body}` : ''}`;
}

/** Separates a leading `{Type}` (braces balanced) from the rest of a tag's text. */
function stripType(text: string): { type: string; text: string } {
  const t = text.trimStart();
  if (!t.startsWith('{')) return { type: '', text: t.trim() };
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '{') depth++;
    else if (t[i] === '}' && --depth === 0) return { type: t.slice(1, i).trim(), text: t.slice(i + 1).trim() };
  }
  return { type: '', text: t.trim() };
}

/** `{@link Foo}` → Foo, `{@link Foo | the foo}` / `{@link Foo the foo}` → the foo. */
export function resolveInlineTags(text: string): string {
  return text
    .replace(/\{@(?:link|linkcode|linkplain|see)\s+([^}|\s]+)(?:\s*\|\s*|\s+)?([^}]*)\}/g, (_m, target: string, label: string) => label.trim() || target)
    .replace(/\{@inheritDoc[^}]*\}/gi, '');
}

function stripMargin(line: string): string {
  const m = /^\s*\*(?!\/) ?/.exec(line);
  return (m ? line.slice(m[0].length) : line).replace(/\s+$/, '');
}

/** Removes the common indentation and surrounding blank lines. */
function dedent(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === '') start++;
  while (end > start && lines[end - 1].trim() === '') end--;
  const body = lines.slice(start, end);
  let common = Infinity;
  for (const l of body) if (l.trim() !== '') common = Math.min(common, l.length - l.trimStart().length);
  if (!Number.isFinite(common) || common === 0) return body.join('\n');
  return body.map((l) => l.slice(Math.min(common, l.length - l.trimStart().length))).join('\n');
}
