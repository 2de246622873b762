/**
 * The crawl engine shared by `crawl()` and `readLlmsTxt()`: a breadth-first frontier of
 * normalised URLs, a small pool of workers with a pause after each request (politeness),
 * robots.txt per origin, and the bookkeeping of pages, unchanged pages and skips.
 *
 * A crawl covers one site, so the pool is the per-host limit: `concurrency` requests in
 * flight, each worker pausing `delayMs` (or the robots.txt Crawl-delay, up to 10 s) between
 * two requests it sends. A pool per host would only matter for llms.txt indexes that list
 * other hosts, where the same small limits are then shared.
 *
 * Budgets, so one add cannot hold a worker for hours: a URL that is only skipped (over
 * maxPages, robots, scope) costs no request and so no pause; the crawl tracks at most
 * `maxUrls` distinct URLs (more are counted, not kept); and past its `deadline` it ends
 * with the pages it has, the rest counted as `time_budget`.
 */
import { sleep } from '../../../util/timeout';
import { RobotsRules } from './robots';
import { contentHash, fetchMarkdown, fetchPage } from './fetch-page';
import { readHtmlLinks, readMarkdownLinks } from './page-links';
import { documentPath, isAssetUrl, markdownAlternate, normalizeUrl, pageKey } from './urls';
import { MAX_LISTED_SKIPS, type CrawlDeps, type CrawlResult, type PreviousPage, type SkipReason } from './types';

export interface Frontier {
  url: URL;
  depth: number;
  /** Keep the page (false: fetched only for its links, e.g. a start URL the patterns exclude). */
  emit: boolean;
  /** Fetched instead when this URL fails (a `.md` twin that does not exist → the page itself). */
  fallback?: string;
}

export interface CrawlerSettings {
  start: URL;
  maxPages: number;
  maxDepth: number;
  /** Why a URL is outside the crawl, or undefined. */
  refuse: (url: URL) => string | undefined;
  /** Headers for the start origin only. */
  headers: Record<string, string>;
  concurrency: number;
  delayMs: number;
  follow: boolean;
  robots: boolean;
  /** Distinct URLs tracked at most (seen: queued, visited or skipped); more are counted as `max_urls`. */
  maxUrls: number;
  /** When the crawl stops (ms since the epoch; Infinity: never). */
  deadline: number;
}

/** Defaults of the budgets when a caller sets none (the worker passes WEB_CRAWL_MAX_URLS / _MINUTES). */
export const DEFAULT_MAX_URLS = 50_000;
export const DEFAULT_MAX_MS = 30 * 60_000;

export class Crawler {
  readonly result: CrawlResult = { pages: [], unchanged: [], skipped: [], counts: {} };
  private readonly queue: Frontier[] = [];
  private readonly seen = new Set<string>();
  private readonly kept = new Map<string, string>();
  private readonly hashes = new Map<string, string>();
  private readonly paths = new Set<string>();
  private readonly previous = new Map<string, PreviousPage>();
  private readonly robots = new RobotsRules((url) => this.fetchText(url));
  private readonly mdAlternates = new Map<string, Promise<boolean>>();
  private reserved = 0;
  private active = 0;

  constructor(
    private readonly s: CrawlerSettings,
    private readonly deps: CrawlDeps,
  ) {
    for (const p of deps.previous ?? []) {
      const u = normalizeUrl(p.url);
      if (u) this.previous.set(pageKey(u), p);
    }
  }

  /** The previous crawl's URLs (seeds of a refresh: a 304 page yields no links). */
  previousUrls(): string[] {
    return [...this.previous.values()].map((p) => p.url);
  }

  skip(url: string, reason: SkipReason, detail?: string): void {
    if (this.result.skipped.length < MAX_LISTED_SKIPS) this.result.skipped.push(detail ? { url, reason, detail } : { url, reason });
    this.count(reason, 1);
  }

  /** Counts `n` skipped URLs that are not listed (e.g. sitemap entries past the budget). */
  count(reason: SkipReason, n: number): void {
    if (n > 0) this.result.counts[reason] = (this.result.counts[reason] ?? 0) + n;
  }

  /** Whether the crawl tracks as many URLs as it may (further ones are only counted). */
  get full(): boolean {
    return this.seen.size >= this.s.maxUrls;
  }

  /** Whether the wall-clock budget is spent. */
  get outOfTime(): boolean {
    return Date.now() >= this.s.deadline;
  }

  /** Throws the abort reason when the crawl was cancelled (checked between steps that send no request). */
  throwIfAborted(): void {
    if (this.deps.signal?.aborted) throw this.deps.signal.reason;
  }

  /** Adds a URL to the frontier unless seen, off-scope, an asset or too deep (those are skipped with a reason). */
  enqueue(raw: string, depth: number, base?: string, opts: { emit?: boolean; bypassScope?: boolean; fallback?: string } = {}): void {
    const url = normalizeUrl(raw, base);
    if (!url) return;
    const key = pageKey(url);
    if (this.seen.has(key)) return;
    if (this.full) return this.count('max_urls', 1);
    this.seen.add(key);
    if (isAssetUrl(url)) return this.skip(url.href, 'not_html', 'an asset, not a page');
    const why = opts.bypassScope ? undefined : this.s.refuse(url);
    if (why) return this.skip(url.href, 'out_of_scope', why);
    if (depth > this.s.maxDepth) return this.skip(url.href, 'max_depth', `depth ${depth} > ${this.s.maxDepth}`);
    this.queue.push({ url, depth, emit: opts.emit ?? true, fallback: opts.fallback });
  }

  /** Fetches a robots.txt-free resource (robots.txt itself, sitemaps, llms.txt) as text; undefined when absent. */
  async fetchText(url: string): Promise<{ text: string; url: string } | undefined> {
    try {
      const res = await this.deps.fetcher.fetch(url, { headers: this.headersFor(new URL(url)), signal: this.deps.signal });
      if (res.status !== 200) return undefined;
      return { text: res.body.toString('utf8'), url: res.url };
    } catch {
      if (this.deps.signal?.aborted) throw this.deps.signal.reason;
      return undefined;
    }
  }

  /** Runs the frontier to the end with `concurrency` workers. */
  async run(): Promise<CrawlResult> {
    const workers = Array.from({ length: Math.max(1, this.s.concurrency) }, () => this.work());
    await Promise.all(workers);
    return this.result;
  }

  private async work(): Promise<void> {
    /** When this worker may send its next request (politeness: a pause between two requests). */
    let readyAt = 0;
    const pause = async () => {
      await sleep(Math.min(readyAt, this.s.deadline) - Date.now(), this.deps.signal);
      this.throwIfAborted();
    };
    for (;;) {
      this.throwIfAborted();
      if (this.outOfTime) return this.endForTime();
      const item = this.queue.shift();
      if (!item) {
        if (this.active === 0) return;
        await sleep(5);
        continue;
      }
      this.active++;
      try {
        // Only a URL that was really requested makes this worker pause before its next one.
        if (await this.visit(item, pause)) readyAt = Date.now() + Math.max(this.s.delayMs, this.robots.crawlDelayMs);
      } finally {
        this.active--;
      }
      await this.deps.onProgress?.({
        fetched: this.result.pages.length + this.result.unchanged.length,
        queued: this.queue.length,
        skipped: this.skippedCount(),
      });
    }
  }

  private skippedCount(): number {
    return Object.values(this.result.counts).reduce<number>((n, c) => n + (c ?? 0), 0);
  }

  /** The wall-clock budget is spent: what is still queued is counted, not fetched. */
  private endForTime(): void {
    const rest = this.queue.splice(0);
    for (const item of rest) this.skip(item.url.href, 'time_budget', 'the crawl used up its time budget (WEB_CRAWL_MAX_MINUTES)');
  }

  private headersFor(url: URL): Record<string, string> {
    return url.origin === this.s.start.origin ? { ...this.s.headers } : {};
  }

  /** Visits one frontier URL; true when it was requested (false: skipped without a request). */
  private async visit(item: Frontier, pause: () => Promise<void>): Promise<boolean> {
    const { url } = item;
    if (item.emit && this.result.pages.length + this.result.unchanged.length + this.reserved >= this.s.maxPages) {
      this.skip(url.href, 'max_pages', `the crawl keeps at most ${this.s.maxPages} pages`);
      return false;
    }
    if (this.s.robots && !(await this.robots.allows(url))) {
      this.skip(url.href, 'robots', 'disallowed by robots.txt');
      return false;
    }
    const key = pageKey(url);
    const previous = this.previous.get(key);
    if (item.emit) this.reserved++;
    try {
      await pause();
      if (this.outOfTime) {
        this.skip(url.href, 'time_budget', 'the crawl used up its time budget (WEB_CRAWL_MAX_MINUTES)');
        return false;
      }
      await this.fetchAndKeep(item, key, previous);
      return true;
    } finally {
      if (item.emit) this.reserved--;
    }
  }

  private async fetchAndKeep(item: Frontier, key: string, previous: PreviousPage | undefined): Promise<void> {
    const { url } = item;
    const outcome = await fetchPage(this.deps.fetcher, {
      url: url.href,
      headers: this.headersFor(url),
      previous,
      signal: this.deps.signal,
      inScope: (u) => {
        const n = normalizeUrl(u);
        return !!n && (n.origin === url.origin || !this.s.refuse(n));
      },
    });
    if (outcome.kind === 'skip') {
      if (item.fallback && (outcome.reason === 'status' || outcome.reason === 'not_html')) return this.enqueue(item.fallback, item.depth);
      return this.skip(url.href, outcome.reason, outcome.detail);
    }
    if (item.fallback && outcome.kind === 'page' && outcome.format !== 'md') return this.enqueue(item.fallback, item.depth);
    const validators = {
      ...(outcome.response.headers.etag ? { etag: outcome.response.headers.etag } : {}),
      ...(outcome.response.headers['last-modified'] ? { lastModified: outcome.response.headers['last-modified'] } : {}),
    };
    if (outcome.kind === 'not_modified') {
      if (!previous) return this.skip(url.href, 'status', 'HTTP 304 without a previous copy');
      this.kept.set(key, previous.url);
      this.result.unchanged.push({
        url: previous.url,
        path: previous.path,
        hash: previous.hash,
        etag: validators.etag ?? previous.etag,
        lastModified: validators.lastModified ?? previous.lastModified,
      });
      return;
    }

    // Where the page really is: after redirects, and as its canonical link says.
    let pageUrl = normalizeUrl(outcome.response.url) ?? url;
    let pageK = pageKey(pageUrl);
    if (pageK !== key) {
      if (this.kept.has(pageK)) return this.skip(url.href, 'duplicate', `redirects to ${pageUrl.href}, already crawled`);
      this.seen.add(pageK);
    }
    let text = outcome.text;
    let format = outcome.format;
    let follow = this.s.follow;
    if (format === 'html') {
      const head = readHtmlLinks(text, outcome.response.url);
      if (head.nofollow) follow = false;
      if (follow) for (const link of head.links) this.enqueue(link, item.depth + 1);
      if (head.noindex) return this.skip(pageUrl.href, 'robots', 'the page says noindex');
      const canonical = head.canonical ? normalizeUrl(head.canonical) : undefined;
      if (canonical && pageKey(canonical) !== pageK && canonical.origin === pageUrl.origin && !this.s.refuse(canonical)) {
        const ck = pageKey(canonical);
        if (this.kept.has(ck)) return this.skip(pageUrl.href, 'duplicate', `its canonical URL ${canonical.href} is already crawled`);
        this.seen.add(ck);
        pageUrl = canonical;
        pageK = ck;
      }
      const markdown = await this.markdownFor(pageUrl, head.markdown);
      if (markdown !== undefined) {
        text = markdown;
        format = 'md';
      }
    } else if (follow) {
      for (const link of readMarkdownLinks(text, outcome.response.url)) this.enqueue(link, item.depth + 1);
    }
    if (!item.emit) return;

    const hash = contentHash(text);
    const same = this.hashes.get(hash);
    if (same) return this.skip(pageUrl.href, 'duplicate', `same content as ${same}`);
    this.hashes.set(hash, pageUrl.href);
    this.kept.set(pageK, pageUrl.href);
    const before = previous ?? this.previous.get(pageK);
    if (before && before.hash === hash) {
      this.result.unchanged.push({ url: pageUrl.href, path: before.path, hash, ...validators });
      return;
    }
    const path = this.uniquePath(before?.path ?? documentPath(pageUrl, this.s.start, format));
    this.result.pages.push({ url: pageUrl.href, path, text, hash, ...validators });
  }

  /** Markdown for an HTML page: its declared alternate, else the `.md` alternate when this origin offers them. */
  private async markdownFor(pageUrl: URL, declared: string | undefined): Promise<string | undefined> {
    const headers = this.headersFor(pageUrl);
    if (declared) {
      const md = normalizeUrl(declared);
      if (md && md.origin === pageUrl.origin) return fetchMarkdown(this.deps.fetcher, md.href, headers, this.deps.signal);
    }
    const alt = markdownAlternate(pageUrl);
    if (!alt) return undefined;
    // One probe per origin: a site either publishes `.md` twins of its pages or it does not;
    // asking for every page's twin on a site that has none would double the requests.
    let offered = this.mdAlternates.get(pageUrl.origin);
    if (!offered) {
      const probe = fetchMarkdown(this.deps.fetcher, alt.href, headers, this.deps.signal);
      offered = probe.then((md) => md !== undefined);
      this.mdAlternates.set(pageUrl.origin, offered);
      const md = await probe;
      return md;
    }
    return (await offered) ? fetchMarkdown(this.deps.fetcher, alt.href, headers, this.deps.signal) : undefined;
  }

  private uniquePath(path: string): string {
    let candidate = path;
    for (let n = 2; this.paths.has(candidate); n++) candidate = path.replace(/(\.[a-z]+)$/, `_${n}$1`);
    this.paths.add(candidate);
    return candidate;
  }

  /** The sitemaps robots.txt names for an origin. */
  robotsSitemaps(origin: string): Promise<string[]> {
    return this.robots.sitemaps(origin);
  }
}
