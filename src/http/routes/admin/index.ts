/**
 * The admin API behind the dashboard (JSON, mounted under /v2 and /api/v2): API keys,
 * users, teams and members, plans, permission settings, hosting credentials and usage.
 * Every route is named after its operation in the permissions table: guard (authenticate,
 * authorize by the table) → rate limit (standard) → handler, with the one-line
 * `authorize(principal, operation, resource)` where the rule depends on a team.
 */
import Router from '@koa/router';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { mountKeyRoutes } from './keys';
import { mountUserRoutes } from './users';
import { mountTeamRoutes } from './teams';
import { mountSettingsRoutes } from './settings';
import { mountCredentialRoutes } from './credentials';

/** What `adminRoutes` reaches (ports.ts). */
export type AdminRoutesPorts = Pick<
  Ports,
  | 'accounts'
  | 'authenticator'
  | 'config'
  | 'credentials'
  | 'keys'
  | 'libraries'
  | 'projects'
  | 'rateLimiter'
  | 'sessions'
  | 'settings'
  | 'teams'
  | 'trustedProxy'
  | 'usage'
  | 'users'
>;

export function adminRoutes(services: AdminRoutesPorts): Router {
  const router = new Router();
  const chain = [guard(services), rateLimit(services, { class: 'standard' })];
  mountKeyRoutes(router, services, chain);
  mountUserRoutes(router, services, chain);
  mountTeamRoutes(router, services, chain);
  mountSettingsRoutes(router, services, chain);
  mountCredentialRoutes(router, services, chain);
  return router;
}
