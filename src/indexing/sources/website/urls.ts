/**
 * URL rules of the crawler: one normal form per page (so a page linked five ways is fetched
 * once), the crawl scope, and the document path a page is stored under.
 */
import { minimatch } from 'minimatch';

/** Query parameters that track a visit and never select content. */
const TRACKING = /^(utm_[a-z_]+|gclid|gbraid|wbraid|fbclid|msclkid|mc_cid|mc_eid|ref|ref_src|_hsenc|_hsmi|yclid|igshid)$/i;

/** Extensions of files that are never documentation pages (no need to ask the server). */
const NOT_PAGES = /\.(png|jpe?g|gif|svg|webp|ico|bmp|css|js|mjs|map|json|xml|pdf|zip|gz|tgz|tar|whl|exe|dmg|woff2?|ttf|eot|mp4|webm|mp3|wav|avi|mov)$/i;

/**
 * The URL to fetch for `raw` (resolved against `base`): no fragment, no tracking parameters,
 * the other parameters sorted (they select content, their order does not), lowercase host and
 * no default port (the WHATWG parser does both). Undefined for non-http(s) URLs.
 */
export function normalizeUrl(raw: string, base?: string | URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  url.username = '';
  url.password = '';
  const params = [...url.searchParams].filter(([k]) => !TRACKING.test(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  url.search = params.length ? new URLSearchParams(params).toString() : '';
  return url;
}

/**
 * The identity of a page: the normal form with a trailing slash and a trailing `index.html`
 * dropped, so `/guide`, `/guide/` and `/guide/index.html` are one page.
 */
export function pageKey(url: URL): string {
  const path = url.pathname.replace(/\/index\.html?$/i, '/').replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** Whether the URL names a file that is certainly not a page (an image, a script, an archive). */
export function isAssetUrl(url: URL): boolean {
  return NOT_PAGES.test(url.pathname);
}

export type CrawlScope = 'page' | 'subpages' | 'hostname';

/** Decides whether a URL belongs to a crawl: its scope around the start URL and the include/exclude globs. */
export class ScopeRule {
  private readonly startKey: string;
  private readonly prefix: string;
  private readonly host: string;

  constructor(
    start: URL,
    private readonly scope: CrawlScope,
    private readonly include: readonly string[],
    private readonly exclude: readonly string[],
  ) {
    this.startKey = pageKey(start);
    this.host = start.hostname;
    // `/docs/guide/intro.html` covers `/docs/guide/...`; `/docs` and `/docs/` cover `/docs/...`.
    const path = start.pathname;
    const dir = /\/[^/]*\.[A-Za-z0-9]+$/.test(path) ? path.slice(0, path.lastIndexOf('/') + 1) : path.replace(/\/*$/, '/');
    this.prefix = `${start.protocol}//${start.host}${dir}`;
  }

  /** Undefined when the URL is in scope, else why not (for the skip's detail). */
  refuse(url: URL): string | undefined {
    if (this.scope === 'page' && pageKey(url) !== this.startKey) return 'scope is one page';
    if (this.scope === 'subpages') {
      const href = `${url.protocol}//${url.host}${url.pathname}`;
      if (!href.startsWith(this.prefix) && `${href}/` !== this.prefix) return `not under ${this.prefix}`;
    }
    if (this.scope === 'hostname' && url.hostname !== this.host) return `not on ${this.host}`;
    return this.refuseByPattern(url);
  }

  /** Only the include/exclude globs (matched against the path, with the query when there is one). */
  refuseByPattern(url: URL): string | undefined {
    const target = `${url.pathname}${url.search}`;
    const matches = (glob: string) => minimatch(url.pathname, glob, { dot: true }) || minimatch(target, glob, { dot: true });
    if (this.include.length && !this.include.some(matches)) return 'matches no include pattern';
    const excluded = this.exclude.find(matches);
    return excluded ? `matches exclude pattern ${excluded}` : undefined;
  }
}

/**
 * The document path of a page: its URL path without the leading slash (a page on another
 * host under the host's name), `index` for folders, the query folded into the name, and the
 * extension that says how to parse it (`.md` for Markdown, `.html` otherwise).
 */
export function documentPath(url: URL, start: URL, format: 'md' | 'html'): string {
  let path = decodeSafe(url.pathname).replace(/^\/+/, '');
  if (path === '' || path.endsWith('/')) path += 'index';
  // `a.html.md` (an llms.txt twin) names the same page as `a.html`.
  path = path.replace(/(\.html?)?\.(md|markdown|mdx)$/i, '').replace(/\.(html?|txt|php|aspx?|jsp)$/i, '');
  if (url.search) path += `_${decodeSafe(url.search.slice(1)).replace(/[^A-Za-z0-9._=-]+/g, '_')}`;
  if (url.host !== start.host) path = `${url.host}/${path}`;
  // Path segments that could climb out of a folder downstream are neutralised.
  path = path
    .split('/')
    .map((s) => (s === '..' || s === '.' ? '_' : s))
    .join('/');
  return `${path}.${format}`;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The `.md` twin of a page URL by the llms.txt convention (llmstxt.org): `.md` appended to
 * the URL, `index.html.md` for a folder (`/a/b` → `/a/b.md`, `/a/b.html` → `/a/b.html.md`,
 * `/a/` → `/a/index.html.md`). Undefined for URLs that are Markdown already or have a query.
 */
export function markdownAlternate(url: URL): URL | undefined {
  if (/\.(md|markdown|txt)$/i.test(url.pathname) || url.search) return undefined;
  const alt = new URL(url.href);
  alt.pathname = alt.pathname.endsWith('/') ? `${alt.pathname}index.html.md` : `${alt.pathname}.md`;
  return alt;
}
