/**
 * POST /v2/add/website and /v2/add/llmstxt end to end: a real local site (test/web-site.ts)
 * crawled through the SSRF-safe fetcher (loopback allowed by WEB_ALLOWED_HOSTS), built by
 * the worker, queried through /v2/context; the crawl report in the jobs API and on the
 * library; a refresh with nothing changed asks conditionally and parses nothing; headers
 * are used and never shown.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey } from '../helpers';
import { startWebSite, type WebSite } from '../web-site';

let site: WebSite;
let app: TestApp;
let key: string;
const SECRET = 'Bearer site-token-7f3a9c';

const html = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title><link rel="alternate" type="text/markdown" href="${title.toLowerCase()}.md"></head><body><main>${body}${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`;

const INTRO_MD = `# Intro

Gizmos turn widgets into gadgets.

## Installing gizmos

Install the package before anything else:

\`\`\`bash
npm install gizmos --save
\`\`\`
`;
const API_MD = `# API

## gizmo.spin()

Spins the gizmo at the given rate.

\`\`\`js
import { gizmo } from 'gizmos';
gizmo.spin({ rate: 3 });
\`\`\`
`;

test.before(async () => {
  site = await startWebSite({
    negotiateMarkdown: true,
    files: {
      '/robots.txt': 'User-agent: *\nDisallow: /docs/private\n',
      '/docs/index.html': html('Index', '<h1>Gizmos docs</h1>', ['intro.html', 'api.html', 'missing.html', 'private.html', 'logo.png']),
      '/docs/index.md':
        '# Gizmos docs\n\nThe gizmos documentation: [intro](intro.html), [api](api.html), [gone](missing.html), [private](private.html), [logo](logo.png).\n',
      '/docs/intro.html': html('Intro', '<h1>Intro</h1>'),
      '/docs/intro.md': INTRO_MD,
      '/docs/api.html': html('API', '<h1>API</h1>'),
      '/docs/api.md': API_MD,
      '/docs/private.html': html('Private', '<h1>Private</h1>'),
      '/docs/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
      '/llms.txt':
        '# Gizmos\n\n> Gizmos turn widgets into gadgets.\n\n## Docs\n\n- [Intro](/docs/intro.md): getting started\n- [API](/docs/api.md): the calls\n',
    },
  });
  app = await createTestApp({ WEB_ALLOWED_HOSTS: '127.0.0.1', WEB_CRAWL_DELAY_MS: '0', RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  key = await adminKey(app);
});

test.after.always(async () => {
  await app?.close();
  await site?.close();
});

const auth = () => ({ authorization: `Bearer ${key}` });

test.serial('adds a website: crawls it, answers 200 with /websites/<host>_<path>, and the pages answer context', async (t) => {
  const res = await app.request
    .post('/v2/add/website')
    .set(auth())
    .send({ url: `${site.origin}/docs/`, scope: 'subpages', maxPages: 20, maxDepth: 3, headers: { Authorization: SECRET } });
  t.is(res.status, 200, JSON.stringify(res.body));
  const id = `/websites/127.0.0.1-${site.port}_docs`;
  t.is(res.body.libraryName, id);
  const ctx = await app.request.get('/v2/context').set(auth()).query({ libraryId: id, query: 'how do I spin a gizmo', type: 'json' });
  t.is(ctx.status, 200);
  t.regex(JSON.stringify(ctx.body), /gizmo\.spin\(\{ rate: 3 \}\)/);
  // The headers reached the site (its own origin) ...
  t.true(site.requests.some((r) => r.url.startsWith('/docs/') && r.headers.authorization === SECRET));
  // ... and are stored encrypted, never in params.
  const stored = await app.handles.models.Job.findOne({ kind: 'add-website' }).lean();
  t.truthy(stored?.encryptedHeaders);
  t.false(JSON.stringify(stored).includes('site-token-7f3a9c'));
});

test.serial('the crawl report names every skipped URL with its reason, in the jobs API and on the library', async (t) => {
  const id = `/websites/127.0.0.1-${site.port}_docs`;
  const list = await app.request.get('/v2/jobs').set(auth()).query({ libraryId: id });
  t.is(list.status, 200);
  const jobId = list.body.jobs[0].id;
  const job = await app.request.get(`/v2/jobs/${jobId}`).set(auth());
  t.is(job.status, 200);
  t.is(job.body.kind, 'add-website');
  t.is(job.body.source, 'website');
  const report = job.body.crawl;
  t.truthy(report, JSON.stringify(job.body));
  t.true(report.pagesFetched >= 3);
  const reasons = Object.fromEntries(report.skipped.map((s: { url: string; reason: string }) => [new URL(s.url).pathname, s.reason]));
  t.is(reasons['/docs/missing.html'], 'status', JSON.stringify(report));
  t.is(reasons['/docs/private.html'], 'robots');
  t.true(report.counts.some((c: { reason: string; count: number }) => c.reason === 'status' && c.count >= 1));
  t.true(report.counts.some((c: { reason: string; count: number }) => c.reason === 'robots' && c.count >= 1));
  const lib = await app.request.get(`/v2/libraries${id}`).set(auth());
  t.is(lib.status, 200);
  t.is(lib.body.source, 'website');
  t.is(lib.body.sourceOptions.scope, 'subpages');
  t.is(lib.body.sourceOptions.url, `${site.origin}/docs/`);
  t.deepEqual(lib.body.crawl.counts, report.counts);
  for (const body of [job.body, list.body, lib.body]) t.false(JSON.stringify(body).includes('site-token-7f3a9c'), 'headers never shown');
});

test.serial('a refresh with nothing changed asks conditionally, parses nothing and writes nothing', async (t) => {
  const id = `/websites/127.0.0.1-${site.port}_docs`;
  const before = await app.services.libraries.get(id, { fresh: true });
  const generation = before?.versions.find((v) => v.version === 'latest')?.generation;
  const from = site.requests.length;
  const res = await app.request.post('/v2/refresh').set(auth()).send({ libraryName: id });
  t.is(res.status, 200, JSON.stringify(res.body));
  const page = site.requests.slice(from).filter((r) => /\/docs\/(intro|api)/.test(r.url));
  t.true(page.length > 0);
  t.true(
    page.every((r) => r.headers['if-none-match'] !== undefined),
    'every known page asked conditionally',
  );
  t.true(page.some((r) => r.status === 304));
  // The refresh crawled with the headers the add was given.
  t.true(site.requests.slice(from).some((r) => r.headers.authorization === SECRET));
  const jobs = await app.request.get('/v2/jobs').set(auth()).query({ libraryId: id });
  const refresh = jobs.body.jobs.find((j: { kind: string }) => j.kind === 'refresh');
  t.is(refresh.state, 'finalized');
  t.is(refresh.progress.filesParsed, 0);
  t.true(refresh.progress.filesReused >= 3);
  t.is(refresh.crawl.pagesFetched, 0);
  const after = await app.services.libraries.get(id, { fresh: true });
  t.is(after?.versions.find((v) => v.version === 'latest')?.generation, generation, 'the served generation stays');
});

test.serial('a refresh after one page changed parses that page only and reuses the others', async (t) => {
  const id = `/websites/127.0.0.1-${site.port}_docs`;
  site.set('/docs/api.md', API_MD.replace('rate: 3', 'rate: 9'));
  const res = await app.request.post('/v2/refresh').set(auth()).send({ libraryName: id });
  t.is(res.status, 200, JSON.stringify(res.body));
  const jobs = await app.request.get('/v2/jobs').set(auth()).query({ libraryId: id });
  const refresh = jobs.body.jobs.find((j: { kind: string }) => j.kind === 'refresh');
  t.is(refresh.progress.filesParsed, 1);
  t.true(refresh.progress.filesReused >= 2);
  const ctx = await app.request.get('/v2/context').set(auth()).query({ libraryId: id, query: 'spin a gizmo', type: 'json' });
  t.regex(JSON.stringify(ctx.body), /rate: 9/);
  t.notRegex(JSON.stringify(ctx.body), /rate: 3/);
  const intro = await app.request.get('/v2/context').set(auth()).query({ libraryId: id, query: 'install gizmos', type: 'json' });
  t.regex(JSON.stringify(intro.body), /npm install gizmos/);
});

test.serial('adds an llms.txt: follows it to the pages it lists', async (t) => {
  const res = await app.request
    .post('/v2/add/llmstxt')
    .set(auth())
    .send({ url: `${site.origin}/llms.txt` });
  t.is(res.status, 200, JSON.stringify(res.body));
  const id = `/llmstxt/127.0.0.1-${site.port}`;
  t.is(res.body.libraryName, id);
  const ctx = await app.request.get('/v2/context').set(auth()).query({ libraryId: id, query: 'install gizmos', type: 'json' });
  t.regex(JSON.stringify(ctx.body), /npm install gizmos/);
  const lib = await app.request.get(`/v2/libraries${id}`).set(auth());
  t.is(lib.body.source, 'llmstxt');
});

test.serial('bad requests are 400 validation_error naming the field; nothing is created', async (t) => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{}, 'url'],
    [{ url: 'ftp://example.com/docs' }, 'url'],
    [{ url: 'http://user:pw@example.com/' }, 'url'],
    [{ url: `${site.origin}/`, scope: 'everything' }, 'scope'],
    [{ url: `${site.origin}/`, maxPages: 0 }, 'maxPages'],
    [{ url: `${site.origin}/`, maxDepth: 99 }, 'maxDepth'],
    [{ url: `${site.origin}/`, include: 'docs/**' }, 'include'],
    [{ url: `${site.origin}/`, headers: { Host: 'evil.example' } }, 'headers'],
    [{ url: `${site.origin}/`, headers: { 'X-A': 'a\r\nInjected: 1' } }, 'headers'],
  ];
  for (const [body, field] of cases) {
    const res = await app.request.post('/v2/add/website').set(auth()).send(body);
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error, 'validation_error');
    t.regex(res.body.message, new RegExp(field), JSON.stringify(res.body));
  }
  const llms = await app.request.post('/v2/add/llmstxt').set(auth()).send({ url: 'javascript:alert(1)' });
  t.is(llms.status, 400);
  const libs = await app.request.get('/v2/libraries').set(auth());
  t.false(JSON.stringify(libs.body).includes('example.com'));
});

test.serial('a site whose pages cannot be read is a 400 naming the reason, and leaves no library behind', async (t) => {
  const res = await app.request
    .post('/v2/add/website')
    .set(auth())
    .send({ url: `${site.origin}/nowhere/`, scope: 'page', maxPages: 5, maxDepth: 0 });
  t.is(res.status, 400, JSON.stringify(res.body));
  t.is(res.body.error, 'validation_error');
  t.regex(res.body.message, /status/);
  const lib = await app.request.get(`/v2/libraries/websites/127.0.0.1-${site.port}_nowhere`).set(auth());
  t.is(lib.status, 404);
});

test('without WEB_ALLOWED_HOSTS a loopback site is refused (SSRF): 400 naming blocked_address, no library', async (t) => {
  const strict = await createTestApp({ WEB_CRAWL_DELAY_MS: '0' });
  try {
    const admin = await adminKey(strict);
    const from = site.requests.length;
    const res = await strict.request
      .post('/v2/add/website')
      .set({ authorization: `Bearer ${admin}` })
      .send({ url: `${site.origin}/docs/`, maxPages: 5 });
    t.is(res.status, 400, JSON.stringify(res.body));
    t.regex(res.body.message, /blocked_address/);
    t.is(site.requests.length, from, 'the site was never contacted');
    const libs = await strict.request.get('/v2/libraries').set({ authorization: `Bearer ${admin}` });
    t.deepEqual(libs.body.libraries ?? libs.body, []);
  } finally {
    await strict.close();
  }
});
