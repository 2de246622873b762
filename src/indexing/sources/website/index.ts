/**
 * Website and llms.txt sources: what the Source port wires. `createSiteFetcher` builds the
 * SSRF-safe fetcher from the WEB_* settings; `crawl` / `readLlmsTxt` produce pages, unchanged
 * pages and skips (see types.ts).
 */
import type { Config } from '../../../config';
import { HostAllowList } from '../../../net/address-policy';
import { createWebFetcher, type WebFetcher } from '../../../net/web-fetch';

export { crawl } from './crawl';
export { readLlmsTxt, type LlmsTxtOptions } from './llms-txt';
export type * from './types';
export { skippedTotal, MAX_LISTED_SKIPS } from './types';

/** The fetcher for website sources, limited as the operator configured (close() it after the crawl). */
export function createSiteFetcher(web: Config['web']): WebFetcher {
  return createWebFetcher({ allow: HostAllowList.parse(web.allowedHosts), maxBytes: web.maxPageBytes, timeoutMs: web.pageTimeoutMs });
}

/** Politeness and budgets for CrawlOptions / LlmsTxtOptions from the WEB_* settings. */
export function politeness(web: Config['web']): { concurrency: number; delayMs: number; maxUrls: number; maxMs: number } {
  return { concurrency: web.concurrencyPerHost, delayMs: web.delayMs, maxUrls: web.maxUrls, maxMs: web.maxMinutes * 60_000 };
}
