/** `/admin/keys`: the signed-in user's API keys. The value is in the POST answer only. */
import type Router from '@koa/router';
import { z } from 'zod';
import type { Services } from '../../../services';
import type { Principal } from '../../../auth/principal';
import { assertUser } from '../../../auth/authorize';
import { NotFoundError } from '../../../errors';
import { presentKey } from './presenters';
import { parseInput } from './validate';
import type { Middleware } from 'koa';

const createKeyBody = z.object({ name: z.string().trim().min(1).max(100) }).strict();

export function mountKeyRoutes(router: Router, services: Services, chain: Middleware[]): void {
  router.get('keys.list', '/admin/keys', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    assertUser(principal);
    ctx.body = { keys: (await services.keys.list(principal.userId)).map(presentKey) };
  });

  router.post('keys.create', '/admin/keys', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    assertUser(principal);
    const body = parseInput(createKeyBody, ctx.request.body);
    const { record, value } = await services.keys.create(principal.userId, body.name);
    ctx.status = 201;
    ctx.body = { ...presentKey(record), value, message: 'Copy the key now: it is shown only this once.' };
  });

  router.delete('keys.delete', '/admin/keys/:id', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    assertUser(principal);
    if (!(await services.keys.delete(principal.userId, ctx.params.id))) throw new NotFoundError(`API key ${ctx.params.id} not found.`);
    ctx.body = { id: ctx.params.id, deleted: true, message: 'The key was deleted and no longer works.' };
  });
}
