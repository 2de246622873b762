/**
 * The crawler's contract with the website and llms.txt sources (the Source port wires these
 * into the generic build). A crawl returns the pages to parse, the pages known unchanged
 * (not to parse again), and every URL it skipped with a reason.
 */
import type { WebFetcher } from '../../../net/web-fetch';

export interface CrawlOptions {
  url: string;
  scope: 'page' | 'subpages' | 'hostname';
  maxPages: number;
  maxDepth: number;
  /** Globs over the URL path (and path?query): when set, only matching pages are kept. */
  include: string[];
  /** Globs over the URL path (and path?query): matching pages are skipped. */
  exclude: string[];
  /** Sent to the start URL's origin only (never across origins, never to robots/sitemaps elsewhere). */
  headers?: Record<string, string>;
  /** Requests in flight per host (default 2; WEB_CRAWL_CONCURRENCY). */
  concurrency?: number;
  /** Pause after each request before the next one to that host (default 250 ms; WEB_CRAWL_DELAY_MS). */
  delayMs?: number;
  /** Look for /llms.txt at the site root and seed from the pages it lists (default true). */
  useLlmsTxt?: boolean;
  /** Distinct URLs the crawl tracks at most (frontier and visited; WEB_CRAWL_MAX_URLS); more are only counted. */
  maxUrls?: number;
  /** Wall-clock budget of the crawl in ms (WEB_CRAWL_MAX_MINUTES): then it ends with what it has. */
  maxMs?: number;
}

export type SkipReason =
  | 'robots'
  | 'status'
  | 'redirect_off_scope'
  | 'too_large'
  | 'not_html'
  | 'duplicate'
  | 'timeout'
  | 'blocked_address'
  | 'out_of_scope'
  | 'max_pages'
  | 'max_depth'
  | 'max_urls'
  | 'time_budget'
  | 'error';

export interface CrawledPage {
  url: string;
  /** A document path derived from the URL, e.g. "guide/intro.html" or "guide/intro.md" (extension = how to parse). */
  path: string;
  text: string;
  /** Content hash (sha256 hex of the text). */
  hash: string;
  etag?: string;
  lastModified?: string;
}

export interface UnchangedPage {
  url: string;
  path: string;
  hash: string;
  etag?: string;
  lastModified?: string;
}

export interface CrawlSkip {
  url: string;
  reason: SkipReason;
  detail?: string;
}

export interface CrawlResult {
  pages: CrawledPage[];
  unchanged: UnchangedPage[];
  /** The first {@link MAX_LISTED_SKIPS} skipped URLs; `counts` covers every one. */
  skipped: CrawlSkip[];
  counts: Partial<Record<SkipReason, number>>;
}

/** Skipped URLs a crawl lists (a page of 100,000 links must not become 100,000 records); the rest are counted. */
export const MAX_LISTED_SKIPS = 1000;

/** Every URL a crawl skipped, listed or only counted. */
export function skippedTotal(result: Pick<CrawlResult, 'counts'>): number {
  return Object.values(result.counts).reduce<number>((n, c) => n + (c ?? 0), 0);
}

export interface PreviousPage {
  url: string;
  path: string;
  hash: string;
  etag?: string;
  lastModified?: string;
}

export interface CrawlProgress {
  fetched: number;
  queued: number;
  skipped: number;
}

export interface CrawlDeps {
  fetcher: WebFetcher;
  /** The pages of the last crawl, for conditional requests (304 → unchanged). */
  previous?: PreviousPage[];
  onProgress?: (p: CrawlProgress) => void | Promise<void>;
  signal?: AbortSignal;
}
