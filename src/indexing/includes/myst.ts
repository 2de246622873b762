/**
 * MyST Markdown (Sphinx with myst-parser): the ```{include}``` and ```{literalinclude}```
 * directive fences (also `:::` colon fences). Options come as `:name: value` lines or a
 * `---` YAML block at the top of the fence, with the values of reST's directives
 * (`:start-after:`/`:end-before:`, `:start-line:`/`:end-line:`, `:lines:`, `:pyobject:`,
 * `:language:`, `:literal:`, `:code:`, `:dedent:`, and MyST's `:heading-offset:`); a
 * quoted value is read without its quotes, as MyST's YAML reads it. An included Markdown
 * file is spliced (its own includes expanded), a reST one becomes an `{eval-rst}` fence, a
 * literal include or any other file a code fence. Paths are relative to the page; `/path`
 * is relative to the Sphinx source folder. A directive whose file or part is missing stays
 * as written (the parser drops it) and is reported.
 */
import { dedent } from './select-lines';
import { indented, languageOf, replaceAsync, type IncludeResolver } from './resolver';
import { readPart, sourceRoots } from './sphinx';
import { fencedCode } from '../../search/format/fence';

const DIRECTIVE = /^([ \t]*)(`{3,}|:{3,})\{(include|literalinclude)\}[ \t]*([^\n]*)\n([\s\S]*?)^[ \t]*\2[ \t]*$/gm;

/** Whether the text has a MyST include fence (a cheap pre-check). */
export const MYST_INCLUDE = /^[ \t]*(?:`{3,}|:{3,})\{(?:literal)?include\}/m;

export async function expandMyst(text: string, r: IncludeResolver): Promise<string> {
  if (!MYST_INCLUDE.test(text)) return text;
  const bases = sourceRoots(r);
  return replaceAsync(text, DIRECTIVE, async (m) => {
    const [whole, indent, , name, rawTarget, rawBody] = m;
    const target = rawTarget.trim();
    if (target === '') return whole;
    const options = optionsOf(rawBody);
    const resolved = r.locate(target, bases);
    const part = await readPart(r, target, resolved, options);
    if (part === undefined) return whole;
    if (part === '') return '';
    let out: string;
    if (name === 'literalinclude' || options.has('literal') || options.has('code') || !/\.(md|markdown|rst)$/i.test(target)) {
      const language = options.get('language') || options.get('code') || (options.has('literal') ? 'text' : languageOf(target));
      out = fencedCode((options.has('dedent') ? dedent(part) : part).replace(/\n+$/, ''), language);
    } else if (/\.rst$/i.test(target)) {
      out = fencedCode(part.replace(/\n+$/, ''), '{eval-rst}');
    } else {
      const nested = resolved ? await r.within(resolved, () => expandMyst(part, r)) : part;
      out = offsetHeadings(nested, Number(options.get('heading-offset') ?? 0) || 0);
    }
    return indented(out, indent);
  });
}

/** The fence's options: `:name: value` lines, or a `---` YAML block of `name: value` lines. */
function optionsOf(body: string): Map<string, string> {
  const lines = body.split('\n').map((l) => l.trim());
  const options = new Map<string, string>();
  if (lines[0] === '---') {
    for (const line of lines.slice(1)) {
      if (line === '---') break;
      const m = /^([\w-]+):[ \t]*(.*)$/.exec(line);
      if (m) options.set(m[1], unquote(m[2]));
    }
    return options;
  }
  for (const line of lines) {
    const m = /^:([\w-]+):[ \t]*(.*)$/.exec(line);
    if (!m) break;
    options.set(m[1], unquote(m[2]));
  }
  return options;
}

/** A YAML-quoted scalar's text ('it''s', "a \" b"); anything else as written. */
function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(["\\])/g, '$1');
  return v;
}

/** ATX headings outside code fences moved down `by` levels (MyST's `heading-offset`). */
function offsetHeadings(markdown: string, by: number): string {
  if (by <= 0) return markdown;
  let fence = '';
  return markdown
    .split('\n')
    .map((line) => {
      const open = /^[ \t]{0,3}(`{3,}|~{3,})/.exec(line);
      if (open) {
        if (fence === '') fence = open[1];
        else if (open[1].startsWith(fence)) fence = '';
        return line;
      }
      return fence === '' && /^#{1,6}[ \t]/.test(line) ? '#'.repeat(by) + line : line;
    })
    .join('\n');
}
