/**
 * What a library's page does besides reading and editing its record (index.ts): browsing its
 * snippets, its sources (merged libraries), and removing its push webhook. Chains as everywhere: guard → rate limit →
 * validate → handler.
 */
import { Router } from '@koa/router';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { validate } from '../../validate';
import { manageSchemas as s } from './manage-schema';
import { libraryIdOf } from '../shared-schema';
import { browseSnippets } from '../../../catalog/browse';
import { findLibraryFor } from '../../../catalog/access';
import { LibraryNotFoundError } from '../../../errors';
import { authorize } from '../../../auth/permissions';
import { addLibrarySource, listLibrarySources } from '../../../catalog/merged-sources';

/** What `libraryPageRoutes` reaches (ports.ts). */
export type LibraryPageRoutesPorts = Pick<
  Ports,
  'authenticator' | 'config' | 'libraries' | 'policies' | 'rateLimiter' | 'settings' | 'snippets' | 'trustedProxy'
>;

export function libraryPageRoutes(services: LibraryPageRoutesPorts): Router {
  const router = new Router();
  const standard = rateLimit(services, { class: 'standard' });

  router.get('libraries.read', '/libraries/:owner/:repo/snippets', guard(services), standard, validate(s['libraries.snippets']), async (ctx) => {
    const { params, query } = ctx.state.input;
    ctx.body = await browseSnippets(services, ctx.state.principal, {
      libraryId: libraryIdOf(params),
      teamId: query.teamId,
      version: query.version,
      q: query.q,
      kind: query.kind === 'any' ? undefined : query.kind,
      page: query.page,
      pageKind: query.pageKind,
      from: query.from,
      size: query.size,
    });
  });

  router.get('libraries.read', '/libraries/:owner/:repo/sources', guard(services), standard, validate(s['libraries.sources']), async (ctx) => {
    const { params, query } = ctx.state.input;
    ctx.body = await listLibrarySources(services, ctx.state.principal, libraryIdOf(params), query.teamId !== undefined ? { teamId: query.teamId } : {});
  });

  // The library and the source decide who may merge (admins, or the team's owners): catalog/merged-sources.ts.
  router.post('libraries.update', '/libraries/:owner/:repo/sources', guard(services), standard, validate(s['libraries.sources.add']), async (ctx) => {
    const { params, query, body } = ctx.state.input;
    ctx.body = await addLibrarySource(services, ctx.state.principal, libraryIdOf(params), {
      source: body.source,
      ...(body.joins !== undefined ? { joins: body.joins } : {}),
      ...(query.teamId !== undefined ? { teamId: query.teamId } : {}),
    });
  });

  router.delete('libraries.update', '/libraries/:owner/:repo/webhook', guard(services), standard, validate(s['libraries.webhook.delete']), async (ctx) => {
    const { params, query } = ctx.state.input;
    const id = libraryIdOf(params);
    const lib = await findLibraryFor(services, ctx.state.principal, id, { fresh: true, teamId: query.teamId });
    if (!lib) throw new LibraryNotFoundError(id);
    // The route's guard lets any signed-in user through; the library decides (admins, or its team's owners).
    authorize(ctx.state.principal, 'libraries.update', lib);
    const updated = await services.libraries.modify(lib._id, (current) =>
      current.webhook?.encryptedSecret ? { webhook: { encryptedSecret: null, createdAt: null } } : null,
    );
    if (!updated) throw new LibraryNotFoundError(id);
    ctx.body = {
      libraryName: id,
      message: lib.webhook?.encryptedSecret ? `The push webhook of ${id} was removed; deliveries are refused from now on.` : `${id} had no push webhook.`,
    };
  });

  return router;
}
