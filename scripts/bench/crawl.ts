/**
 * `npx tsx scripts/bench/crawl.ts [--pages 1000] [--concurrency 4] [--delay 0]`
 *
 * Serves a generated documentation site (pages with headings, prose, code and a table,
 * linked as a tree plus prev/next, with a sitemap and ETags) from a local HTTP server,
 * crawls it, parses every page into snippets, and prints time, pages/s and peak RSS. Then
 * crawls again with the first crawl as `previous`: every page must come back 304 and
 * nothing is parsed again. Politeness delay defaults to 0 here (a local server); the
 * production default is WEB_CRAWL_DELAY_MS.
 */
import { parseArgs } from 'node:util';
import { HostAllowList } from '../../src/net/address-policy';
import { createWebFetcher } from '../../src/net/web-fetch';
import { crawl } from '../../src/indexing/sources/website/crawl';
import { parseDocument } from '../../src/indexing/parsers/index';
import { startWebSite } from '../../test/web-site';

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '4' }, delay: { type: 'string', default: '0' } },
});
const PAGES = Number(values.pages);
const CONCURRENCY = Number(values.concurrency);
const DELAY = Number(values.delay);

function pageHtml(i: number): string {
  const children = [2 * i + 1, 2 * i + 2].filter((c) => c < PAGES - 1);
  const links = [...children, i + 1 < PAGES - 1 ? i + 1 : undefined, i > 0 ? i - 1 : undefined].filter((c): c is number => c !== undefined);
  const nav = links.map((c) => `<a href="/docs/section-${c % 10}/page-${c}.html">Page ${c}</a>`).join(' ');
  return `<!doctype html><html><head><title>Page ${i} | Bench docs</title></head><body>
<nav class="sidebar">${nav}</nav><main><article>
<h1>Topic ${i}</h1><p>This page explains topic ${i} of the generated documentation, with enough prose to look like a real page. It talks about configuration option opt_${i} and how it interacts with the others.</p>
<h2>Usage</h2><p>Call the function below to use topic ${i} in an application; the second argument is optional.</p>
<pre><code class="language-python">from bench import topic_${i}

result = topic_${i}(value=${i}, strict=True)
print(result)</code></pre>
<h2>Options</h2><table><tr><th>Name</th><th>Default</th></tr><tr><td>value</td><td>${i}</td></tr><tr><td>strict</td><td>False</td></tr></table>
<div class="admonition note"><p class="admonition-title">Note</p><p>Topic ${i} is stable since version 1.${i % 7}.</p></div>
</article></main><footer>Bench docs footer</footer></body></html>`;
}

async function main(): Promise<void> {
  const files: Record<string, string> = {
    '/index.html': pageHtml(0).replace('<h1>Topic 0</h1>', '<h1>Bench docs</h1><a href="/docs/section-0/page-0.html">Start</a>'),
  };
  for (let i = 0; i < PAGES - 1; i++) files[`/docs/section-${i % 10}/page-${i}.html`] = pageHtml(i);
  const site = await startWebSite({ files });
  const urls = Object.keys(files)
    .map((p) => `<url><loc>http://docs.bench:${site.port}${p}</loc></url>`)
    .join('');
  site.set('/sitemap.xml', `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`, 'application/xml');
  const fetcher = createWebFetcher({ lookup: async () => [{ address: '127.0.0.1', family: 4 }], allow: HostAllowList.parse(['docs.bench']) });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const options = {
    url: `http://docs.bench:${site.port}/`,
    scope: 'hostname' as const,
    maxPages: PAGES + 10,
    maxDepth: 50,
    include: [],
    exclude: [],
    concurrency: CONCURRENCY,
    delayMs: DELAY,
  };
  const progress = (p: { fetched: number }) => {
    if (p.fetched % 250 === 0 && p.fetched > 0) process.stderr.write(`[crawl-bench] ${p.fetched} pages\n`);
  };

  let t0 = performance.now();
  const first = await crawl(options, { fetcher, onProgress: progress });
  const crawlMs = performance.now() - t0;
  t0 = performance.now();
  const snippets = first.pages.reduce((n, p) => n + parseDocument({ path: p.path, text: p.text }).length, 0);
  const parseMs = performance.now() - t0;
  const before = site.requests.length;

  t0 = performance.now();
  const second = await crawl(options, { fetcher, previous: first.pages });
  const refreshMs = performance.now() - t0;
  const refreshRequests = site.requests.slice(before).filter((r) => r.url === '/' || r.url.endsWith('.html'));
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);

  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const lines = [
    `site: ${PAGES} pages served from a local HTTP server (concurrency ${CONCURRENCY}, delay ${DELAY} ms)`,
    `first crawl: ${first.pages.length} pages in ${(crawlMs / 1000).toFixed(2)} s = ${(first.pages.length / (crawlMs / 1000)).toFixed(0)} pages/s; skipped ${first.skipped.length} ${JSON.stringify(first.counts)}`,
    `parse: ${snippets} snippets from ${first.pages.length} pages in ${(parseMs / 1000).toFixed(2)} s = ${(first.pages.length / (parseMs / 1000)).toFixed(0)} pages/s`,
    `refresh crawl: ${second.unchanged.length} unchanged, ${second.pages.length} to parse, in ${(refreshMs / 1000).toFixed(2)} s; page requests answered 304: ${refreshRequests.filter((r) => r.status === 304).length} of ${refreshRequests.length}`,
    `peak RSS: ${mb(peakRss)}`,
  ];
  console.log(lines.join('\n'));
  await fetcher.close();
  await site.close();
  if (first.pages.length !== PAGES || second.pages.length !== 0 || second.unchanged.length !== PAGES) {
    console.error('[crawl-bench] FAILED: the refresh must find every page unchanged and nothing to parse');
    process.exit(1);
  }
}

await main();
