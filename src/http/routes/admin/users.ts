/** `/admin/users` (admins only): list, create, read, change role/default team/password, delete. */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Services } from '../../../services';
import type { Principal } from '../../../auth/principal';
import { ConflictError, TeamNotFoundError } from '../../../errors';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../auth/passwords';
import { presentUser } from './presenters';
import { parseInput } from './validate';

const password = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(MAX_PASSWORD_LENGTH);
const createUserBody = z
  .object({
    username: z.string().trim().min(1).max(64),
    password,
    role: z.enum(['admin', 'member']).default('member'),
    teamId: z.string().min(1).max(100).optional(),
    teamRole: z.enum(['owner', 'member']).default('member'),
    mustChangePassword: z.boolean().default(false),
  })
  .strict();
const updateUserBody = z
  .object({ role: z.enum(['admin', 'member']), defaultTeamId: z.string().min(1).max(100).nullable(), password })
  .partial()
  .strict();

export function mountUserRoutes(router: Router, services: Services, chain: Middleware[]): void {
  router.get('users.list', '/admin/users', ...chain, async (ctx) => {
    ctx.body = { users: (await services.users.list()).map(presentUser) };
  });

  router.post('users.create', '/admin/users', ...chain, async (ctx) => {
    const body = parseInput(createUserBody, ctx.request.body);
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

  router.get('users.read', '/admin/users/:id', ...chain, async (ctx) => {
    ctx.body = presentUser(await services.users.require(ctx.params.id));
  });

  router.patch('users.update', '/admin/users/:id', ...chain, async (ctx) => {
    const body = parseInput(updateUserBody, ctx.request.body);
    let user = await services.users.require(ctx.params.id);
    if (body.role === 'member' && user.role === 'admin' && (await services.users.countAdmins()) <= 1) {
      throw new ConflictError('This is the last administrator; make another user admin first.');
    }
    if (body.defaultTeamId && !user.memberships.some((m) => m.teamId === body.defaultTeamId)) throw new TeamNotFoundError(body.defaultTeamId);
    if (body.role !== undefined || body.defaultTeamId !== undefined) {
      user = await services.users.update(user._id, { ...(body.role ? { role: body.role } : {}), ...(body.defaultTeamId !== undefined ? { defaultTeamId: body.defaultTeamId } : {}) });
    }
    if (body.password !== undefined) {
      user = await services.users.setCredentials(user._id, { password: body.password });
      await services.sessions.revokeAllOf(user._id);
    }
    ctx.body = presentUser(user);
  });

  router.delete('users.delete', '/admin/users/:id', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    if (principal.kind === 'user' && principal.userId === ctx.params.id) throw new ConflictError('You cannot delete your own account.');
    const user = await services.users.require(ctx.params.id);
    await services.accounts.deleteUser(user._id);
    ctx.body = { id: user._id, deleted: true };
  });
}
