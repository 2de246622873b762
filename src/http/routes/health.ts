import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { Lifecycle } from '../../services';
import type { StoreReading } from '../../health/monitor';
import { validate } from '../validate';
import { openApiDocumentOf } from '../openapi';
import { healthSchemas as s } from './health-schema';

/**
 * Health: `GET /healthz` (and `/readyz`) reads each store now — a find on a small MongoDB
 * collection, a search on the snippets alias, each bounded — and answers 200 when both
 * answered, 503 naming the one(s) that did not, with each store's latency. `GET /livez`
 * says only that the process serves (no store I/O: for restarts, not for routing).
 * `GET /ping` for MCP clients.
 */
export function healthRoutes(lifecycle: Pick<Lifecycle, 'health'>): Router {
  const router = new Router();
  const readiness: Middleware = async (ctx) => {
    const stores = await lifecycle.health();
    const down = Object.entries(stores)
      .filter(([, r]) => r.error !== undefined)
      .map(([name]) => name);
    const present = (r: StoreReading) => ({
      status: r.error === undefined ? 'up' : 'down',
      latencyMs: r.latencyMs,
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      ...(r.error ? { error: r.error.slice(0, 200) } : {}),
    });
    ctx.status = down.length === 0 ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      status: down.length === 0 ? 'ok' : 'unavailable',
      elasticsearch: down.includes('elasticsearch') ? 'down' : 'up',
      mongodb: down.includes('mongodb') ? 'down' : 'up',
      stores: { elasticsearch: present(stores.elasticsearch), mongodb: present(stores.mongodb) },
      ...(down.length > 0 ? { message: `Unavailable: ${down.join(', ')}` } : {}),
    };
  };
  router.get('health.read', '/healthz', validate(s.healthz), readiness);
  router.get('health.read', '/readyz', validate(s.readyz), readiness);
  router.get('health.read', '/livez', validate(s.livez), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
  });
  // Generated on first request from the app's own route table (http/openapi.ts).
  for (const p of ['/v2/openapi.json', '/api/v2/openapi.json']) {
    router.get('openapi.read', p, validate(s.openapi), (ctx) => {
      ctx.body = openApiDocumentOf(ctx.app);
    });
  }
  router.get('health.read', '/ping', validate(s.ping), (ctx) => {
    ctx.body = { status: 'ok', message: 'pong' };
  });
  return router;
}
