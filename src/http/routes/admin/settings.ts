/** `/admin/plans`, `/admin/permissions` (anonymous operations) and `/admin/usage` (summary). */
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { validate } from '../../validate';
import { adminSchemas as s } from './schema';
import type { Ports } from '../../../ports';
import { PLANS } from '../../../auth/plans';
import { ANONYMOUS_OPERATIONS } from '../../../auth/settings';
import { clientLibraryId, teamOfLibraryKey } from '../../../domain/library-keys';

const DESCRIPTIONS: Record<(typeof ANONYMOUS_OPERATIONS)[number], string> = {
  add: 'Add libraries (POST /v2/add/repo/*)',
  refresh: 'Refresh libraries (POST /v2/refresh)',
  upload: 'Upload OpenAPI files (POST /v2/add/openapi-upload)',
  policies: 'Read team policies (GET /v2/policies)',
  metrics: 'Read library usage metrics (GET /v2/libs/metrics)',
  jobs: 'Read indexing jobs (GET /v2/jobs)',
};

/** What `mountSettingsRoutes` reaches (ports.ts). */
export type MountSettingsRoutesPorts = Pick<Ports, 'keys' | 'settings' | 'teams' | 'usage'>;

export function mountSettingsRoutes(router: Router, services: MountSettingsRoutesPorts, chain: Middleware[]): void {
  router.get('plans.read', '/admin/plans', ...chain, validate(s['plans.read']), (ctx) => {
    ctx.body = { plans: PLANS.map((p) => ({ id: p.id, name: p.name, privateRepositories: p.privateRepositories })) };
  });

  router.get('permissions.read', '/admin/permissions', ...chain, validate(s['permissions.read']), async (ctx) => {
    ctx.body = { anonymous: await services.settings.anonymousPermissions(), descriptions: DESCRIPTIONS };
  });

  router.put('permissions.update', '/admin/permissions', ...chain, validate(s['permissions.update']), async (ctx) => {
    const body = ctx.state.input.body;
    ctx.body = { anonymous: await services.settings.updateAnonymousPermissions(body.anonymous), descriptions: DESCRIPTIONS };
  });

  router.get('usage.read', '/admin/usage', ...chain, validate(s['usage.read']), async (ctx) => {
    const { days, bucket } = ctx.state.input.query;
    const summary = await services.usage.summary(days, new Date(), bucket);
    // Usage is counted per stored copy: show client ids, and the team of a private copy.
    const topLibraries = summary.topLibraries.map((l) => ({ ...l, libraryId: clientLibraryId(l.libraryId), teamId: teamOfLibraryKey(l.libraryId) }));
    // By API key and by the caller's team, with names (a deleted key or team keeps its id).
    const breakdown = await services.usage.breakdown(days);
    const [keys, teams] = await Promise.all([services.keys.describe(breakdown.byKey.map((k) => k.id)), services.teams.list(breakdown.byTeam.map((t) => t.id))]);
    const keyInfo = new Map(keys.map((k) => [k._id, k]));
    const teamName = new Map(teams.map((t) => [t._id, t.name]));
    ctx.body = {
      ...summary,
      topLibraries,
      byKey: breakdown.byKey.map((k) => ({
        ...k,
        keyId: k.id,
        name: keyInfo.get(k.id)?.name ?? null,
        prefix: keyInfo.get(k.id)?.prefix ?? null,
        userId: keyInfo.get(k.id)?.userId ?? null,
      })),
      byTeam: breakdown.byTeam.map((t) => ({ ...t, teamId: t.id, name: teamName.get(t.id) ?? null })),
      zeroResultQueries: breakdown.zeroResultQueries.map((q) => ({ ...q, libraryId: clientLibraryId(q.libraryId) })),
      lowScoreQueries: breakdown.lowScoreQueries.map((q) => ({ ...q, libraryId: clientLibraryId(q.libraryId) })),
    };
  });
}
