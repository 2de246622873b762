/**
 * Docusaurus/MDX raw imports: `import Source from '!!raw-loader!./example.js'` (or
 * `'./example.js?raw'`) rendered with `<CodeBlock language="js" title="…">{Source}</CodeBlock>`.
 * The element becomes a fenced block holding the file (language from the element or the
 * extension, title kept as fence metadata); the import line goes.
 */
import { languageOf, replaceAsync, type IncludeResolver } from './resolver';

const IMPORT = /^import[ \t]+(\w+)[ \t]+from[ \t]+(["'])(?:!{0,2}raw-loader!|!{1,2})?([^"'\n?]+)(\?raw)?\2;?[ \t]*$/gm;
/** What a bundler tries after an extensionless import. */
const EXTENSIONS = ['', '.tsx', '.ts', '.jsx', '.js', '.mjs', '/index.tsx', '/index.ts', '/index.jsx', '/index.js'];

export async function expandMdxRawImports(text: string, r: IncludeResolver): Promise<string> {
  if (!/raw-loader!|\?raw["']/.test(text)) return text;
  const sources = new Map<string, { target: string; raw: boolean }>();
  const withoutImports = text.replace(IMPORT, (whole, name: string, _q: string, target: string, query: string | undefined) => {
    const raw = whole.includes('raw-loader!') || query === '?raw';
    if (!raw) return whole;
    sources.set(name, { target, raw });
    return '';
  });
  if (sources.size === 0) return text;
  const element = new RegExp(`<(\\w+)([^>]*)>\\s*\\{\\s*(${[...sources.keys()].join('|')})\\s*\\}\\s*</\\1>`, 'g');
  return replaceAsync(withoutImports, element, async (m) => {
    const [whole, , attrs, name] = m;
    const source = sources.get(name);
    if (!source) return whole;
    const resolved = locateModule(source.target, r);
    const body = await r.load(source.target, resolved);
    if (body === undefined) return whole;
    const language =
      /\blanguage=["']([^"']+)["']/.exec(attrs)?.[1] ?? /\bclassName=["']language-([^"']+)["']/.exec(attrs)?.[1] ?? languageOf(resolved ?? source.target);
    const title = /\btitle=["']([^"']+)["']/.exec(attrs)?.[1];
    const fence = body.includes('```') ? '~~~~' : '```';
    return `\n${fence}${language}${title ? ` title="${title}"` : ''}\n${body.replace(/\n+$/, '')}\n${fence}\n`;
  });
}

/**
 * A module path as the docs' bundler resolves it: relative to the page, or `@site/…` from
 * the folder holding docusaurus.config.*, with the extensions a bundler tries.
 */
function locateModule(target: string, r: IncludeResolver): string | undefined {
  let spec = target;
  if (spec.startsWith('@site/')) {
    const config = r.files.paths().find((p) => /(^|\/)docusaurus\.config\.[cm]?[jt]s$/.test(p));
    const root = config && config.includes('/') ? config.slice(0, config.lastIndexOf('/')) : '';
    spec = `/${root ? `${root}/` : ''}${spec.slice('@site/'.length)}`;
  }
  for (const ext of EXTENSIONS) {
    const found = r.locate(spec + ext);
    if (found) return found;
  }
  return undefined;
}
