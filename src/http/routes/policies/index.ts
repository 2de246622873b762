/**
 * `GET /policies` and `PATCH /policies`: the library policy of the caller's team (its
 * default team; admins, and members for their own teams, may name one with `?teamId=`).
 * Members read; team owners and admins change it.
 */
import Router from '@koa/router';
import type { Ports } from '../../../ports';
import type { Principal } from '../../../auth/principal';
import { validate } from '../../validate';
import { policySchemas as s } from './schema';
import { canSeeTeam } from '../../../auth/authorize';
import { authorize } from '../../../auth/permissions';
import { applyPolicyPatch, isDefaultPolicy, libraryAllowedByPolicy, type LibraryPolicy } from '../../../auth/policy';
import { clientLibraryId } from '../../../domain/library-keys';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { TeamNotFoundError, ValidationError } from '../../../errors';

/** What `policyRoutes` reaches (ports.ts). */
export type PolicyRoutesPorts = Pick<Ports, 'authenticator' | 'config' | 'libraries' | 'policies' | 'rateLimiter' | 'settings' | 'teams' | 'trustedProxy'>;

export function policyRoutes(services: PolicyRoutesPorts): Router {
  const router = new Router();
  const standard = rateLimit(services, { class: 'standard' });

  /** The team whose policy is meant, checked to exist and be visible to the caller. */
  async function targetTeam(principal: Principal, requested: string | undefined): Promise<string> {
    // Anonymous callers (when the permission settings allow it) may read a named team's policy.
    const teamId = requested ?? (principal.kind === 'user' ? principal.defaultTeamId : null);
    if (!teamId) {
      if (principal.kind === 'user') throw new TeamNotFoundError('(none: you are not a member of any team)');
      throw new ValidationError('teamId is required: this caller has no team of its own.', 'teamId');
    }
    const visible = principal.kind === 'anonymous' || canSeeTeam(principal, teamId);
    if (!visible || !(await services.teams.get(teamId))) throw new TeamNotFoundError(teamId);
    return teamId;
  }

  router.get('policies.read', '/policies', guard(services), standard, validate(s['policies.read']), async (ctx) => {
    const teamId = await targetTeam(ctx.state.principal, ctx.state.input.query.teamId);
    ctx.body = presentPolicy(teamId, await services.policies.get(teamId, { fresh: true }));
  });

  router.patch('policies.update', '/policies', guard(services), standard, validate(s['policies.update']), async (ctx) => {
    const { principal } = ctx.state;
    const teamId = await targetTeam(principal, ctx.state.input.query.teamId);
    authorize(principal, 'policies.update', { teamId });
    const patch = ctx.state.input.body;
    const policy = await services.policies.patch(teamId, patch, principal.kind === 'user' ? principal.userId : null);
    ctx.body = presentPolicy(teamId, policy);
  });

  // What the team would see under a policy not saved yet: the body of a PATCH, applied to
  // the current policy, against the libraries the team can reach (public ones and its own
  // private ones). Nothing is written; reading the policy is enough to ask.
  router.post('policies.read', '/policies/preview', guard(services), standard, validate(s['policies.preview']), async (ctx) => {
    const teamId = await targetTeam(ctx.state.principal, ctx.state.input.query.teamId);
    const patch = ctx.state.input.body;
    const draft = applyPolicyPatch(await services.policies.get(teamId, { fresh: true }), patch);
    const libraries = (await services.libraries.list()).filter((l) => !l.private || l.teamId === teamId);
    const verdicts = libraries.map((l) => ({
      id: clientLibraryId(l._id),
      title: l.title,
      source: l.source,
      trustScore: l.trustScore,
      allowed: libraryAllowedByPolicy(draft, { id: clientLibraryId(l._id), source: l.source, trustScore: l.trustScore }),
    }));
    ctx.body = {
      teamId,
      visible: verdicts.filter((v) => v.allowed).map(({ allowed: _, ...v }) => v),
      hidden: verdicts.filter((v) => !v.allowed).map(({ allowed: _, ...v }) => v),
    };
  });

  return router;
}

function presentPolicy(teamId: string, policy: LibraryPolicy) {
  const f = policy.libraryFilters;
  return {
    teamId,
    libraryFilters: {
      mode: f.mode,
      blockedLibraries: [...f.blockedLibraries],
      exceptedLibraries: [...f.exceptedLibraries],
      minTrustScore: f.minTrustScore,
      allowedLibraries: [...f.allowedLibraries],
      sourceTypes: [...f.sourceTypes],
    },
    searchFilterApplied: !isDefaultPolicy(policy),
  };
}
