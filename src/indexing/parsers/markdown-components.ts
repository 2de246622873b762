/**
 * MDX components whose rendered content is not in the page's text, written out before the
 * Markdown passes: Starlight's `<PackageManagers pkg="…" />` becomes a fenced block of the
 * commands it shows, and a listing's caption (`<Listing number="1-2" caption="…">`, as in The
 * Rust Programming Language) becomes the line that introduces the code. Lines inside code
 * fences are never touched; replacement lines keep the tag's line number and the tag's other
 * lines become blank, so numbering stays true.
 */
import { labelled, packageManagerCommands } from './package-managers';
import type { SourceLine } from './text-utils';

const COMPONENT = /^\s*<(PackageManagers|Listing)\b/;
const FENCE = /^\s*(`{3,}|~{3,})/;

export function expandComponents(lines: readonly SourceLine[]): SourceLine[] {
  if (!lines.some((l) => COMPONENT.test(l.text))) return [...lines];
  const out: SourceLine[] = [];
  let fence = '';
  for (let i = 0; i < lines.length; i++) {
    const f = FENCE.exec(lines[i].text);
    if (f && (fence === '' || (f[1][0] === fence[0] && f[1].length >= fence.length && lines[i].text.trim() === f[1]))) fence = fence === '' ? f[1] : '';
    const component = fence === '' ? COMPONENT.exec(lines[i].text) : null;
    if (!component) {
      out.push(lines[i]);
      continue;
    }
    let end = i;
    let tag = lines[i].text;
    while (!/>\s*$/.test(tag) && end + 1 < lines.length && end - i < 20) tag += ` ${lines[++end].text}`;
    const replacement = component[1] === 'Listing' ? listingCaption(tag) : packageManagerFence(tag);
    if (!replacement) {
      out.push(lines[i]);
      continue;
    }
    for (const text of replacement) out.push({ text, line: lines[i].line });
    for (let k = i + 1; k <= end; k++) out.push({ text: '', line: lines[k].line });
    i = end;
  }
  return out;
}

function packageManagerFence(tag: string): string[] | undefined {
  const commands = packageManagerCommands(tag);
  return commands ? ['', '```sh', ...labelled(commands).split('\n'), '```', ''] : undefined;
}

/** `<Listing number="1-2" file-name="src/main.rs" caption="…">` → `Listing 1-2: … (src/main.rs)`. */
function listingCaption(tag: string): string[] | undefined {
  const attr = (name: string) =>
    new RegExp(`\\b${name}=(?:"([^"]*)"|'([^']*)')`)
      .exec(tag)
      ?.slice(1)
      .find((v) => v !== undefined);
  const caption = attr('caption');
  const file = attr('file-name');
  if (!caption && !file) return undefined;
  const number = attr('number');
  const text = [caption ? `${number ? `Listing ${number}: ` : ''}${caption}` : '', file ? `${caption ? '(' : 'File: '}${file}${caption ? ')' : ''}` : '']
    .filter(Boolean)
    .join(' ');
  return ['', text, ''];
}
