/**
 * `/admin/credentials`: the signed-in user's hosting-account tokens. Tokens go in, never
 * come out: the list shows the host, `connected: true` and at most the last 4 characters.
 */
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { validate } from '../../validate';
import { adminSchemas as s } from './schema';
import type { Ports } from '../../../ports';
import { assertUser } from '../../../auth/authorize';
import { CREDENTIAL_HOSTS, type CredentialSummary } from '../../../auth/credentials';
import { NotFoundError } from '../../../errors';

const present = (c: CredentialSummary) => ({ host: c.host, connected: true, last4: c.last4, createdAt: c.createdAt, updatedAt: c.updatedAt });

export function mountCredentialRoutes(router: Router, services: Pick<Ports, 'credentials'>, chain: Middleware[]): void {
  router.get('credentials.list', '/admin/credentials', ...chain, validate(s['credentials.list']), async (ctx) => {
    const { principal } = ctx.state;
    assertUser(principal);
    ctx.body = { credentials: (await services.credentials.list(principal.userId)).map(present), hosts: CREDENTIAL_HOSTS };
  });

  router.put('credentials.put', '/admin/credentials/:host', ...chain, validate(s['credentials.put']), async (ctx) => {
    const { principal } = ctx.state;
    assertUser(principal);
    const { host } = ctx.state.input.params;
    const body = ctx.state.input.body;
    ctx.body = present(await services.credentials.set(principal.userId, host, body.token));
  });

  router.delete('credentials.delete', '/admin/credentials/:host', ...chain, validate(s['credentials.delete']), async (ctx) => {
    const { principal } = ctx.state;
    assertUser(principal);
    const { host } = ctx.state.input.params;
    if (!(await services.credentials.delete(principal.userId, host))) throw new NotFoundError(`No ${host} token is connected.`);
    ctx.body = { host, connected: false };
  });
}
