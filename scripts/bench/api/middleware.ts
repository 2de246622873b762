/**
 * What authentication and rate limiting add to a request by themselves: sequential keep-alive
 * requests to a trivial route of a Koa app in the bench's own process, bare and behind the
 * two middlewares (anonymous, an `smk_` key, a dashboard session), on the bench's stores.
 * Moved from test/auth/overhead.test.ts, where 4,400 requests measured rather than tested;
 * that file keeps a functional test of the same route.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { createServices, portsOf } from '../../../src/services';
import type { Ports } from '../../../src/ports';
import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/logger';
import { authenticate, SESSION_COOKIE } from '../../../src/http/middlewares/auth';
import { rateLimit } from '../../../src/http/middlewares/rate-limit';
import { errorFunnel } from '../../../src/error-funnel';

export interface MiddlewareOverhead {
  requests: number;
  counterStrategy: string;
  /** p50 and p90 in ms per mode; `bare` is the route without the middlewares. */
  rows: Record<string, { p50: number; p90: number }>;
}

/** A Koa app with `/bare` and `/guarded` (authenticate + rate limit, answering the principal's kind). */
export function guardedRouteApp(services: Ports): http.Server {
  const koa = new Koa();
  koa.use(errorFunnel({ log: services.log }));
  const router = new Router();
  router.get('/bare', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/guarded', authenticate(services, { required: false }), rateLimit(services, { class: 'standard' }), (ctx) => {
    const p = ctx.state.principal;
    ctx.body = { kind: p.kind, ...(p.kind === 'user' ? { userId: p.userId } : {}) };
  });
  koa.use(router.routes());
  return http.createServer(koa.callback());
}

/** On services of its own (the stores of `env`), whose rate limits never refuse the run. */
export async function measureMiddlewareOverhead(env: NodeJS.ProcessEnv, requests = 1000): Promise<MiddlewareOverhead> {
  const unlimited = {
    RATE_LIMIT_ANON_PER_MINUTE: '1000000',
    RATE_LIMIT_KEY_PER_MINUTE: '1000000',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000000',
    WORKER_MODE: 'off',
  };
  const config = loadConfig({ ...env, ...unlimited });
  const composition = await createServices(config, createLogger(config.logLevel, process.stderr));
  const { lifecycle } = composition;
  const services = portsOf(composition);
  try {
    return await measureOn(services, requests);
  } finally {
    await lifecycle.close();
  }
}

async function measureOn(services: Ports, requests: number): Promise<MiddlewareOverhead> {
  const user = await services.accounts.createUser({
    username: `bench-${crypto.randomBytes(4).toString('hex')}`,
    password: crypto.randomBytes(24).toString('base64url'),
    role: 'member',
  });
  const server = guardedRouteApp(services);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { value: key } = await services.keys.create(user._id, 'shelfmark bench (temporary)');
    const session = await services.sessions.create(user._id);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const started = process.hrtime.bigint();
        http
          .get(`${base}${path}`, { agent, headers }, (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${path}: status ${res.statusCode}`)),
            );
          })
          .on('error', reject);
      });
    const measure = async (path: string, headers: Record<string, string> = {}) => {
      for (let i = 0; i < 100; i++) await get(path, headers);
      const times: number[] = [];
      for (let i = 0; i < requests; i++) times.push(await get(path, headers));
      times.sort((a, b) => a - b);
      return { p50: times[Math.floor(requests / 2)], p90: times[Math.floor(requests * 0.9)] };
    };
    return {
      requests,
      counterStrategy: services.rateLimiter.strategy.name,
      rows: {
        bare: await measure('/bare'),
        anonymous: await measure('/guarded'),
        'smk_ key': await measure('/guarded', { Authorization: `Bearer ${key}` }),
        session: await measure('/guarded', { Cookie: `${SESSION_COOKIE}=${session.token}` }),
      },
    };
  } finally {
    agent.destroy();
    server.close();
    await services.accounts.deleteUser(user._id);
  }
}

export function formatMiddlewareOverhead(m: MiddlewareOverhead): string {
  const bare = m.rows.bare;
  return Object.entries(m.rows)
    .map(
      ([mode, r]) =>
        `  ${mode.padEnd(10)} p50 ${r.p50.toFixed(3)} ms${mode === 'bare' ? '' : ` (+${(r.p50 - bare.p50).toFixed(3)})`}   p90 ${r.p90.toFixed(3)} ms${mode === 'bare' ? '' : ` (+${(r.p90 - bare.p90).toFixed(3)})`}`,
    )
    .join('\n');
}
