/**
 * The crawl engine shared by `crawl()` and `readLlmsTxt()`: a breadth-first frontier of
 * normalised URLs, a small pool of workers with a pause after each request (politeness),
 * robots.txt per origin, and the bookkeeping of pages, unchanged pages and skips.
 *
 * A crawl covers one site, so the pool is the per-host limit: `concurrency` requests in
 * flight, each worker pausing `delayMs` (or the robots.txt Crawl-delay, up to 10 s) after
 * each request. A pool per host would only matter for llms.txt indexes that list other
 * hosts, where the same small limits are then shared.
 */
import robotsParser from 'robots-parser';
import { USER_AGENT, type WebFetcher } from '../../../net/web-fetch';
import { contentHash, fetchMarkdown, fetchPage } from './fetch-page';
import { readHtmlLinks, readMarkdownLinks } from './page-links';
import { documentPath, isAssetUrl, markdownAlternate, normalizeUrl, pageKey } from './urls';
import type { CrawlDeps, CrawlResult, CrawlSkip, PreviousPage, SkipReason } from './types';

type Robots = ReturnType<typeof robotsParser>;

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
}

const MAX_CRAWL_DELAY_MS = 10_000;
/** Waits `ms`, or less when `signal` aborts (the listener is removed either way). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export class Crawler {
  readonly result: CrawlResult = { pages: [], unchanged: [], skipped: [], counts: {} };
  private readonly queue: Frontier[] = [];
  private readonly seen = new Set<string>();
  private readonly kept = new Map<string, string>();
  private readonly hashes = new Map<string, string>();
  private readonly paths = new Set<string>();
  private readonly previous = new Map<string, PreviousPage>();
  private readonly robotsByOrigin = new Map<string, Promise<Robots | undefined>>();
  private readonly mdAlternates = new Map<string, Promise<boolean>>();
  private reserved = 0;
  private active = 0;
  private crawlDelayMs = 0;

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
    const entry: CrawlSkip = detail ? { url, reason, detail } : { url, reason };
    this.result.skipped.push(entry);
    this.result.counts[reason] = (this.result.counts[reason] ?? 0) + 1;
  }

  /** Adds a URL to the frontier unless seen, off-scope, an asset or too deep (those are skipped with a reason). */
  enqueue(raw: string, depth: number, base?: string, opts: { emit?: boolean; bypassScope?: boolean; fallback?: string } = {}): void {
    const url = normalizeUrl(raw, base);
    if (!url) return;
    const key = pageKey(url);
    if (this.seen.has(key)) return;
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
    for (;;) {
      if (this.deps.signal?.aborted) throw this.deps.signal.reason;
      const item = this.queue.shift();
      if (!item) {
        if (this.active === 0) return;
        await sleep(5);
        continue;
      }
      this.active++;
      try {
        await this.visit(item);
      } finally {
        this.active--;
      }
      await this.deps.onProgress?.({ fetched: this.result.pages.length + this.result.unchanged.length, queued: this.queue.length, skipped: this.result.skipped.length });
      await sleep(Math.max(this.s.delayMs, this.crawlDelayMs), this.deps.signal);
    }
  }

  private headersFor(url: URL): Record<string, string> {
    return url.origin === this.s.start.origin ? { ...this.s.headers } : {};
  }

  private async visit(item: Frontier): Promise<void> {
    const { url } = item;
    if (item.emit && this.result.pages.length + this.result.unchanged.length + this.reserved >= this.s.maxPages) {
      return this.skip(url.href, 'max_pages', `the crawl keeps at most ${this.s.maxPages} pages`);
    }
    if (this.s.robots && !(await this.robotsAllow(url))) return this.skip(url.href, 'robots', 'disallowed by robots.txt');
    const key = pageKey(url);
    const previous = this.previous.get(key);
    if (item.emit) this.reserved++;
    try {
      await this.fetchAndKeep(item, key, previous);
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
      this.result.unchanged.push({ url: previous.url, path: previous.path, hash: previous.hash, etag: validators.etag ?? previous.etag, lastModified: validators.lastModified ?? previous.lastModified });
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

  private robotsAllow(url: URL): Promise<boolean> {
    let robots = this.robotsByOrigin.get(url.origin);
    if (!robots) {
      const robotsUrl = `${url.origin}/robots.txt`;
      robots = this.fetchText(robotsUrl).then((r) => (r ? robotsParser(robotsUrl, r.text) : undefined));
      this.robotsByOrigin.set(url.origin, robots);
      void robots.then((r) => {
        const delay = r?.getCrawlDelay(USER_AGENT) ?? r?.getCrawlDelay('ShelfmarkBot');
        if (delay) this.crawlDelayMs = Math.max(this.crawlDelayMs, Math.min(MAX_CRAWL_DELAY_MS, delay * 1000));
      });
    }
    return robots.then((r) => !r || r.isAllowed(url.href, 'ShelfmarkBot') !== false);
  }

  /** The sitemaps robots.txt names for an origin. */
  async robotsSitemaps(origin: string): Promise<string[]> {
    await this.robotsAllow(new URL(`${origin}/`));
    const robots = await this.robotsByOrigin.get(origin);
    return robots?.getSitemaps() ?? [];
  }
}
