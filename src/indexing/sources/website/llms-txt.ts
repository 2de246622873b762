/**
 * llms.txt (https://llmstxt.org): `llms-full.txt` is the whole documentation as one Markdown
 * file, kept as one document that the Markdown parser splits; `llms.txt` is an index of
 * links, followed to the pages it lists, each read as its `.md` twin when the site offers
 * one (the llms.txt convention), else as the page itself.
 *
 * robots.txt is not consulted here: an llms.txt is the site's own invitation to read these
 * pages, and an operator asked for it by URL. The SSRF rules of the fetcher still apply.
 */
import { ValidationError } from '../../../errors';
import { Crawler, DEFAULT_MAX_MS, DEFAULT_MAX_URLS } from './crawler';
import { contentHash, decodeBody, formatOf } from './fetch-page';
import { readMarkdownLinks } from './page-links';
import { documentPath, markdownAlternate, normalizeUrl } from './urls';
import type { CrawlDeps, CrawlResult } from './types';

export interface LlmsTxtOptions {
  maxPages?: number;
  headers?: Record<string, string>;
  concurrency?: number;
  delayMs?: number;
  /** Budgets, as for crawl() (CrawlOptions.maxUrls / maxMs). */
  maxUrls?: number;
  maxMs?: number;
}

/** Reads an llms.txt / llms-full.txt URL into pages. Throws ValidationError for an unusable URL. */
export async function readLlmsTxt(url: string, deps: CrawlDeps, options: LlmsTxtOptions = {}): Promise<CrawlResult> {
  const start = normalizeUrl(url);
  if (!start) throw new ValidationError('url must be an absolute http(s) URL', 'url');
  const crawler = new Crawler(
    {
      start,
      maxPages: options.maxPages ?? 2000,
      maxDepth: 1,
      refuse: () => undefined,
      headers: options.headers ?? {},
      concurrency: options.concurrency ?? 2,
      delayMs: options.delayMs ?? 250,
      follow: false,
      robots: false,
      maxUrls: options.maxUrls ?? DEFAULT_MAX_URLS,
      deadline: Date.now() + (options.maxMs ?? DEFAULT_MAX_MS),
    },
    deps,
  );
  let res;
  try {
    res = await deps.fetcher.fetch(start.href, { headers: { ...options.headers, accept: 'text/markdown, text/plain' }, signal: deps.signal });
  } catch (error) {
    if (deps.signal?.aborted) throw deps.signal.reason;
    crawler.skip(start.href, 'error', (error as Error).message);
    return crawler.result;
  }
  if (res.status !== 200) {
    crawler.skip(start.href, 'status', `HTTP ${res.status}`);
    return crawler.result;
  }
  if (formatOf(res) === 'html') {
    crawler.skip(start.href, 'not_html', 'an llms.txt must be Markdown, this is an HTML page');
    return crawler.result;
  }
  const text = decodeBody(res);
  const hash = contentHash(text);
  const self = normalizeUrl(res.url) ?? start;
  const isIndex = !/llms-full\.txt$/i.test(self.pathname);
  const links = isIndex ? readMarkdownLinks(text, res.url) : [];
  const previous = deps.previous?.find((p) => p.url === self.href);
  if (previous?.hash === hash) result(crawler).unchanged.push({ url: self.href, path: previous.path, hash });
  else result(crawler).pages.push({ url: self.href, path: documentPath(self, start, 'md'), text, hash, ...validators(res.headers) });
  for (const link of links) {
    const target = normalizeUrl(link);
    const twin = target && markdownAlternate(target);
    // The listed page's `.md` twin first; the page itself when there is none.
    if (twin) crawler.enqueue(twin.href, 1, undefined, { fallback: target.href });
    else crawler.enqueue(link, 1);
  }
  return crawler.run();
}

function result(crawler: Crawler): CrawlResult {
  return crawler.result;
}

function validators(headers: Record<string, string>): { etag?: string; lastModified?: string } {
  return { ...(headers.etag ? { etag: headers.etag } : {}), ...(headers['last-modified'] ? { lastModified: headers['last-modified'] } : {}) };
}
