/**
 * AsciiDoc `include::target[opts]` (a line of its own; `\include::` escapes it): `tag=`,
 * `tags=a;!b`, `lines=1..5;7`, `indent=0`. Targets may use attributes defined in the
 * document (`{examples-dir}/Foo.java`) and Antora resource ids (`example$foo.java`,
 * `partial$bar.adoc`, `module:example$…`, `component:module:example$…`) that point into
 * the `modules/<module>/<family>s/` folders of the same repository. AsciiDoc files
 * included are expanded in turn; tag lines are removed from every include.
 */
import path from 'node:path';
import { asciidocTags, dedent, dropAsciidocTagLines, lineSpec } from './select-lines';
import { replaceAsync, type IncludeResolver } from './resolver';

const INCLUDE = /^(\\?)include::([^[\n]+)\[([^\]\n]*)\][ \t]*$/gm;
const ATTRIBUTE = /^:([\w][\w-]*):[ \t]*(.*)$/gm;
const FAMILIES: Record<string, string> = { example: 'examples', partial: 'partials', page: 'pages', attachment: 'attachments', image: 'images' };

export async function expandAsciidoc(text: string, r: IncludeResolver, attributes = new Map<string, string>()): Promise<string> {
  if (!text.includes('include::')) return text;
  for (const a of text.matchAll(ATTRIBUTE)) attributes.set(a[1], a[2].trim());
  return replaceAsync(text, INCLUDE, async (m) => {
    const [whole, escaped, rawTarget, rawOptions] = m;
    if (escaped) return whole;
    const target = rawTarget.replace(/\{([\w-]+)\}/g, (ref, name: string) => attributes.get(name) ?? ref);
    const resolved = (await antora(target, r)) ?? (target.includes('$') ? undefined : r.locate(target));
    const body = await r.load(target, resolved);
    if (body === undefined) return whole;
    const options = parseOptions(rawOptions);
    let part: string | undefined = body;
    const tags = options.get('tags') ?? options.get('tag');
    if (tags)
      part = asciidocTags(
        body,
        tags
          .split(/[;,]/)
          .map((t) => t.trim())
          .filter(Boolean),
      );
    else if (options.get('lines')) part = lineSpec(dropAsciidocTagLines(body), options.get('lines') ?? '');
    else part = dropAsciidocTagLines(body);
    if (part === undefined) {
      r.problem(`${rawTarget}[${rawOptions}]`, 'part missing');
      return whole;
    }
    if (options.get('indent') === '0') part = dedent(part);
    part = part.replace(/\n+$/, '');
    return /\.(adoc|asciidoc|asc)$/i.test(target) && resolved ? r.within(resolved, () => expandAsciidoc(part ?? '', r, attributes)) : part;
  });
}

function parseOptions(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of raw.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|([^,]*))/g)) out.set(m[1], (m[2] ?? m[3] ?? '').trim());
  return out;
}

/**
 * An Antora resource id relative to the page's module: `[[version@]component:][module:]family$path`.
 * Another component resolves when one of the repository's antora.yml files names it.
 */
async function antora(target: string, r: IncludeResolver): Promise<string | undefined> {
  const m = /^(?:([^@:$]+)@)?(?:([\w.-]+):)?(?:([\w.-]+):)?(example|partial|page|attachment|image)\$(.+)$/.exec(target);
  if (!m) return undefined;
  const [, , first, second, family, rel] = m;
  const component = second === undefined ? undefined : first;
  const module = second ?? first ?? moduleOf(r.current) ?? 'ROOT';
  const roots: string[] = [];
  const here = /^(.*?)modules\/[^/]+\//.exec(r.current)?.[1];
  if (component) {
    for (const yml of r.files.paths().filter((p) => /(^|\/)antora\.ya?ml$/.test(p))) {
      const text = (await r.files.read(yml)) ?? '';
      if (new RegExp(`^name:\\s*['"]?${component.replace(/[.-]/g, '\\$&')}['"]?\\s*$`, 'm').test(text))
        roots.push(path.posix.dirname(yml) === '.' ? '' : `${path.posix.dirname(yml)}/`);
    }
  }
  if (here !== undefined) roots.push(here);
  for (const root of roots) {
    const candidate = `${root}modules/${module}/${FAMILIES[family]}/${rel}`;
    if (r.files.has(candidate)) return candidate;
  }
  return undefined;
}

function moduleOf(file: string): string | undefined {
  return /modules\/([^/]+)\//.exec(file)?.[1];
}
