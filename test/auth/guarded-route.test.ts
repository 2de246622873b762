import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { createTestApp, type TestApp } from '../harness';
import { authenticate } from '../../src/http/middlewares/auth';
import { rateLimit } from '../../src/http/middlewares/rate-limit';
import { errorFunnel } from '../../src/error-funnel';
import { adminKey, login, makeUser } from './fixtures';

// Measures what authentication and rate limiting add per request: 1,000 sequential
// keep-alive HTTP requests to a trivial route, with and without the two middlewares.
let app: TestApp;
let server: http.Server;
let base: string;
test.before(async () => {
  app = await createTestApp({ RATE_LIMIT_ANON_PER_MINUTE: '1000000', RATE_LIMIT_KEY_PER_MINUTE: '1000000', RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000000', WORKER_MODE: 'off' });
  await adminKey(app);
  const koa = new Koa();
  koa.use(errorFunnel({ log: app.services.log }));
  const router = new Router();
  router.get('/bare', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/guarded', authenticate(app.services, { required: false }), rateLimit(app.services, { class: 'standard' }), (ctx) => {
    ctx.body = { ok: true };
  });
  koa.use(router.routes());
  server = http.createServer(koa.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after.always(async () => {
  server?.close();
  await app?.close();
});

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get(`${base}${path}`, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`status ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

async function measure(path: string, headers?: Record<string, string>, n = 1000) {
  for (let i = 0; i < 100; i++) await get(path, headers);
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await get(path, headers));
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(n / 2)], p90: times[Math.floor(n * 0.9)] };
}

test.serial('auth + rate limiting overhead per request (1,000 requests each)', async (t) => {
  const user = await makeUser(app);
  const session = await login(app, user.username, user.password);
  const bare = await measure('/bare');
  const rows = {
    anonymous: await measure('/guarded'),
    'api key': await measure('/guarded', { Authorization: `Bearer ${user.key}` }),
    session: await measure('/guarded', { Cookie: session.cookie }),
  };
  t.log(`store counter strategy: ${app.services.rateLimiter.strategy.name}`);
  t.log(`bare route: p50 ${bare.p50.toFixed(3)} ms, p90 ${bare.p90.toFixed(3)} ms`);
  for (const [name, r] of Object.entries(rows)) {
    t.log(`${name}: p50 ${r.p50.toFixed(3)} ms (+${(r.p50 - bare.p50).toFixed(3)}), p90 ${r.p90.toFixed(3)} ms (+${(r.p90 - bare.p90).toFixed(3)})`);
  }
  // A loose bound: catches an accidental extra round trip or a slow hash, not machine noise.
  for (const r of Object.values(rows)) t.true(r.p50 - bare.p50 < 25);
});
