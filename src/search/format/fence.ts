/**
 * The Markdown a section snippet is stored as: its prose with its code examples in place, each
 * example fenced by `fenceFor` (a fence longer than any backtick run inside, so the code
 * cannot close it). This module writes those fences and reads them back: the code blocks for
 * Context7's `codeList`, the prose alone for search and for a code snippet's description.
 * It only reads what `fencedCode` writes (a fence line of 3+ backticks, an info string, the
 * same fence closing), not Markdown at large.
 */

/** One code block of a snippet's Markdown. */
export interface FencedBlock {
  language: string;
  code: string;
}

/** A fence longer than any run of backticks inside the code, so the code cannot close it. */
export function fenceFor(code: string): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A code block as fenced Markdown; `file` (the file the code belongs in) goes in the info string. */
export function fencedCode(code: string, language: string, file?: string): string {
  const fence = fenceFor(code);
  const info = file ? `${language || 'text'} title="${file.replace(/"/g, "'")}"` : language;
  return `${fence}${info}\n${code}\n${fence}`;
}

const OPENING = /^(`{3,})([^`\n]*)$/;

interface Segment {
  code: boolean;
  text: string;
  language: string;
}

/** Splits Markdown into prose and fenced code, in order. An unclosed fence runs to the end. */
function segments(markdown: string): Segment[] {
  const out: Segment[] = [];
  const lines = markdown.split('\n');
  let prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]);
    if (!open) {
      prose.push(lines[i]);
      continue;
    }
    if (prose.length > 0) out.push({ code: false, text: prose.join('\n'), language: '' });
    prose = [];
    const fence = open[1];
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j] !== fence) body.push(lines[j++]);
    out.push({ code: true, text: body.join('\n'), language: open[2].trim().split(/\s+/)[0] ?? '' });
    i = j;
  }
  if (prose.length > 0) out.push({ code: false, text: prose.join('\n'), language: '' });
  return out;
}

/** The fenced code blocks of a snippet's Markdown, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  if (!markdown.includes('```')) return [];
  return segments(markdown)
    .filter((s) => s.code)
    .map((s) => ({ language: s.language, code: s.text }));
}

/** A snippet's Markdown without its fenced code: the prose a reader or a search engine reads. */
export function proseOf(markdown: string): string {
  if (!markdown.includes('```')) return markdown;
  return segments(markdown)
    .filter((s) => !s.code)
    .map((s) => s.text.trim())
    .filter((t) => t !== '')
    .join('\n\n');
}

/** The Markdown with each unlabelled fence labelled by `label(code)` (kept unlabelled when it gives ""). */
export function labelFences(markdown: string, label: (code: string) => string): string {
  if (!markdown.includes('```')) return markdown;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    let j = i + 1;
    while (j < lines.length && lines[j] !== fence) j++;
    const language = open[2].trim() === '' ? label(lines.slice(i + 1, j).join('\n')) : '';
    if (language !== '') lines[i] = `${fence}${language}`;
    i = j;
  }
  return lines.join('\n');
}
