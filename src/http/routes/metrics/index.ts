/**
 * `GET /libs/metrics?libraryId=&days=`: a library's requests per UTC day and channel,
 * tokens served and top queries. An unknown library (or a private one the caller cannot
 * see) answers zeros, so existence is not revealed.
 */
import Router from '@koa/router';
import type { Ports } from '../../../ports';
import { parseLibraryId } from '../../../domain/library-ids';
import { usageKeyFor } from '../../../catalog/access';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { validate } from '../../validate';
import { metricsSchemas as s } from './schema';

/** What `metricsRoutes` reaches (ports.ts). */
export type MetricsRoutesPorts = Pick<Ports, 'authenticator' | 'config' | 'libraries' | 'rateLimiter' | 'settings' | 'trustedProxy' | 'usage'>;

export function metricsRoutes(services: MetricsRoutesPorts): Router {
  const router = new Router();
  router.get('metrics.read', '/libs/metrics', guard(services), rateLimit(services, { class: 'standard' }), validate(s['metrics.read']), async (ctx) => {
    const { days, bucket } = ctx.state.input.query;
    const { libraryId } = parseLibraryId(ctx.state.input.query.libraryId);
    const key = await usageKeyFor(services, ctx.state.principal, libraryId);
    ctx.body = key
      ? { ...(await services.usage.metrics(key, days, new Date(), bucket)), libraryId }
      : services.usage.empty(libraryId, days, new Date(), bucket);
  });
  return router;
}
