/**
 * `/admin/credentials`: the signed-in user's hosting-account tokens. Tokens go in, never
 * come out: the list shows the host, `connected: true` and at most the last 4 characters.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Services } from '../../../services';
import type { Principal } from '../../../auth/principal';
import { assertUser } from '../../../auth/authorize';
import { CREDENTIAL_HOSTS, type CredentialHost, type CredentialSummary } from '../../../auth/credentials';
import { NotFoundError, ValidationError } from '../../../errors';
import { parseInput } from './validate';

const tokenBody = z
  .object({ token: z.string().trim().min(1).max(4096).regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces') })
  .strict();

function hostParam(raw: string): CredentialHost {
  if (!(CREDENTIAL_HOSTS as readonly string[]).includes(raw)) throw new ValidationError(`Unknown host "${raw}". Use one of: ${CREDENTIAL_HOSTS.join(', ')}.`, 'host');
  return raw as CredentialHost;
}

const present = (c: CredentialSummary) => ({ host: c.host, connected: true, last4: c.last4, createdAt: c.createdAt, updatedAt: c.updatedAt });

export function mountCredentialRoutes(router: Router, services: Services, chain: Middleware[]): void {
  router.get('credentials.list', '/admin/credentials', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    assertUser(principal);
    ctx.body = { credentials: (await services.credentials.list(principal.userId)).map(present), hosts: CREDENTIAL_HOSTS };
  });

  router.put('credentials.put', '/admin/credentials/:host', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    assertUser(principal);
    const host = hostParam(ctx.params.host);
    const body = parseInput(tokenBody, ctx.request.body);
    ctx.body = present(await services.credentials.set(principal.userId, host, body.token));
  });

  router.delete('credentials.delete', '/admin/credentials/:host', ...chain, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    assertUser(principal);
    const host = hostParam(ctx.params.host);
    if (!(await services.credentials.delete(principal.userId, host))) throw new NotFoundError(`No ${host} token is connected.`);
    ctx.body = { host, connected: false };
  });
}
