/** `/admin/users` (admins only): list, create, read, change role/default team/password, delete. */
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { validate } from '../../validate';
import { adminSchemas as s } from './schema';
import type { Ports } from '../../../ports';
import { ConflictError, TeamNotFoundError } from '../../../errors';
import { presentUser } from './presenters';

/** What `mountUserRoutes` reaches (ports.ts). */
export type MountUserRoutesPorts = Pick<Ports, 'accounts' | 'sessions' | 'teams' | 'users'>;

export function mountUserRoutes(router: Router, services: MountUserRoutesPorts, chain: Middleware[]): void {
  router.get('users.list', '/admin/users', ...chain, validate(s['users.list']), async (ctx) => {
    ctx.body = { users: (await services.users.list()).map(presentUser) };
  });

  router.post('users.create', '/admin/users', ...chain, validate(s['users.create']), async (ctx) => {
    const body = ctx.state.input.body;
    if (body.teamId && !(await services.teams.get(body.teamId))) throw new TeamNotFoundError(body.teamId);
    const user = await services.users.create({
      username: body.username,
      password: body.password,
      role: body.role,
      mustChangePassword: body.mustChangePassword,
      memberships: body.teamId ? [{ teamId: body.teamId, role: body.teamRole }] : [],
    });
    ctx.status = 201;
    ctx.body = presentUser(user);
  });

  router.get('users.read', '/admin/users/:id', ...chain, validate(s['users.read']), async (ctx) => {
    ctx.body = presentUser(await services.users.require(ctx.state.input.params.id));
  });

  router.patch('users.update', '/admin/users/:id', ...chain, validate(s['users.update']), async (ctx) => {
    const body = ctx.state.input.body;
    let user = await services.users.require(ctx.state.input.params.id);
    if (body.role === 'member' && user.role === 'admin' && (await services.users.countAdmins()) <= 1) {
      throw new ConflictError('This is the last administrator; make another user admin first.');
    }
    if (body.defaultTeamId && !user.memberships.some((m) => m.teamId === body.defaultTeamId)) throw new TeamNotFoundError(body.defaultTeamId);
    if (body.role !== undefined || body.defaultTeamId !== undefined) {
      user = await services.users.update(user._id, {
        ...(body.role ? { role: body.role } : {}),
        ...(body.defaultTeamId !== undefined ? { defaultTeamId: body.defaultTeamId } : {}),
      });
    }
    if (body.password !== undefined) {
      user = await services.users.setCredentials(user._id, { password: body.password });
      await services.sessions.revokeAllOf(user._id);
    }
    ctx.body = presentUser(user);
  });

  router.delete('users.delete', '/admin/users/:id', ...chain, validate(s['users.delete']), async (ctx) => {
    const { principal } = ctx.state;
    if (principal.kind === 'user' && principal.userId === ctx.state.input.params.id) throw new ConflictError('You cannot delete your own account.');
    const user = await services.users.require(ctx.state.input.params.id);
    await services.accounts.deleteUser(user._id);
    ctx.body = { id: user._id, deleted: true };
  });
}
