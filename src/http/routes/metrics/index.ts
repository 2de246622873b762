/**
 * `GET /libs/metrics?libraryId=&days=`: a library's requests per UTC day and channel,
 * tokens served and top queries. An unknown library (or a private one the caller cannot
 * see) answers zeros, so existence is not revealed.
 */
import Router from '@koa/router';
import type { Services } from '../../../services';
import type { Principal } from '../../../auth/principal';
import { parseLibraryId } from '../../../libraries/ids';
import { usageKeyFor } from '../../../libraries/access';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { ValidationError } from '../../../errors';
import { intParam, stringParam } from '../admin/validate';

export function metricsRoutes(services: Services): Router {
  const router = new Router();
  router.get('metrics.read', '/libs/metrics', guard(services), rateLimit(services, { class: 'standard' }), async (ctx) => {
    const raw = stringParam(ctx.query.libraryId, 'libraryId');
    if (!raw) throw new ValidationError('libraryId is required (e.g. /owner/repo).', 'libraryId');
    const { libraryId } = parseLibraryId(raw);
    const days = intParam(ctx.query.days, 'days', 1, 90, 30);
    const key = await usageKeyFor(services, ctx.state.principal as Principal, libraryId);
    ctx.body = key ? { ...(await services.usage.metrics(key, days)), libraryId } : services.usage.empty(libraryId, days);
  });
  return router;
}
