/**
 * The dashboard's static serving and the rules its files keep (no stores needed): content
 * types, ETag revalidation, the Content-Security-Policy, no inline scripts or HTML strings,
 * and the weight of the first load.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import Koa from 'koa';
import supertest from 'supertest';
import { assetVersion, dashboardStatic, DASHBOARD_DIR, loadStaticFiles } from '../../src/dashboard/static';
import { compression } from '../../src/http/middlewares/compression';
import { firstLoadFiles } from './weight';

function app() {
  const koa = new Koa();
  koa.use(compression());
  koa.use(dashboardStatic());
  koa.use((ctx) => {
    ctx.status = 404;
    ctx.body = { error: 'not_found', message: 'api 404' };
  });
  return supertest(koa.callback());
}

test('GET /dashboard redirects to /dashboard/, which is the HTML shell with a strict CSP', async (t) => {
  const redirect = await app().get('/dashboard');
  t.is(redirect.status, 302);
  t.is(redirect.headers.location, '/dashboard/');
  const res = await app().get('/dashboard/');
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'text/html; charset=utf-8');
  const csp = res.headers['content-security-policy'];
  t.regex(csp, /default-src 'none'/);
  t.regex(csp, /script-src 'self'(;|$)/);
  t.regex(csp, /style-src 'self'(;|$)/);
  t.notRegex(csp, /unsafe-inline|unsafe-eval/);
  t.regex(csp, /frame-ancestors 'none'/);
  t.is(res.headers['x-content-type-options'], 'nosniff');
  t.regex(res.text, /<script type="module" src="js\/main.js\?v=[\w-]+"><\/script>/);
  t.is(res.headers['cache-control'], 'no-cache', 'the HTML is revalidated on every load');
});

test('references are fingerprinted with one version; a versioned URL is cached for a year, an unversioned one revalidated', async (t) => {
  const version = assetVersion(loadStaticFiles());
  const html = (await app().get('/dashboard/')).text;
  const refs = [...html.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((m) => m[1]).filter((r) => !r.startsWith('#'));
  t.true(refs.length >= 4);
  for (const ref of refs) t.true(ref.endsWith(`?v=${version}`), ref);
  const router = await app().get(`/dashboard/js/router.js?v=${version}`);
  t.is(router.headers['cache-control'], 'public, max-age=31536000, immutable');
  t.true(router.text.includes(`\`./pages/\${name}.js?v=${version}\``), 'the page modules loaded on demand are fingerprinted too');
  const main = (await app().get(`/dashboard/js/main.js?v=${version}`)).text;
  t.regex(main, new RegExp(`from '\\./dom\\.js\\?v=${version}'`));
  t.is((await app().get('/dashboard/js/main.js?v=stale')).headers['cache-control'], 'no-cache', 'an old version is not pinned');
  const vendor = await app().get(`/dashboard/vendor/marked.js?v=${version}`);
  t.is(vendor.status, 200);
  t.regex(vendor.headers['content-type'], /^text\/javascript/);
  t.notRegex(vendor.text, /sourceMappingURL/);
});

test('JSON, text and static files are compressed with brotli or gzip as the client asks', async (t) => {
  for (const encoding of ['br', 'gzip']) {
    const res = await app().get('/dashboard/js/main.js').set('Accept-Encoding', encoding);
    t.is(res.headers['content-encoding'], encoding);
    t.regex(res.headers.vary ?? '', /Accept-Encoding/i);
  }
  t.falsy((await app().get('/dashboard/js/main.js').set('Accept-Encoding', 'identity')).headers['content-encoding']);
  const koa = new Koa();
  koa.use(compression());
  koa.use((ctx) => {
    ctx.body = ctx.path === '/sse' ? 'data: x\n\n'.repeat(500) : { items: Array.from({ length: 200 }, (_, i) => ({ i, text: 'repeated text' })) };
    if (ctx.path === '/sse') ctx.type = 'text/event-stream';
  });
  const json = await supertest(koa.callback()).get('/json').set('Accept-Encoding', 'br');
  t.is(json.headers['content-encoding'], 'br');
  t.is(json.body.items.length, 200);
  t.falsy(
    (await supertest(koa.callback()).get('/sse').set('Accept-Encoding', 'gzip')).headers['content-encoding'],
    'event streams are not buffered by a compressor',
  );
});

test('files get their content types, a strong ETag, and 304 on revalidation', async (t) => {
  const expected: Record<string, RegExp> = {
    '/dashboard/app.css': /^text\/css/,
    '/dashboard/js/main.js': /^text\/javascript/,
    '/dashboard/js/pages/keys.js': /^text\/javascript/,
    '/dashboard/favicon.svg': /^image\/svg\+xml/,
  };
  for (const [url, type] of Object.entries(expected)) {
    const res = await app().get(url);
    t.is(res.status, 200, url);
    t.regex(res.headers['content-type'], type, url);
    t.regex(res.headers.etag, /^"[A-Za-z0-9_-]{20,}"$/, url);
    t.is(res.headers['cache-control'], 'no-cache');
    const again = await app().get(url).set('If-None-Match', res.headers.etag);
    t.is(again.status, 304, url);
    t.is(again.text ?? '', '');
    const changed = await app().get(url).set('If-None-Match', '"something-else"');
    t.is(changed.status, 200);
  }
});

test('unknown files are 404, paths cannot leave the folder, writes are refused, the API is untouched', async (t) => {
  t.is((await app().get('/dashboard/nope.js')).status, 404);
  t.is((await app().get('/dashboard/../package.json')).status, 404);
  t.is((await app().get('/dashboard/%2e%2e/%2e%2e/package.json')).status, 404);
  t.is((await app().get('/dashboard/js/../../static.ts')).status, 404);
  const post = await app().post('/dashboard/').send({});
  t.is(post.status, 405);
  t.is(post.headers.allow, 'GET, HEAD');
  const api = await app().get('/v2/libraries');
  t.is(api.body.error, 'not_found');
  t.is((await app().get('/dashboardx')).body.error, 'not_found');
});

test('no inline scripts, inline handlers, inline styles or HTML strings in the dashboard files', (t) => {
  const files = loadStaticFiles();
  t.true(files.size > 10);
  for (const [rel, file] of files) {
    const text = file.body.toString('utf8');
    if (rel.endsWith('.html')) {
      for (const m of text.matchAll(/<script\b([^>]*)>/g)) t.regex(m[1], /\bsrc=/, `${rel}: inline <script>`);
      t.notRegex(text, /\son[a-z]+=/i, `${rel}: inline event handler`);
      t.notRegex(text, /\sstyle=|<style/i, `${rel}: inline style`);
    }
    if (rel.endsWith('.js') && !rel.startsWith('/vendor/')) {
      // (the vendored sanitizer and Markdown parser build HTML by design; their output goes through DOMPurify)
      t.notRegex(text, /\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(/, `${rel}: HTML strings or eval`);
      t.notRegex(text, /setAttribute\(\s*'style'/, `${rel}: inline style attribute (blocked by the CSP)`);
    }
  }
});

test('every module imported by the dashboard exists', (t) => {
  const files = loadStaticFiles();
  for (const [rel, file] of files) {
    if (!rel.endsWith('.js')) continue;
    for (const m of file.body.toString('utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const target = path.posix.join(path.posix.dirname(rel), m[1]);
      t.true(files.has(target), `${rel} imports ${m[1]}`);
    }
  }
  // and the router names only pages that exist
  const router = fs.readFileSync(path.join(DASHBOARD_DIR, 'js', 'router.js'), 'utf8');
  for (const m of router.matchAll(/\['[^']+', '([a-z-]+)', '(\w+)'\]/g)) {
    const page = fs.readFileSync(path.join(DASHBOARD_DIR, 'js', 'pages', `${m[1]}.js`), 'utf8');
    t.regex(page, new RegExp(`export (async )?function ${m[2]}\\b`), `${m[1]}.js exports ${m[2]}`);
  }
});

test('the first load (HTML + CSS + the modules the sign-in page needs) stays under 100 KB', (t) => {
  const { files, bytes } = firstLoadFiles();
  t.log(`first load: ${files.length} files, ${bytes} bytes`);
  t.true(files.includes('/index.html') && files.includes('/app.css') && files.includes('/js/pages/login.js'));
  t.true(bytes < 100 * 1024, `${bytes} bytes`);
});
