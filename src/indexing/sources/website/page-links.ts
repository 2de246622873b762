/**
 * What the crawler reads from a fetched page besides its text: the links to follow, the
 * canonical URL, a Markdown alternate and the robots meta directives. HTML goes through a
 * real parser (linkedom); Markdown through marked's lexer. No regular expressions over markup.
 */
import { DOMParser, parseHTML } from 'linkedom';
import { marked, type Token } from 'marked';

export interface PageLinks {
  /** Absolute link targets (unnormalised), in document order. */
  links: string[];
  canonical?: string;
  /** `<link rel="alternate" type="text/markdown" href>`. */
  markdown?: string;
  /** `<meta name="robots" content="noindex">`. */
  noindex: boolean;
  /** `<meta name="robots" content="nofollow">`. */
  nofollow: boolean;
}

/** Links and head directives of an HTML page; relative URLs resolved against `<base>` or `pageUrl`. */
export function readHtmlLinks(html: string, pageUrl: string): PageLinks {
  const { document } = parseHTML(html);
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  const base = resolve(baseHref ?? '', pageUrl) ?? pageUrl;
  const links: string[] = [];
  for (const a of document.querySelectorAll('a[href], area[href]')) {
    const rel = (a.getAttribute('rel') ?? '').toLowerCase();
    if (rel.split(/\s+/).includes('nofollow')) continue;
    const href = resolve(a.getAttribute('href') ?? '', base);
    if (href) links.push(href);
  }
  const linkHref = (selector: string) => {
    const href = document.querySelector(selector)?.getAttribute('href');
    return href ? resolve(href, base) : undefined;
  };
  const robots = [...document.querySelectorAll('meta[name]')]
    .filter((m) => /^(robots|shelfmarkbot)$/i.test(m.getAttribute('name') ?? ''))
    .map((m) => (m.getAttribute('content') ?? '').toLowerCase())
    .join(',');
  return {
    links,
    canonical: linkHref('link[rel="canonical"]'),
    markdown: linkHref('link[rel="alternate"][type="text/markdown"]') ?? linkHref('link[rel="alternate"][type="text/x-markdown"]'),
    noindex: /\b(noindex|none)\b/.test(robots),
    nofollow: /\b(nofollow|none)\b/.test(robots),
  };
}

/** Link targets of a Markdown document, resolved against its URL. */
export function readMarkdownLinks(markdown: string, pageUrl: string): string[] {
  const out: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'link') {
        const href = resolve((token as { href: string }).href, pageUrl);
        if (href) out.push(href);
      }
      const children = (token as { tokens?: Token[] }).tokens;
      if (children) walk(children);
      const items = (token as { items?: Array<{ tokens?: Token[] }> }).items;
      if (items) for (const item of items) if (item.tokens) walk(item.tokens);
    }
  };
  walk(marked.lexer(markdown));
  return out;
}

/** `<loc>`s of a sitemap, and whether it is a sitemap index (its locs are more sitemaps). */
export function readSitemap(xml: string): { index: boolean; locs: string[] } {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  const index = (root?.localName ?? root?.tagName ?? '').toLowerCase().endsWith('sitemapindex');
  const locs = [...doc.getElementsByTagName('loc')].map((l) => (l.textContent ?? '').trim()).filter(Boolean);
  return { index, locs };
}

function resolve(href: string, base: string): string | undefined {
  const h = href.trim();
  if (!h || h.startsWith('#') || /^(javascript|mailto|tel|data):/i.test(h)) return undefined;
  try {
    return new URL(h, base).href;
  } catch {
    return undefined;
  }
}
