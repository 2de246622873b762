/**
 * Authentication and rate limiting on a trivial route (the route `npm run bench` times them
 * on, scripts/bench/api/middleware.ts): each credential reaches the handler as its principal, a
 * wrong key is refused, and the key's limit is applied. The timing itself is the bench's.
 */
import test from 'ava';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { createTestApp, type TestApp } from '../harness';
import { guardedRouteApp } from '../../scripts/bench/api/middleware';
import { SESSION_COOKIE } from '../../src/http/middlewares/auth';
import { makeUser, type TestUser } from './fixtures';

const KEY_LIMIT = 5;
let app: TestApp;
let server: http.Server;
let base: string;
let user: TestUser;

test.before(async () => {
  app = await createTestApp({ RATE_LIMIT_ANON_PER_MINUTE: '1000', RATE_LIMIT_KEY_PER_MINUTE: String(KEY_LIMIT), WORKER_MODE: 'off' });
  user = await makeUser(app);
  server = guardedRouteApp(app.services);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after.always(async () => {
  server?.close();
  await app?.close();
});

test.serial('anonymous, an smk_ key and a session each reach the handler as their principal, with rate-limit headers', async (t) => {
  const anonymous = await supertest(base).get('/guarded');
  t.is(anonymous.status, 200);
  t.deepEqual(anonymous.body, { kind: 'anonymous' });
  t.truthy(anonymous.headers['ratelimit-limit']);
  const keyed = await supertest(base).get('/guarded').set('authorization', `Bearer ${user.key}`);
  t.is(keyed.status, 200);
  t.deepEqual(keyed.body, { kind: 'user', userId: user.userId });
  t.is(keyed.headers['ratelimit-limit'], String(KEY_LIMIT));
  const session = await app.services.sessions.create(user.userId);
  const cookie = await supertest(base).get('/guarded').set('cookie', `${SESSION_COOKIE}=${session.token}`);
  t.is(cookie.status, 200);
  t.deepEqual(cookie.body, { kind: 'user', userId: user.userId });
  t.is((await supertest(base).get('/bare')).status, 200);
});

test.serial('a wrong key is refused with invalid_api_key', async (t) => {
  const res = await supertest(base).get('/guarded').set('authorization', 'Bearer smk_not_a_key_of_ours');
  t.is(res.status, 401);
  t.is(res.body.error, 'invalid_api_key');
});

test.serial("the key's limit applies on the route: the request after it is refused with rate_limit_exceeded", async (t) => {
  const other = await makeUser(app);
  const statuses: number[] = [];
  for (let i = 0; i <= KEY_LIMIT; i++) statuses.push((await supertest(base).get('/guarded').set('authorization', `Bearer ${other.key}`)).status);
  t.deepEqual(statuses, [...Array(KEY_LIMIT).fill(200), 429]);
  const refused = await supertest(base).get('/guarded').set('authorization', `Bearer ${other.key}`);
  t.is(refused.body.error, 'rate_limit_exceeded');
});
