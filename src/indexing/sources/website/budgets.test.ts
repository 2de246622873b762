/**
 * The crawl bombs of the red-team report (issue 32) against a real local site: a page of
 * 1,000 links with maxPages 1, a robots.txt Crawl-delay, 50 huge sitemaps, and the budgets
 * that end a crawl (distinct URLs tracked, wall-clock time). Each used to hold a worker for
 * minutes to days; the assertions are on elapsed time and on the requests the site saw.
 */
import test from 'ava';
import { HostAllowList } from '../../../net/address-policy';
import { createWebFetcher, type WebFetcher } from '../../../net/web-fetch';
import { startWebSite, type WebSite, type WebSiteOptions } from '../../../../test/web-site';
import { crawl, type CrawlOptions } from './crawl';
import { MAX_LISTED_SKIPS, skippedTotal } from './types';

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
const links = (n: number, prefix = '/p') => Array.from({ length: n }, (_, i) => `<a href="${prefix}${i}.html">${i}</a>`).join(' ');

async function site(
  t: { teardown: (f: () => Promise<void> | void) => void },
  options: WebSiteOptions,
): Promise<{ site: WebSite; fetcher: WebFetcher; base: string }> {
  const s = await startWebSite(options);
  const fetcher = createWebFetcher({ lookup: async () => [{ address: '127.0.0.1', family: 4 }], allow: HostAllowList.parse(['docs.test']) });
  t.teardown(() => fetcher.close());
  t.teardown(() => s.close());
  return { site: s, fetcher, base: `http://docs.test:${s.port}` };
}

const options = (url: string, extra: Partial<CrawlOptions> = {}): CrawlOptions => ({
  url,
  scope: 'hostname',
  maxPages: 1,
  maxDepth: 5,
  include: [],
  exclude: [],
  concurrency: 2,
  delayMs: 250,
  ...extra,
});
const pageRequests = (s: WebSite) => s.requests.filter((q) => /^\/(p\d+\.html)?$/.test(q.url));

test('a page of 1,000 links with maxPages 1 ends at once: skipped URLs are counted, not requested, and never wait the politeness delay', async (t) => {
  const {
    site: s,
    fetcher,
    base,
  } = await site(t, { files: { '/index.html': page('Home', links(1000)) }, handlers: { '/p': (_q, r) => r.end(page('P', '')) } });
  const started = Date.now();
  const r = await crawl(options(`${base}/`), { fetcher });
  const elapsed = Date.now() - started;
  // Before: every skipped URL slept the 250 ms delay in one of two workers, ~125 s.
  t.true(elapsed < 5000, `took ${elapsed} ms`);
  t.is(r.pages.length, 1);
  t.is(r.counts.max_pages, 1000);
  t.is(pageRequests(s).length, 1, 'only the start page was requested');
  t.true(r.skipped.length <= MAX_LISTED_SKIPS);
  t.is(skippedTotal(r), 1000);
});

test('a robots.txt Crawl-delay is a pause between real requests only: 1,000 skipped links do not wait it', async (t) => {
  const { site: s, fetcher, base } = await site(t, { files: { '/index.html': page('Home', links(1000)), '/robots.txt': 'User-agent: *\nCrawl-delay: 100\n' } });
  const started = Date.now();
  const r = await crawl(options(`${base}/`), { fetcher });
  const elapsed = Date.now() - started;
  // Before: 1,000 × 10 s (the capped Crawl-delay) over two workers, ~83 minutes.
  t.true(elapsed < 5000, `took ${elapsed} ms`);
  t.is(r.counts.max_pages, 1000);
  t.is(pageRequests(s).length, 1);
});

test('50 sitemaps of 20,000 URLs each: the crawl reads sitemaps only until its share of URLs is taken, the rest are counted', async (t) => {
  const sitemap = (n: number, host: string) =>
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: 20_000 }, (_, i) => `<url><loc>http://${host}/s${n}/p${i}.html</loc></url>`).join('')}</urlset>`;
  const handlers: WebSiteOptions['handlers'] = {};
  for (let n = 0; n < 50; n++)
    handlers[`/sitemap-${n}.xml`] = (req, res) => res.writeHead(200, { 'content-type': 'application/xml' }).end(sitemap(n, String(req.headers.host)));
  const robots = ['User-agent: *', ...Array.from({ length: 50 }, (_, n) => `Sitemap: /sitemap-${n}.xml`)].join('\n');
  const { site: s, fetcher, base } = await site(t, { files: { '/index.html': page('Home', ''), '/robots.txt': robots }, handlers });
  const started = Date.now();
  const r = await crawl(options(`${base}/`, { delayMs: 0 }), { fetcher });
  const elapsed = Date.now() - started;
  const sitemapsRead = s.requests.filter((q) => q.url.startsWith('/sitemap-')).length;
  // maxPages 1 takes max(1,000, 10 × maxPages) entries: one sitemap; before, all 50 (1 M URLs in the frontier).
  t.is(sitemapsRead, 1);
  t.is(r.pages.length, 1);
  t.is(r.counts.max_urls, 19_000, 'the entries of the sitemap past the share are counted');
  // Two workers: one sitemap entry may be requested while the start page is (a 404 here).
  t.is((r.counts.max_pages ?? 0) + (r.counts.status ?? 0), 1000);
  t.true(s.requests.filter((q) => /^\/s\d+\//.test(q.url)).length <= 1);
  t.true(elapsed < 15_000, `took ${elapsed} ms`);
});

test('maxUrls: a crawl tracks at most that many distinct URLs; more are counted as max_urls', async (t) => {
  const { site: s, fetcher, base } = await site(t, { files: { '/index.html': page('Home', links(500)) }, handlers: { '/p': (_q, r) => r.end(page('P', '')) } });
  const r = await crawl(options(`${base}/`, { maxPages: 1000, maxUrls: 100, delayMs: 0 }), { fetcher });
  t.is(r.counts.max_urls, 401, 'the start page and 99 links are tracked');
  t.is(r.pages.length, 1);
  // The 99 tracked links were requested (their handler answers the same empty page: duplicates).
  t.true(pageRequests(s).length <= 100);
});

test('the wall-clock budget ends a crawl with the pages it has; what is left is counted as time_budget', async (t) => {
  const files: Record<string, string> = { '/index.html': page('Home', links(40)) };
  for (let i = 0; i < 40; i++) files[`/p${i}.html`] = page(`P${i}`, `<p>page ${i}</p>`);
  const { fetcher, base } = await site(t, { files });
  const started = Date.now();
  const r = await crawl(options(`${base}/`, { maxPages: 100, concurrency: 1, delayMs: 500, maxMs: 2000 }), { fetcher });
  const elapsed = Date.now() - started;
  // 41 pages at one request per 500 ms would take 20 s.
  t.true(elapsed < 5000, `took ${elapsed} ms`);
  t.true(r.pages.length >= 1 && r.pages.length <= 6, `${r.pages.length} pages`);
  t.is((r.counts.time_budget ?? 0) + r.pages.length, 41);
});
