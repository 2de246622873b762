/**
 * FastAPI's include conventions, which its docs use for every example: `{* path ln[..] hl[..] *}`
 * on a line of its own renders the file as a code block (`ln[3:5,9:]` keeps those line ranges,
 * with an omission comment between them as FastAPI's renderer shows; `hl[..]` only
 * highlights); `{!> path !}` and `{! path !}` (mdx_include) splice the file's text where they
 * stand, usually inside a fence; a `[ln:1-18,21-]` after the path (mdx_include's line
 * selector, as SQLModel's docs write `{!./docs_src/app.py[ln:1-18]!}`) keeps those lines. Paths
 * are relative to the MkDocs project folder (where mkdocs.yml is: `../../docs_src/...` from
 * `docs/en/`), then to the page.
 */
import { indented, languageOf, replaceAsync, type IncludeResolver } from './resolver';
import { lineSpec } from './select-lines';

const STAR = /^([ \t]*)\{\*[ \t]*(\S+?)((?:[ \t]+[a-z_]+\[[^\]\n]*\])*)[ \t]*\*\}[ \t]*$/gm;
const BANG_LINE = /^([ \t]*)\{!>?[ \t]*([^!\n]+?)[ \t]*!\}[ \t]*$/gm;
const BANG_INLINE = /\{!>?[ \t]*([^!\n]+?)[ \t]*!\}/g;

/** True when the text may hold one of these directives (a cheap pre-check). */
export const FASTAPI_DIRECTIVE = /\{\*[ \t]*\S|\{!>?[ \t]*[^!\s]/;

const OMITTED: Record<string, string> = { python: '# Code omitted 👇', javascript: '// Code omitted 👇', typescript: '// Code omitted 👇' };

/** `ln[3:5,9:]`: the lines kept, 1-based inclusive, an open end reaching the last line. */
export function keepLines(text: string, spec: string, language: string): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  const pieces: string[] = [];
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(\d*)(?::(\d*))?$/.exec(part);
    if (!m) continue;
    const from = m[1] ? Number(m[1]) : 1;
    const to = m[2] === undefined ? from : m[2] === '' ? lines.length : Number(m[2]);
    pieces.push(lines.slice(from - 1, to).join('\n'));
  }
  return pieces.join(`\n\n${OMITTED[language] ?? '...'}\n\n`);
}

export async function expandFastapi(text: string, r: IncludeResolver, bases: string[]): Promise<string> {
  if (!FASTAPI_DIRECTIVE.test(text)) return text;
  const load = async (target: string) => r.load(target, r.locate(target, bases));
  // A line directive whose file is missing is not looked up again as an inline one.
  const tried = new Set<string>();
  // mdx_include: `path [ln:1-3,5-]` splices those lines of the file.
  const splice = async (target: string) => {
    const selector = /^(.*?)[ \t]*\[ln:([^\]]*)\]$/.exec(target);
    if (!selector) return load(target);
    const body = await load(selector[1]);
    return body === undefined ? undefined : lineSpec(body.replace(/\n+$/, ''), selector[2]);
  };
  let out = await replaceAsync(text, STAR, async (m) => {
    const [whole, indent, target, options] = m;
    const body = await load(target);
    if (body === undefined) return whole;
    const language = languageOf(target);
    const ln = /\bln\[([^\]]*)\]/.exec(options)?.[1];
    const code = ln ? keepLines(body, ln, language) : body.replace(/\n+$/, '');
    return indented(`\`\`\`${language}\n${code}\n\`\`\``, indent);
  });
  out = await replaceAsync(out, BANG_LINE, async (m) => {
    const [whole, indent, target] = m;
    const body = await splice(target);
    if (body === undefined) tried.add(target);
    return body === undefined ? whole : indented(body, indent);
  });
  return replaceAsync(out, BANG_INLINE, async (m) => (tried.has(m[1]) ? undefined : await splice(m[1])) ?? m[0]);
}
