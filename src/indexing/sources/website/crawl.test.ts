/**
 * The crawler against a real local website (test/web-site.ts): seeds, normalisation, scope,
 * Markdown preference, conditional refresh, and one test per skip reason. The site is
 * reached as `docs.test` (an injected resolver answers 127.0.0.1 and only that name is
 * allowed), so a link to 127.0.0.1 itself is refused like any private address.
 */
import test from 'ava';
import { HostAllowList } from '../../../net/address-policy';
import { createWebFetcher, type WebFetcher, type WebFetcherOptions } from '../../../net/web-fetch';
import { startWebSite, type WebSite, type WebSiteOptions } from '../../../../test/web-site';
import { crawl, type CrawlOptions, type CrawlResult } from './crawl';

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body><nav><a href="/">Home</a></nav><main><h1>${title}</h1>${body}</main></body></html>`;

async function site(
  t: { teardown: (f: () => Promise<void> | void) => void },
  options: WebSiteOptions,
  fetcherOptions: WebFetcherOptions = {},
): Promise<{ site: WebSite; fetcher: WebFetcher; base: string }> {
  const s = await startWebSite(options);
  const fetcher = createWebFetcher({
    lookup: async (host) =>
      host === 'docs.test' || host === 'other.test'
        ? [{ address: '127.0.0.1', family: 4 }]
        : host === 'intranet.test'
          ? [{ address: '10.1.2.3', family: 4 }]
          : [],
    allow: HostAllowList.parse(['docs.test', 'other.test']),
    ...fetcherOptions,
  });
  t.teardown(() => fetcher.close());
  t.teardown(() => s.close());
  return { site: s, fetcher, base: `http://docs.test:${s.port}` };
}

const options = (url: string, extra: Partial<CrawlOptions> = {}): CrawlOptions => ({
  url,
  scope: 'hostname',
  maxPages: 100,
  maxDepth: 5,
  include: [],
  exclude: [],
  delayMs: 0,
  ...extra,
});
const urls = (r: CrawlResult) => r.pages.map((p) => new URL(p.url).pathname).sort();
const skipsOf = (r: CrawlResult, reason: string) => r.skipped.filter((s) => s.reason === reason).map((s) => new URL(s.url).pathname + new URL(s.url).search);

test('follows links breadth-first; fragments, tracking parameters and trailing slashes name one page; content queries kept', async (t) => {
  const {
    site: s,
    fetcher,
    base,
  } = await site(t, {
    files: {
      '/index.html': page(
        'Home',
        '<a href="/guide/">Guide</a> <a href="/guide#top">again</a> <a href="/guide/?utm_source=x&fbclid=1">tracked</a> <a href="/api?v=2">API v2</a> <a href="/api?v=1">API v1</a>',
      ),
      '/guide/index.html': page('Guide', '<a href="intro.html">Intro</a>'),
      '/guide/intro.html': page('Intro', '<p>hello</p>'),
    },
    handlers: {
      '/api': (req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(page('API', `<p>version ${new URL(req.url ?? '', 'http://x').searchParams.get('v')}</p>`)),
    },
  });
  const r = await crawl(options(`${base}/`), { fetcher });
  t.deepEqual(urls(r), ['/', '/api', '/api', '/guide/', '/guide/intro.html']);
  t.deepEqual(r.pages.map((p) => p.path).sort(), ['api_v=1.html', 'api_v=2.html', 'guide/index.html', 'guide/intro.html', 'index.html']);
  t.is(s.requests.filter((q) => q.url.startsWith('/guide/') && !q.url.includes('intro')).length, 1, 'the guide was fetched once');
  t.true(r.pages.every((p) => /^[0-9a-f]{64}$/.test(p.hash)));
  t.true(r.pages.filter((p) => !p.url.includes('/api')).every((p) => p.etag && p.lastModified));
});

test('seeds from robots.txt sitemaps and sitemap indexes; honours robots.txt (reason robots)', async (t) => {
  const { fetcher, base } = await site(t, {
    files: {
      '/index.html': page('Home', '<a href="/private/secret.html">secret</a>'),
      '/robots.txt': 'User-agent: *\nDisallow: /private/\nSitemap: /sitemap-index.xml\n',
      '/orphan.html': page('Orphan', '<p>only in the sitemap</p>'),
      '/private/secret.html': page('Secret', ''),
    },
    handlers: {
      '/sitemap-index.xml': (req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://${req.headers.host}/sm1.xml</loc></sitemap></sitemapindex>`,
          ),
      '/sm1.xml': (req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${req.headers.host}/orphan.html</loc></url></urlset>`,
          ),
    },
  });
  const r = await crawl(options(`${base}/`), { fetcher });
  t.deepEqual(urls(r), ['/', '/orphan.html']);
  t.deepEqual(skipsOf(r, 'robots'), ['/private/secret.html']);
  t.is(r.counts.robots, 1);
});

test('scope subpages and hostname, include/exclude patterns (reason out_of_scope)', async (t) => {
  const { fetcher, base } = await site(t, {
    files: {
      '/docs/index.html': page(
        'Docs',
        '<a href="a.html">a</a> <a href="/blog/x.html">blog</a> <a href="http://other.test:1/z">other</a> <a href="legacy/old.html">old</a>',
      ),
      '/docs/a.html': page('A', ''),
      '/docs/legacy/old.html': page('Old', ''),
      '/blog/x.html': page('Blog', ''),
    },
  });
  const sub = await crawl(options(`${base}/docs/`, { scope: 'subpages', exclude: ['**/legacy/**'] }), { fetcher });
  t.deepEqual(urls(sub), ['/docs/', '/docs/a.html']);
  t.deepEqual(skipsOf(sub, 'out_of_scope').sort(), ['/', '/blog/x.html', '/docs/legacy/old.html', '/z']);
  const host = await crawl(options(`${base}/docs/`, { include: ['/docs/**'] }), { fetcher });
  t.deepEqual(urls(host), ['/docs/', '/docs/a.html', '/docs/legacy/old.html']);
  const one = await crawl(options(`${base}/docs/`, { scope: 'page' }), { fetcher });
  t.deepEqual(urls(one), ['/docs/']);
});

test('maxPages and maxDepth (reasons max_pages, max_depth)', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 6; i++) files[`/p${i}.html`] = page(`P${i}`, `<a href="/p${i + 1}.html">next</a>`);
  files['/index.html'] = page('Home', '<a href="/p0.html">start</a>');
  const { fetcher, base } = await site(t, { files });
  const deep = await crawl(options(`${base}/`, { maxDepth: 2 }), { fetcher });
  t.deepEqual(urls(deep), ['/', '/p0.html', '/p1.html']);
  t.deepEqual(skipsOf(deep, 'max_depth'), ['/p2.html']);
  const few = await crawl(options(`${base}/`, { maxPages: 3 }), { fetcher });
  t.is(few.pages.length, 3);
  t.deepEqual(skipsOf(few, 'max_pages'), ['/p2.html']);
  t.is(few.counts.max_pages, 1);
});

test('status, not_html, duplicate, redirect_off_scope, timeout, too_large, error and blocked_address are reported with counts', async (t) => {
  const { fetcher, base } = await site(
    t,
    {
      files: {
        '/index.html': page(
          'Home',
          ['/missing.html', '/file.pdf', '/data', '/copy.html', '/same.html', '/away', '/slow.html', '/huge.html', '/canon.html']
            .map((h) => `<a href="${h}">x</a>`)
            .join(' '),
        ),
        '/same.html': page('Same', '<p>one text</p>'),
        '/copy.html': page('Same', '<p>one text</p>'),
        '/canon.html': page('Canon', '<p>canonical elsewhere</p>', '<link rel="canonical" href="/">'),
        '/huge.html': page('Huge', `<p>${'x'.repeat(40_000)}</p>`),
      },
      handlers: {
        '/data': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
        '/away': (_req, res) => res.writeHead(302, { location: 'http://other.test:1/elsewhere' }).end(),
        '/slow.html': (_req, res) => void setTimeout(() => res.end(page('Slow', '')), 1500).unref(),
      },
    },
    { maxBytes: 20_000, timeoutMs: 500 },
  );
  const r = await crawl(options(`${base}/`, { concurrency: 1 }), { fetcher });
  t.deepEqual(skipsOf(r, 'status'), ['/missing.html']);
  t.deepEqual(skipsOf(r, 'not_html').sort(), ['/data', '/file.pdf']);
  // Same text as /copy.html (crawled first), and a page whose canonical URL is the home page.
  t.deepEqual(skipsOf(r, 'duplicate').sort(), ['/canon.html', '/same.html']);
  t.deepEqual(skipsOf(r, 'redirect_off_scope'), ['/away']);
  t.deepEqual(skipsOf(r, 'timeout'), ['/slow.html']);
  t.deepEqual(skipsOf(r, 'too_large'), ['/huge.html']);
  for (const [reason, n] of Object.entries(r.counts)) t.is(r.skipped.filter((s) => s.reason === reason).length, n, reason);

  // A start URL on a private address is refused; a port nobody listens on is an error.
  const blocked = await crawl(options(`http://intranet.test:${new URL(base).port}/`), { fetcher });
  t.deepEqual(
    blocked.skipped.map((s) => s.reason),
    ['blocked_address'],
  );
  const refused = await crawl(options('http://docs.test:1/'), { fetcher });
  t.deepEqual(
    refused.skipped.map((s) => s.reason),
    ['error'],
  );
});

test('prefers Markdown: content negotiation, a declared alternate, and .md twins when the site has them', async (t) => {
  const negotiated = await site(t, { negotiateMarkdown: true, files: { '/index.html': page('Home', ''), '/index.md': '# Home\n\nIn Markdown.\n' } });
  const r1 = await crawl(options(`${negotiated.base}/`), { fetcher: negotiated.fetcher });
  t.deepEqual(
    r1.pages.map((p) => [p.path, p.text]),
    [['index.md', '# Home\n\nIn Markdown.\n']],
  );
  t.regex(String(negotiated.site.requests[negotiated.site.requests.length - 1].headers.accept), /^text\/markdown/);

  const declared = await site(t, {
    files: {
      '/index.html': page('Home', '<a href="b.html">b</a>', '<link rel="alternate" type="text/markdown" href="/raw/home.md">'),
      '/raw/home.md': '# Home (md)\n',
      '/b.html': page('B', ''),
    },
  });
  const r2 = await crawl(options(`${declared.base}/`), { fetcher: declared.fetcher });
  t.deepEqual(r2.pages.map((p) => p.path).sort(), ['b.html', 'index.md']);

  const twins = await site(t, {
    files: { '/index.html': page('Home', '<a href="/a.html">a</a>'), '/index.html.md': '# Home twin\n', '/a.html': page('A', ''), '/a.html.md': '# A twin\n' },
  });
  const r3 = await crawl(options(`${twins.base}/`), { fetcher: twins.fetcher });
  t.deepEqual(r3.pages.map((p) => [p.path, p.text]).sort(), [
    ['a.md', '# A twin\n'],
    ['index.md', '# Home twin\n'],
  ]);
});

test('llms.txt at the site root seeds the crawl', async (t) => {
  const { fetcher, base } = await site(t, {
    files: { '/index.html': page('Home', ''), '/llms.txt': '# Site\n\n- [Hidden](/hidden.html): not linked anywhere\n', '/hidden.html': page('Hidden', '') },
  });
  const r = await crawl(options(`${base}/`), { fetcher });
  t.deepEqual(urls(r), ['/', '/hidden.html']);
});

test('a refresh with the previous crawl sends validators: 304s and same-hash pages are unchanged, changes are pages', async (t) => {
  const {
    site: s,
    fetcher,
    base,
  } = await site(t, {
    files: { '/index.html': page('Home', '<a href="/a.html">a</a> <a href="/b.html">b</a>'), '/a.html': page('A', ''), '/b.html': page('B', '') },
  });
  const first = await crawl(options(`${base}/`), { fetcher });
  t.is(first.pages.length, 3);
  s.set('/b.html', page('B', '<p>changed</p>'));
  const before = s.requests.length;
  const second = await crawl(options(`${base}/`), { fetcher, previous: first.pages });
  const pageRequests = s.requests.slice(before).filter((q) => q.url.endsWith('.html') || q.url === '/');
  t.true(pageRequests.every((q) => q.headers['if-none-match'] || q.headers['if-modified-since']));
  t.deepEqual(second.unchanged.map((u) => u.path).sort(), ['a.html', 'index.html']);
  t.deepEqual(
    second.pages.map((p) => p.path),
    ['b.html'],
  );
  t.is(pageRequests.filter((q) => q.status === 304).length, 2);
});

test('caller headers go to the site only, with progress reported', async (t) => {
  const { site: s, fetcher, base } = await site(t, { files: { '/index.html': page('Home', '<a href="/a.html">a</a>'), '/a.html': page('A', '') } });
  const progress: number[] = [];
  await crawl(options(`${base}/`, { headers: { authorization: 'Bearer t0ken' } }), { fetcher, onProgress: (p) => void progress.push(p.fetched) });
  t.true(s.requests.filter((q) => q.url.endsWith('.html') || q.url === '/').every((q) => q.headers.authorization === 'Bearer t0ken'));
  t.deepEqual(progress.slice(-1), [2]);
  await t.throwsAsync(crawl(options('ftp://x/'), { fetcher }), { message: /http/ });
});

test('an aborted crawl stops with the reason of its signal and fetches nothing more', async (t) => {
  const files: Record<string, string> = { '/index.html': page('Home', Array.from({ length: 30 }, (_, i) => `<a href="/p${i}.html">p${i}</a>`).join(' ')) };
  for (let i = 0; i < 30; i++) files[`/p${i}.html`] = page(`P${i}`, '');
  const { site: s, fetcher, base } = await site(t, { files });
  const controller = new AbortController();
  const run = crawl(options(`${base}/`, { concurrency: 1, delayMs: 20 }), {
    fetcher,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.fetched === 3) controller.abort(new Error('job cancelled'));
    },
  });
  await t.throwsAsync(run, { message: 'job cancelled' });
  const seen = s.requests.length;
  await new Promise((r) => setTimeout(r, 150));
  t.is(s.requests.length, seen);
  t.true(s.requests.filter((q) => /\/p\d+\.html$/.test(q.url)).length <= 3);
});
