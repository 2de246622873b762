/**
 * PyMdown Snippets (MkDocs): `--8<-- "file"` on a line of its own (`file:3:5` line range,
 * `file:name` for a `--8<-- [start:name]` section), the block form (`--8<--` lines around
 * a list of files), `;--8<--` as an escape. Paths are relative to the configured
 * `base_path` (default: the folder of mkdocs.yml), then the page's folder. Included text
 * takes the directive's indentation and is expanded in turn.
 */
import path from 'node:path';
import { dropSnippetMarkers, lineSpec, snippetSection } from './select-lines';
import { indented, replaceAsync, type IncludeResolver } from './resolver';

const SINGLE = /^([ \t]*)(;?)-{1,}8<-{1,}[ \t]+(["'])([^"'\n]+)\3[ \t]*$/gm;
const BLOCK = /^([ \t]*)-{1,}8<-{1,}[ \t]*\n((?:\1[^\n]*\n)*?)\1-{1,}8<-{1,}[ \t]*$/gm;

export async function expandMkdocsSnippets(text: string, r: IncludeResolver, bases: string[]): Promise<string> {
  if (!/8<-/.test(text)) return text;
  const withBlocks = await replaceAsync(text, BLOCK, async (m) => {
    const [, indent, list] = m;
    const parts: string[] = [];
    for (const line of list
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith(';')))
      parts.push(await one(line, indent, r, bases));
    return parts.join('\n');
  });
  return replaceAsync(withBlocks, SINGLE, async (m) => {
    const [whole, indent, escaped, , spec] = m;
    if (escaped) return whole.replace(';', '');
    return one(spec, indent, r, bases);
  });
}

async function one(spec: string, indent: string, r: IncludeResolver, bases: string[]): Promise<string> {
  const directive = `${indent}--8<-- "${spec}"`;
  const m = /^(.*?)(?::(\d*)(?::(\d*))?|:([\w-]+))?$/.exec(spec.trim());
  const file = m?.[1] ?? spec;
  const resolved = r.locate(file, bases);
  const body = await r.load(file, resolved);
  if (body === undefined) return directive;
  let part: string | undefined = body;
  if (m?.[4]) part = snippetSection(body, m[4]);
  else if (m?.[2] !== undefined) part = lineSpec(body, `${m[2] || 1}..${m[3] ?? -1}`);
  if (part === undefined) {
    r.problem(spec, 'part missing');
    return directive;
  }
  const nested =
    /\.(md|markdown)$/i.test(file) && resolved
      ? await r.within(resolved, () => expandMkdocsSnippets(dropSnippetMarkers(part), r, bases))
      : dropSnippetMarkers(part);
  return indented(nested, indent);
}

/**
 * The snippet base folders of the repository: each `base_path` in mkdocs.yml (relative to
 * its folder), else that folder itself; a repository without mkdocs.yml resolves from its root.
 */
export async function snippetBases(r: IncludeResolver): Promise<string[]> {
  const configs = r.files.paths().filter((p) => /(^|\/)mkdocs\.ya?ml$/.test(p));
  const bases: string[] = [];
  for (const cfg of configs) {
    const dir = path.posix.dirname(cfg) === '.' ? '' : path.posix.dirname(cfg);
    const text = (await r.files.read(cfg)) ?? '';
    const block = /^\s*base_path:\s*(.*)$/m.exec(text);
    const listed: string[] = [];
    if (block) {
      const inline = block[1].trim();
      if (inline.startsWith('[')) listed.push(...inline.slice(1, -1).split(',').map(unquote));
      else if (inline) listed.push(unquote(inline));
      else {
        for (const line of text
          .slice(block.index + block[0].length)
          .split('\n')
          .slice(1)) {
          const item = /^\s*-\s*(.+)$/.exec(line);
          if (!item) {
            if (line.trim() === '') continue;
            break;
          }
          listed.push(unquote(item[1]));
        }
      }
    }
    for (const b of listed.length ? listed : ['.']) bases.push(path.posix.normalize(path.posix.join(dir, b)).replace(/^\.$/, ''));
  }
  return bases;
}

function unquote(s: string): string {
  return s.trim().replace(/^["']|["']$/g, '');
}
