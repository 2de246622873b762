/**
 * mdBook links: `{{#include file}}`, `{{#include file:anchor}}`, `{{#include file:2:10}}`
 * (also `:5`, `::10`, `:2:`), `{{#rustdoc_include …}}` and `{{#playground file}}`. Paths are
 * relative to the file holding the directive; `\{{#…}}` is an escape. rustdoc_include
 * renders only the selected part (the rest is hidden), so it is the selected part that is
 * kept. Markdown files included are expanded in turn. `{{#title …}}` lines go (the page's
 * browser title); lines Rust examples hide (`# fn main() {`) go in the parser (fence-meta.ts).
 */
import { dropMdbookMarkers, lineRange, mdbookAnchor } from './select-lines';
import { replaceAsync, type IncludeResolver } from './resolver';

const LINK = /(\\?)\{\{#(include|rustdoc_include|playground)\s+([^}\s]+)[^}]*\}\}/g;

/** `{{#title …}}` sets the browser's title of the page; readers never see it in the text. */
const TITLE = /^[ \t]*\{\{#title\s[^}\n]*\}\}[ \t]*\n?/gm;

export async function expandMdbook(text: string, r: IncludeResolver): Promise<string> {
  if (!text.includes('{{#')) return text;
  return replaceAsync(text.replace(TITLE, ''), LINK, async (m) => {
    const [whole, escaped, , arg] = m;
    if (escaped) return whole.slice(1);
    if (arg.startsWith('[')) return whole; // a usage example like {{#include [filename]}}
    const [file, ...rest] = arg.split(':');
    const body = await r.load(file, r.locate(file));
    if (body === undefined) return whole;
    const part = selectPart(body, rest);
    if (part === undefined) {
      r.problem(arg, 'part missing');
      return whole;
    }
    const trimmed = part.replace(/\n+$/, '');
    return /\.(md|markdown)$/i.test(file) ? r.within(r.locate(file) ?? file, () => expandMdbook(trimmed, r)) : trimmed;
  });
}

function selectPart(body: string, rest: string[]): string | undefined {
  if (rest.length === 0) return dropMdbookMarkers(body);
  if (rest.length === 1 && rest[0] !== '' && !/^\d+$/.test(rest[0])) return mdbookAnchor(body, rest[0]);
  const from = rest[0] === '' ? undefined : Number(rest[0]);
  // `file:5` is line 5 alone; `file:5:` from 5 to the end.
  const to = rest.length === 1 ? from : rest[1] === '' ? undefined : Number(rest[1]);
  if ((from !== undefined && Number.isNaN(from)) || (to !== undefined && Number.isNaN(to))) return undefined;
  return dropMdbookMarkers(lineRange(body, from, to));
}
