import Router from '@koa/router';
import type { Services } from '../../services';
import { buildOpenApiDocument } from '../openapi-document';

/** `GET /healthz`: 200 when both stores answer, 503 naming the one(s) down. `GET /ping` for MCP clients. */
export function healthRoutes(services: Services): Router {
  const router = new Router();
  router.get('/healthz', async (ctx) => {
    const h = await services.health();
    const down = Object.entries(h).filter(([, up]) => !up).map(([name]) => name);
    ctx.status = down.length === 0 ? 200 : 503;
    ctx.body = {
      status: down.length === 0 ? 'ok' : 'unavailable',
      elasticsearch: h.elasticsearch ? 'up' : 'down',
      mongodb: h.mongodb ? 'up' : 'down',
      ...(down.length > 0 ? { message: `Unavailable: ${down.join(', ')}` } : {}),
    };
  });
  const doc = buildOpenApiDocument();
  for (const p of ['/v2/openapi.json', '/api/v2/openapi.json']) {
    router.get(p, (ctx) => {
      ctx.body = doc;
    });
  }
  router.get('/ping', (ctx) => {
    ctx.body = { status: 'ok', message: 'pong' };
  });
  return router;
}
