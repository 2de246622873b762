/**
 * Indexing runs off the server's event loop (JOB_ISOLATION=process, the default): while a
 * 2.6 MB page is crawled, converted, split and published, the process serving requests
 * stays responsive (its event-loop delay is measured, and /livez is asked every 25 ms).
 * Before, parsing ran on that loop: one such page stalled it ~2.9 s on a quiet machine. And
 * a job that runs out of heap ends its own process, failing with the reason, while the
 * server carries on.
 */
import test from 'ava';
import fs from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createTestApp, type TestApp } from '../harness';
import { adminKey } from '../helpers';
import { startWebSite, type WebSite } from '../web-site';

let site: WebSite;
let app: TestApp;
let key: string;

/** ~2.6 MB of documentation HTML: 6,000 sections of prose and code. */
function bigPage(): string {
  const sections = Array.from(
    { length: 6000 },
    (_, i) =>
      `<h2 id="s${i}">Widget option ${i}</h2><p>The <code>option${i}</code> setting tunes how widgets ${i % 7 === 0 ? 'spin' : 'turn'} under load; it is read once at start-up and then kept for the life of the process, so change it before the first request.</p>` +
      `<pre><code class="language-js">import { widget } from 'widgets';\nwidget.configure({ option${i}: ${i}, retries: ${i % 5}, name: 'w${i}' });\nawait widget.start();\n</code></pre><ul><li>default: ${i}</li><li>range: 0–${i * 2}</li></ul>`,
  ).join('\n');
  return `<!doctype html><html><head><title>Widgets reference</title></head><body><main><h1>Widgets reference</h1>${sections}</main></body></html>`;
}

/** Distinct pages of ~7 MB each: kept in memory by the crawl until the build reads them. */
const heavyPage = (n: number) =>
  `<!doctype html><html><head><title>Heavy ${n}</title></head><body><main><h1>Heavy ${n}</h1><p>${`page ${n} words `.repeat(500_000)}</p></main></body></html>`;
const HEAVY_PAGES = 40;

test.before(async () => {
  site = await startWebSite({
    files: {
      '/big.html': bigPage(),
      '/heavy/index.html': `<!doctype html><html><body><main><h1>Heavy</h1>${Array.from({ length: HEAVY_PAGES }, (_, n) => `<a href="${n}.html">${n}</a>`).join(' ')}</main></body></html>`,
    },
  });
  for (let n = 0; n < HEAVY_PAGES; n++) site.set(`/heavy/${n}.html`, heavyPage(n));
  app = await createTestApp({
    WEB_ALLOWED_HOSTS: '127.0.0.1',
    WEB_CRAWL_DELAY_MS: '0',
    WEB_MAX_PAGE_BYTES: String(8 * 1024 * 1024),
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
    JOB_MAX_HEAP_MB: '320',
  });
  key = await adminKey(app);
});

test.after.always(async () => {
  await app?.close();
  await site?.close();
});

test.serial('a 2.6 MB page is indexed while the server keeps answering: no event-loop stall over 500 ms, /livez always quick', async (t) => {
  t.true(bigPage().length > 2_500_000);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let done = false;
  const add = Promise.resolve(
    app.request
      .post('/v2/add/website')
      .set('authorization', `Bearer ${key}`)
      .send({ url: `${site.origin}/big.html`, scope: 'page' }),
  ).finally(() => (done = true));
  const livez: number[] = [];
  while (!done) {
    const started = performance.now();
    const res = await app.request.get('/livez');
    livez.push(performance.now() - started);
    t.is(res.status, 200);
    await new Promise((r) => setTimeout(r, 25));
  }
  delay.disable();
  const res = await add;
  t.is(res.status, 200, JSON.stringify(res.body));
  const maxStallMs = delay.max / 1e6;
  const worstLivez = Math.max(...livez);
  t.log(
    `event-loop delay max ${maxStallMs.toFixed(0)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms; /livez ${livez.length} answers, worst ${worstLivez.toFixed(0)} ms`,
  );
  // The target is 100 ms (measured by scripts/bench/crawl-bombs.ts); 500 here leaves room for a loaded test machine.
  t.true(maxStallMs < 500, `event loop stalled ${maxStallMs.toFixed(0)} ms`);
  t.true(worstLivez < 500, `/livez took ${worstLivez.toFixed(0)} ms`);
  const ctx = await app.request.get('/v2/context').query({ libraryId: res.body.libraryName, query: 'widget option 1234 configure', type: 'json' });
  t.is(ctx.status, 200);
});

test.serial('a job that exhausts its heap ends its own process: the job fails with the reason, the server carries on', async (t) => {
  const res = await app.request
    .post('/v2/add/website')
    .set('authorization', `Bearer ${key}`)
    .send({ url: `${site.origin}/heavy/`, scope: 'subpages', maxPages: 100, maxDepth: 2 });
  t.is(res.status, 413, JSON.stringify(res.body));
  t.is(res.body.error, 'payload_too_large');
  t.regex(res.body.message, /ran out of memory.*JOB_MAX_HEAP_MB/);
  t.is((await app.request.get('/livez')).status, 200);
  // The next job gets a new process.
  const again = await app.request
    .post('/v2/add/website')
    .set('authorization', `Bearer ${key}`)
    .send({ url: `${site.origin}/big.html`, scope: 'page' });
  t.is(again.status, 200, JSON.stringify(again.body));
});

test.serial('a job process that dies while idle is not handed the next job: a new one runs it', async (t) => {
  const children = () => fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  const add = () =>
    app.request
      .post('/v2/add/website')
      .set('authorization', `Bearer ${key}`)
      .send({ url: `${site.origin}/big.html`, scope: 'page' });
  t.is((await add()).status, 200);
  const idle = children();
  t.true(idle.length >= 1, 'the last job left its process for the next one');
  for (const pid of idle) process.kill(pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 300));
  const res = await add();
  t.is(res.status, 200, JSON.stringify(res.body));
});
