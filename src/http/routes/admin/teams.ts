/**
 * `/admin/teams`: teams and their members. Everyone sees the teams they belong to (others
 * answer 404 team_not_found); owners manage members and the name; admins also create and
 * delete teams and change plans.
 */
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { validate } from '../../validate';
import { adminSchemas as s } from './schema';
import type { Ports } from '../../../ports';
import { isAdminLike, type Principal } from '../../../auth/principal';
import { assertAdmin, canSeeTeam } from '../../../auth/authorize';
import { authorize } from '../../../auth/permissions';
import { ConflictError, TeamNotFoundError, UserNotFoundError } from '../../../errors';
import type { TeamRecord } from '../../../store/models/team';
import { presentTeam } from './presenters';
import { clientLibraryId } from '../../../domain/library-keys';

/** What `mountTeamRoutes` reaches (ports.ts). */
export type MountTeamRoutesPorts = Pick<Ports, 'accounts' | 'libraries' | 'teams' | 'users'>;

export function mountTeamRoutes(router: Router, services: MountTeamRoutesPorts, chain: Middleware[]): void {
  /** The team, if the caller may see it; else 404 team_not_found (existence is not revealed). */
  async function visibleTeam(principal: Principal, id: string): Promise<TeamRecord> {
    const team = canSeeTeam(principal, id) ? await services.teams.get(id) : null;
    if (!team) throw new TeamNotFoundError(id);
    return team;
  }

  router.get('teams.list', '/admin/teams', ...chain, validate(s['teams.list']), async (ctx) => {
    const { principal } = ctx.state;
    const teams = isAdminLike(principal) ? await services.teams.list() : principal.kind === 'user' ? await services.teams.list(principal.teamIds) : [];
    const roles = new Map(principal.kind === 'user' ? (await services.users.require(principal.userId)).memberships.map((m) => [m.teamId, m.role]) : []);
    ctx.body = { teams: teams.map((t) => presentTeam(t, { myRole: roles.get(t._id) ?? null })) };
  });

  router.post('teams.create', '/admin/teams', ...chain, validate(s['teams.create']), async (ctx) => {
    const { principal } = ctx.state;
    const body = ctx.state.input.body;
    const ownerId = body.ownerId ?? (principal.kind === 'user' ? principal.userId : undefined);
    const team = await services.accounts.createTeam({ name: body.name, plan: body.plan, ownerId });
    ctx.status = 201;
    ctx.body = presentTeam(team, { members: await services.teams.members(team._id) });
  });

  router.get('teams.read', '/admin/teams/:id', ...chain, validate(s['teams.read']), async (ctx) => {
    const team = await visibleTeam(ctx.state.principal, ctx.state.input.params.id);
    ctx.body = presentTeam(team, { members: await services.teams.members(team._id) });
  });

  router.patch('teams.update', '/admin/teams/:id', ...chain, validate(s['teams.update']), async (ctx) => {
    const { principal } = ctx.state;
    const team = await visibleTeam(principal, ctx.state.input.params.id);
    const body = ctx.state.input.body;
    authorize(principal, 'teams.update', { teamId: team._id });
    if (body.plan !== undefined) assertAdmin(principal); // plans decide private repositories: admins only
    const updated = await services.teams.update(team._id, body);
    ctx.body = presentTeam(updated, { members: await services.teams.members(team._id) });
  });

  router.delete('teams.delete', '/admin/teams/:id', ...chain, validate(s['teams.delete']), async (ctx) => {
    const { principal } = ctx.state;
    const team = await visibleTeam(principal, ctx.state.input.params.id);
    const owned = (await services.libraries.list()).filter((l) => l.private && l.teamId === team._id);
    if (owned.length > 0) {
      throw new ConflictError(
        `The team still owns ${owned.length} private librar${owned.length === 1 ? 'y' : 'ies'} (${owned
          .slice(0, 3)
          .map((l) => clientLibraryId(l._id))
          .join(', ')}); delete them first.`,
      );
    }
    await services.teams.delete(team._id);
    ctx.body = { id: team._id, deleted: true };
  });

  router.post('teams.members.add', '/admin/teams/:id/members', ...chain, validate(s['teams.members.add']), async (ctx) => {
    const { principal } = ctx.state;
    const team = await visibleTeam(principal, ctx.state.input.params.id);
    authorize(principal, 'teams.members.add', { teamId: team._id });
    const body = ctx.state.input.body;
    const user = body.userId ? await services.users.get(body.userId) : await services.users.findByUsername(body.username ?? '');
    if (!user) throw new UserNotFoundError(body.userId ?? body.username ?? '');
    ctx.status = 201;
    ctx.body = { members: await services.teams.setMember(team._id, user._id, body.role) };
  });

  router.patch('teams.members.update', '/admin/teams/:id/members/:userId', ...chain, validate(s['teams.members.update']), async (ctx) => {
    const { principal } = ctx.state;
    const team = await visibleTeam(principal, ctx.state.input.params.id);
    authorize(principal, 'teams.members.update', { teamId: team._id });
    const body = ctx.state.input.body;
    const members = await services.teams.members(team._id);
    if (!members.some((m) => m.userId === ctx.state.input.params.userId)) throw new UserNotFoundError(ctx.state.input.params.userId);
    ctx.body = { members: await services.teams.setMember(team._id, ctx.state.input.params.userId, body.role) };
  });

  router.delete('teams.members.remove', '/admin/teams/:id/members/:userId', ...chain, validate(s['teams.members.remove']), async (ctx) => {
    const { principal } = ctx.state;
    const team = await visibleTeam(principal, ctx.state.input.params.id);
    authorize(principal, 'teams.members.remove', { teamId: team._id, userId: ctx.state.input.params.userId });
    if (!(await services.users.get(ctx.state.input.params.userId)) || !(await services.teams.removeMember(team._id, ctx.state.input.params.userId))) {
      throw new UserNotFoundError(ctx.state.input.params.userId);
    }
    ctx.body = { members: await services.teams.members(team._id) };
  });
}
