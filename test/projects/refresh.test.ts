/**
 * Projects pointed to a lockfile by URL, on the real app and stores: the lockfile is fetched
 * from a local HTTP server (loopback allowed by WEB_ALLOWED_HOSTS, as an operator would), the
 * project refreshes by hand and on a signed push delivery when the file changes, and a URL to a
 * private or metadata address is refused (SSRF).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '../../src/config';
import { createTestApp, type TestApp } from '../harness';
import { bearer, makeUser, type TestUser } from '../auth/fixtures';
import { seedLibrary } from '../helpers';
import { signBody } from '../../src/catalog/webhook-deliveries';

const LOCKS = path.join(ROOT_DIR, 'test', 'fixtures', 'lockfiles');
const lock = (dir: string) => fs.readFileSync(path.join(LOCKS, dir, 'package-lock.json'));

let app: TestApp;
let site: http.Server;
let base: string;
let owner: TestUser;
/** What the site serves, by path (tests change it to make a lockfile change). */
const served = new Map<string, Buffer>();

test.before(async () => {
  site = http.createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  app = await createTestApp({ WEB_ALLOWED_HOSTS: '127.0.0.1', WORKER_MODE: 'off', RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  await seedLibrary(app, '/koajs/koa', {
    'docs/guide.md':
      '# Koa\n\nKoa is a middleware framework.\n\n## Middleware\n\nWrite a middleware as an async function:\n\n```js\napp.use(async (ctx, next) => { await next(); });\n```\n',
  });
  owner = await makeUser(app, { plan: 'pro', teamRole: 'owner' });
});

test.after.always(async () => {
  site?.closeAllConnections();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await app?.close();
});

const create = (body: object) => app.request.post('/v2/projects').set(bearer(owner.key)).send(body);

test('a project pointed to a URL refreshes by hand: unchanged is left alone, a change moves the pin', async (t) => {
  served.set('/a/package-lock.json', lock('koa-app'));
  const made = await create({ name: 'pointed', url: `${base}/a/package-lock.json` });
  t.is(made.status, 201, JSON.stringify(made.body));
  t.like(made.body.lockfiles[0], { filename: 'package-lock.json', url: `${base}/a/package-lock.json` });
  t.deepEqual(
    made.body.pins.map((p: { version: string }) => p.version),
    ['2.16.4'],
  );
  const id = made.body.id;
  const same = await app.request.post(`/v2/projects/${id}/refresh`).set(bearer(owner.key));
  t.is(same.status, 200);
  t.deepEqual(same.body.refreshed, { changed: [], unchanged: ['package-lock.json'], failed: [] });
  t.is(same.body.updatedAt, made.body.updatedAt, 'nothing written');
  served.set('/a/package-lock.json', lock('koa-app-2.15.0'));
  const moved = await app.request.post(`/v2/projects/${id}/refresh`).set(bearer(owner.key));
  t.deepEqual(moved.body.refreshed.changed, ['package-lock.json']);
  t.deepEqual(
    moved.body.pins.map((p: { version: string }) => p.version),
    ['2.15.0'],
  );
  served.delete('/a/package-lock.json');
  const gone = await app.request.post(`/v2/projects/${id}/refresh`).set(bearer(owner.key));
  t.is(gone.status, 200);
  t.regex(gone.body.refreshed.failed[0].message, /answered HTTP 404/);
  t.deepEqual(
    gone.body.pins.map((p: { version: string }) => p.version),
    ['2.15.0'],
    'a lockfile that cannot be fetched stays as it was',
  );
});

test('a signed push refreshes; a bad signature or unknown project is 401 alike; a replay is ignored', async (t) => {
  served.set('/b/package-lock.json', lock('koa-app'));
  const id = (await create({ url: `${base}/b/package-lock.json` })).body.id;
  const hook = await app.request.post(`/v2/projects/${id}/webhook`).set(bearer(owner.key));
  t.is(hook.status, 201);
  t.is(hook.body.path, `/v2/projects/${id}/push`);
  t.regex(hook.body.secret, /^whs_/);
  const read = await app.request.get(`/v2/projects/${id}`).set(bearer(owner.key));
  t.true(read.body.webhook.configured);
  t.false(JSON.stringify(read.body).includes(hook.body.secret), 'the secret is shown once');

  const push = (body: string, signature: string, project = id) =>
    app.request.post(`/v2/projects/${project}/push`).set('content-type', 'application/json').set('x-hub-signature-256', signature).send(body);
  const body = JSON.stringify({ ref: 'refs/heads/main', after: 'a1' });
  for (const res of [
    await push(body, signBody('whs_wrong', body)),
    await push(body, signBody(hook.body.secret, body), 'prj_0000000000000000'),
    await push(body, 'sha256='),
  ]) {
    t.is(res.status, 401);
    t.is(res.body.error, 'invalid_signature');
  }
  served.set('/b/package-lock.json', lock('koa-app-2.15.0'));
  const ok = await push(body, signBody(hook.body.secret, body));
  t.is(ok.status, 200, JSON.stringify(ok.body));
  t.like(ok.body, { accepted: true, changed: ['package-lock.json'] });
  t.deepEqual(
    (await app.request.get(`/v2/projects/${id}`).set(bearer(owner.key))).body.pins.map((p: { version: string }) => p.version),
    ['2.15.0'],
  );
  const replay = await push(body, signBody(hook.body.secret, body));
  t.like(replay.body, { accepted: false });
  // GitLab's scheme: the token itself.
  const other = JSON.stringify({ ref: 'refs/heads/main', after: 'a2' });
  const gitlab = await app.request.post(`/v2/projects/${id}/push`).set('content-type', 'application/json').set('x-gitlab-token', hook.body.secret).send(other);
  t.like(gitlab.body, { accepted: true, unchanged: ['package-lock.json'] });
});

test('URLs: private and metadata addresses, other schemes, and 404s are 400s naming url; a project without one cannot refresh', async (t) => {
  for (const url of [
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.1/package-lock.json',
    'file:///etc/passwd',
    `${base}/missing/package-lock.json`,
    'not a url',
    'http://user:pw@example.com/go.mod',
  ]) {
    const res = await create({ url });
    t.is(res.status, 400, url);
    t.is(res.body.field, 'url', `${url}: ${JSON.stringify(res.body)}`);
  }
  const blocked = await create({ url: 'http://169.254.169.254/latest/meta-data' });
  t.regex(blocked.body.message, /loopback, private or metadata address/);
  const both = await app.request
    .post('/v2/projects')
    .set(bearer(owner.key))
    .field('url', `${base}/a/package-lock.json`)
    .attach('lockfile', lock('koa-app'), 'package-lock.json');
  t.is(both.status, 400);
  const uploaded = await app.request.post('/v2/projects').set(bearer(owner.key)).attach('lockfile', lock('koa-app'), 'package-lock.json');
  for (const res of [
    await app.request.post(`/v2/projects/${uploaded.body.id}/refresh`).set(bearer(owner.key)),
    await app.request.post(`/v2/projects/${uploaded.body.id}/webhook`).set(bearer(owner.key)),
  ]) {
    t.is(res.status, 400);
    t.is(res.body.field, 'url');
  }
});
