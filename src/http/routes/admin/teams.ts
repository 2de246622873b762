/**
 * `/admin/teams`: teams and their members. Everyone sees the teams they belong to (others
 * answer 404 team_not_found); owners manage members and the name; admins also create and
 * delete teams and change plans.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Services } from '../../../services';
import type { Principal } from '../../../auth/principal';
import { isAdminLike } from '../../../auth/principal';
import { assertAdmin, canSeeTeam } from '../../../auth/authorize';
import { authorize } from '../../../auth/permissions';
import { PLAN_IDS } from '../../../auth/plans';
import { ConflictError, TeamNotFoundError, UserNotFoundError, ValidationError } from '../../../errors';
import type { TeamRecord } from '../../../store/models/team';
import { presentTeam } from './presenters';
import { clientLibraryId } from '../../../store/libraries';
import { parseInput } from './validate';

const createTeamBody = z
  .object({ name: z.string().trim().min(1).max(80), plan: z.enum(PLAN_IDS).default('free'), ownerId: z.string().min(1).max(100).optional() })
  .strict();
const updateTeamBody = z.object({ name: z.string().trim().min(1).max(80), plan: z.enum(PLAN_IDS) }).partial().strict();
const addMemberBody = z
  .object({ userId: z.string().min(1).max(100).optional(), username: z.string().min(1).max(64).optional(), role: z.enum(['owner', 'member']).default('member') })
  .strict();
const memberRoleBody = z.object({ role: z.enum(['owner', 'member']) }).strict();

export function mountTeamRoutes(router: Router, services: Services, chain: Middleware[]): void {
  /** The team, if the caller may see it; else 404 team_not_found (existence is not revealed). */
  async function visibleTeam(principal: Principal, id: string): Promise<TeamRecord> {
    const team = canSeeTeam(principal, id) ? await services.teams.get(id) : null;
    if (!team) throw new TeamNotFoundError(id);
    return team;
  }

  router.get('teams.list', '/admin/teams', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const teams = isAdminLike(principal) ? await services.teams.list() : principal.kind === 'user' ? await services.teams.list(principal.teamIds) : [];
    const roles = new Map(principal.kind === 'user' ? (await services.users.require(principal.userId)).memberships.map((m) => [m.teamId, m.role]) : []);
    ctx.body = { teams: teams.map((t) => presentTeam(t, { myRole: roles.get(t._id) ?? null })) };
  });

  router.post('teams.create', '/admin/teams', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const body = parseInput(createTeamBody, ctx.request.body);
    const ownerId = body.ownerId ?? (principal.kind === 'user' ? principal.userId : undefined);
    const team = await services.accounts.createTeam({ name: body.name, plan: body.plan, ownerId });
    ctx.status = 201;
    ctx.body = presentTeam(team, { members: await services.teams.members(team._id) });
  });

  router.get('teams.read', '/admin/teams/:id', ...chain, async (ctx) => {
    const team = await visibleTeam(ctx.state.principal as Principal, ctx.params.id);
    ctx.body = presentTeam(team, { members: await services.teams.members(team._id) });
  });

  router.patch('teams.update', '/admin/teams/:id', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const team = await visibleTeam(principal, ctx.params.id);
    const body = parseInput(updateTeamBody, ctx.request.body);
    authorize(principal, 'teams.update', { teamId: team._id });
    if (body.plan !== undefined) assertAdmin(principal); // plans decide private repositories: admins only
    const updated = await services.teams.update(team._id, body);
    ctx.body = presentTeam(updated, { members: await services.teams.members(team._id) });
  });

  router.delete('teams.delete', '/admin/teams/:id', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const team = await visibleTeam(principal, ctx.params.id);
    const owned = (await services.libraries.list()).filter((l) => l.private && l.teamId === team._id);
    if (owned.length > 0) {
      throw new ConflictError(`The team still owns ${owned.length} private librar${owned.length === 1 ? 'y' : 'ies'} (${owned.slice(0, 3).map((l) => clientLibraryId(l._id)).join(', ')}); delete them first.`);
    }
    await services.teams.delete(team._id);
    ctx.body = { id: team._id, deleted: true };
  });

  router.post('teams.members.add', '/admin/teams/:id/members', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const team = await visibleTeam(principal, ctx.params.id);
    authorize(principal, 'teams.members.add', { teamId: team._id });
    const body = parseInput(addMemberBody, ctx.request.body);
    if (!body.userId && !body.username) throw new ValidationError('userId or username is required.', 'userId');
    const user = body.userId ? await services.users.get(body.userId) : await services.users.findByUsername(body.username ?? '');
    if (!user) throw new UserNotFoundError(body.userId ?? body.username ?? '');
    ctx.status = 201;
    ctx.body = { members: await services.teams.setMember(team._id, user._id, body.role) };
  });

  router.patch('teams.members.update', '/admin/teams/:id/members/:userId', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const team = await visibleTeam(principal, ctx.params.id);
    authorize(principal, 'teams.members.update', { teamId: team._id });
    const body = parseInput(memberRoleBody, ctx.request.body);
    const members = await services.teams.members(team._id);
    if (!members.some((m) => m.userId === ctx.params.userId)) throw new UserNotFoundError(ctx.params.userId);
    ctx.body = { members: await services.teams.setMember(team._id, ctx.params.userId, body.role) };
  });

  router.delete('teams.members.remove', '/admin/teams/:id/members/:userId', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const team = await visibleTeam(principal, ctx.params.id);
    authorize(principal, 'teams.members.remove', { teamId: team._id, userId: ctx.params.userId });
    if (!(await services.users.get(ctx.params.userId)) || !(await services.teams.removeMember(team._id, ctx.params.userId))) {
      throw new UserNotFoundError(ctx.params.userId);
    }
    ctx.body = { members: await services.teams.members(team._id) };
  });
}
