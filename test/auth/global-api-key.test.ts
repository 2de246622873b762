import test from 'ava';
import Router from '@koa/router';
import supertest from 'supertest';
import { createTestApp, type TestApp } from '../harness';
import { authenticate } from '../../src/http/middlewares/auth';
import { adminKey, bearer, makeUser } from './fixtures';

const API_KEY = 'global-service-key-0123456789';
let locked: TestApp;
let open: TestApp;
let userKey: string;

test.before(async () => {
  [locked, open] = await Promise.all([createTestApp({ API_KEY }), createTestApp()]);
  await adminKey(locked);
  userKey = (await makeUser(locked)).key;
});
test.after.always(async () => {
  await Promise.all([locked?.close(), open?.close()]);
});

const PUBLIC_PATHS = [
  '/v2/libs/search?libraryName=react',
  '/api/v2/libs/search?libraryName=react',
  '/v2/context?libraryId=/a/b&query=x',
  '/api/v2/context?libraryId=/a/b&query=x',
  '/api/v1/a/b',
];

test('API_KEY unset: search and context (all mounts) are public', async (t) => {
  for (const path of PUBLIC_PATHS) {
    const res = await open.request.get(path);
    t.not(res.status, 401, path);
  }
});

test('API_KEY set: search, context, /mcp, unknown paths and everything else need a bearer token', async (t) => {
  for (const path of [...PUBLIC_PATHS, '/mcp', '/v2/openapi.json', '/v2/jobs', '/no/such/route']) {
    const res = await locked.request.get(path);
    t.is(res.status, 401, path);
    t.is(res.body.error, 'invalid_api_key');
  }
  t.is((await locked.request.post('/mcp').send({})).status, 401);
});

test('API_KEY set: the exact key (an admin-equivalent service principal) or a user key passes', async (t) => {
  for (const path of PUBLIC_PATHS) {
    t.not((await locked.request.get(path).set(bearer(API_KEY))).status, 401, path);
    t.not((await locked.request.get(path).set(bearer(userKey))).status, 401, path);
  }
  const users = await locked.request.get('/v2/admin/users').set(bearer(API_KEY));
  t.is(users.status, 200, 'the service principal acts as admin');
  const me = await locked.request.get('/v2/auth/me').set(bearer(API_KEY));
  t.true(me.body.service);
});

test('API_KEY set: a wrong or slightly different key is 401', async (t) => {
  for (const key of [`${API_KEY}x`, API_KEY.slice(0, -1), 'smk_' + 'B'.repeat(43)]) {
    const res = await locked.request.get('/v2/libs/search?libraryName=react').set(bearer(key));
    t.is(res.status, 401, key);
  }
});

test('API_KEY set: /healthz, /ping, login and the dashboard files stay open', async (t) => {
  t.is((await locked.request.get('/healthz')).status, 200);
  t.is((await locked.request.get('/ping')).status, 200);
  t.is((await locked.request.post('/v2/auth/login').send({ username: 'x', password: 'y' })).status, 401, 'a wrong login, but reachable');
  t.not((await locked.request.get('/dashboard/')).status, 401);
});

test('the middleware decides: required routes, public routes, and API_KEY forcing both', async (t) => {
  const decide = (app: TestApp, required: boolean) => {
    const router = new Router();
    router.get('/probe', authenticate(app.services, { required }), (ctx) => {
      ctx.body = { kind: (ctx.state.principal as { kind: string }).kind };
    });
    const koa = new (app.app.constructor as new () => typeof app.app)();
    koa.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        ctx.status = (error as { status?: number }).status ?? 500;
        ctx.body = { error: (error as { code?: string }).code };
      }
    });
    koa.use(router.routes());
    return supertest(koa.callback());
  };
  t.deepEqual((await decide(open, false).get('/probe')).body, { kind: 'anonymous' });
  t.is((await decide(open, true).get('/probe')).status, 401);
  t.is((await decide(locked, false).get('/probe')).status, 401, 'API_KEY makes every route require a token');
  t.deepEqual((await decide(locked, false).get('/probe').set(bearer(API_KEY))).body, { kind: 'service' });
  t.deepEqual((await decide(locked, false).get('/probe').set(bearer(userKey))).body, { kind: 'user' });
});
