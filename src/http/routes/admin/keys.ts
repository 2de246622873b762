/** `/admin/keys`: the signed-in user's API keys. The value is in the POST answer only. */
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { validate } from '../../validate';
import { adminSchemas as s } from './schema';
import type { Ports } from '../../../ports';
import { assertUser } from '../../../auth/authorize';
import { NotFoundError } from '../../../errors';
import { presentKey } from './presenters';
import { projectFor } from '../../../projects/projects';

export function mountKeyRoutes(router: Router, services: Pick<Ports, 'keys' | 'projects'>, chain: Middleware[]): void {
  router.get('keys.list', '/admin/keys', ...chain, validate(s['keys.list']), async (ctx) => {
    const { principal } = ctx.state;
    assertUser(principal);
    ctx.body = { keys: (await services.keys.list(principal.userId)).map(presentKey) };
  });

  router.post('keys.create', '/admin/keys', ...chain, validate(s['keys.create']), async (ctx) => {
    const { principal } = ctx.state;
    assertUser(principal);
    const { body } = ctx.state.input;
    // A key bound to a project: the project must be one its owner may use (else 404, as any project read).
    if (body.projectId !== undefined) await projectFor(services, principal, body.projectId, { packages: false });
    const { record, value } = await services.keys.create(principal.userId, body.name, { projectId: body.projectId });
    ctx.status = 201;
    ctx.body = { ...presentKey(record), value, message: 'Copy the key now: it is shown only this once.' };
  });

  router.delete('keys.delete', '/admin/keys/:id', ...chain, validate(s['keys.delete']), async (ctx) => {
    const { principal } = ctx.state;
    assertUser(principal);
    if (!(await services.keys.delete(principal.userId, ctx.state.input.params.id))) throw new NotFoundError(`API key ${ctx.state.input.params.id} not found.`);
    ctx.body = { id: ctx.state.input.params.id, deleted: true, message: 'The key was deleted and no longer works.' };
  });
}
