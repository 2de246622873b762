/**
 * The admin API behind the dashboard (JSON, mounted under /v2 and /api/v2): API keys,
 * users, teams and members, plans, permission settings, hosting credentials and usage.
 * Every route: authenticate (no anonymous access) → rate limit (standard) → handler with
 * its one-line authorization assert.
 */
import Router from '@koa/router';
import type { Services } from '../../../services';
import { authenticate } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { mountKeyRoutes } from './keys';
import { mountUserRoutes } from './users';
import { mountTeamRoutes } from './teams';
import { mountSettingsRoutes } from './settings';
import { mountCredentialRoutes } from './credentials';

export function adminRoutes(services: Services): Router {
  const router = new Router();
  const chain = [authenticate(services, { required: true }), rateLimit(services, { class: 'standard' })];
  mountKeyRoutes(router, services, chain);
  mountUserRoutes(router, services, chain);
  mountTeamRoutes(router, services, chain);
  mountSettingsRoutes(router, services, chain);
  mountCredentialRoutes(router, services, chain);
  return router;
}
