/**
 * Crawls a documentation website into pages for the indexing pipeline. Seeds: the start
 * URL, the pages of a previous crawl (a 304 yields no links), the site's `/llms.txt` index,
 * and its sitemaps (robots.txt `Sitemap:` lines and `/sitemap.xml`, sitemap indexes
 * followed). Then breadth-first over links within the scope; see crawler.ts for the engine.
 */
import { ValidationError } from '../../../errors';
import { Crawler, DEFAULT_MAX_MS, DEFAULT_MAX_URLS } from './crawler';
import { readMarkdownLinks, readSitemap } from './page-links';
import { normalizeUrl, ScopeRule } from './urls';
import type { CrawlDeps, CrawlOptions, CrawlResult } from './types';

export type { CrawlDeps, CrawlOptions, CrawlResult, CrawledPage, CrawlSkip, PreviousPage, SkipReason, UnchangedPage } from './types';
export { readLlmsTxt } from './llms-txt';

/** Sitemap files read per crawl at most (an index can name thousands). */
const MAX_SITEMAPS = 50;
/**
 * Sitemap entries taken per page the crawl may keep (at least {@link MIN_SITEMAP_LOCS}): a
 * sitemap lists pages to keep, so far more entries than maxPages are only skipped. Fifty
 * sitemaps of 5 MB each once put 4.25 M URLs in one frontier.
 */
const SITEMAP_LOCS_PER_PAGE = 10;
const MIN_SITEMAP_LOCS = 1000;

/** Crawls a site. Throws ValidationError for an unusable start URL; page failures become skips. */
export async function crawl(options: CrawlOptions, deps: CrawlDeps): Promise<CrawlResult> {
  const start = normalizeUrl(options.url);
  if (!start) throw new ValidationError('url must be an absolute http(s) URL', 'url');
  if (!Number.isInteger(options.maxPages) || options.maxPages < 1) throw new ValidationError('maxPages must be a positive whole number', 'maxPages');
  if (!Number.isInteger(options.maxDepth) || options.maxDepth < 0) throw new ValidationError('maxDepth must be a whole number ≥ 0', 'maxDepth');
  const scope = new ScopeRule(start, options.scope, options.include, options.exclude);
  const crawler = new Crawler(
    {
      start,
      maxPages: options.maxPages,
      maxDepth: options.maxDepth,
      refuse: (u) => scope.refuse(u),
      headers: options.headers ?? {},
      concurrency: options.concurrency ?? 2,
      delayMs: options.delayMs ?? 250,
      follow: options.scope !== 'page',
      robots: true,
      maxUrls: options.maxUrls ?? DEFAULT_MAX_URLS,
      deadline: Date.now() + (options.maxMs ?? DEFAULT_MAX_MS),
    },
    deps,
  );
  // The start page is always fetched (its links lead on) but kept only if the patterns admit it.
  crawler.enqueue(start.href, 0, undefined, { emit: !scope.refuseByPattern(start), bypassScope: true });
  if (options.scope !== 'page') {
    for (const url of crawler.previousUrls()) crawler.enqueue(url, 1);
    if (options.useLlmsTxt !== false) await seedFromLlmsTxt(crawler, start);
    await seedFromSitemaps(crawler, start, Math.max(MIN_SITEMAP_LOCS, SITEMAP_LOCS_PER_PAGE * options.maxPages));
  }
  return crawler.run();
}

/** An `/llms.txt` at the site root lists the pages its authors want read: they join the frontier. */
async function seedFromLlmsTxt(crawler: Crawler, start: URL): Promise<void> {
  const found = await crawler.fetchText(`${start.origin}/llms.txt`);
  if (!found) return;
  for (const link of readMarkdownLinks(found.text, found.url)) crawler.enqueue(link, 1);
}

/**
 * Seeds from robots.txt's sitemaps and /sitemap.xml (indexes followed), at most `budget`
 * entries: once that many are taken (or the crawl tracks all the URLs it may) no further
 * sitemap is fetched and the entries left are counted as `max_urls`. Cancellation and the
 * time budget are checked between sitemaps and while their entries are read.
 */
async function seedFromSitemaps(crawler: Crawler, start: URL, budget: number): Promise<void> {
  const named = (await crawler.robotsSitemaps(start.origin)).map((s) => normalizeUrl(s, start)?.href).filter((s): s is string => !!s);
  const pending = [...named.slice(0, MAX_SITEMAPS), `${start.origin}/sitemap.xml`];
  const read = new Set<string>();
  let taken = 0;
  while (pending.length && read.size < MAX_SITEMAPS) {
    crawler.throwIfAborted();
    if (crawler.outOfTime || crawler.full || taken >= budget) return;
    const next = pending.shift() as string;
    if (read.has(next)) continue;
    read.add(next);
    const found = await crawler.fetchText(next);
    if (!found) continue;
    let sitemap: ReturnType<typeof readSitemap>;
    try {
      sitemap = readSitemap(found.text);
    } catch {
      continue;
    }
    if (sitemap.index) {
      for (const loc of sitemap.locs.slice(0, MAX_SITEMAPS)) {
        const href = normalizeUrl(loc, found.url)?.href;
        if (href) pending.push(href);
      }
      continue;
    }
    for (let i = 0; i < sitemap.locs.length; i++) {
      if (taken >= budget || crawler.full) {
        crawler.count('max_urls', sitemap.locs.length - i);
        break;
      }
      if (i % 1000 === 999) crawler.throwIfAborted();
      crawler.enqueue(sitemap.locs[i], 1);
      taken++;
    }
  }
}
