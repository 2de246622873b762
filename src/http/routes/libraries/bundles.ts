/**
 * Library bundles (docs/BUNDLES.md): `GET /libraries/:owner/:repo/export[?version=]` streams
 * a library's builds as one gzip file; `POST /libraries/import[?force=true]` (admins) reads
 * one from the request body as it arrives (any content type but JSON; at most
 * BUNDLE_MAX_BYTES) and publishes it in one step.
 */
import { Router } from '@koa/router';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { LibraryNotFoundError, PayloadTooLargeError, ValidationError } from '../../../errors';
import { findLibraryFor } from '../../../catalog/access';
import { validate } from '../../validate';
import { librarySchemas as s } from './schema';
import { libraryIdOf } from '../shared-schema';
import { resolveVersion } from '../../../domain/library-keys';
import { exportBundleStream } from '../../../catalog/bundles/export';
import { importBundle } from '../../../catalog/bundles/import';

/** What `bundleRoutes` reaches (ports.ts). */
export type BundleRoutesPorts = Pick<
  Ports,
  | 'authenticator'
  | 'config'
  | 'embeddings'
  | 'jobs'
  | 'libraries'
  | 'log'
  | 'manifests'
  | 'publishDeps'
  | 'rateLimiter'
  | 'settings'
  | 'snippets'
  | 'trustedProxy'
>;

export function bundleRoutes(services: BundleRoutesPorts): Router {
  const router = new Router();
  // An export is a streamed read (the standard limit, so a script can export a catalogue);
  // an import writes a library (the expensive one, like add and upload).
  const standard = rateLimit(services, { class: 'standard' });
  const expensive = rateLimit(services, { class: 'expensive' });

  router.get('libraries.export', '/libraries/:owner/:repo/export', guard(services), standard, validate(s['libraries.export']), async (ctx) => {
    const { params, query } = ctx.state.input;
    const id = libraryIdOf(params);
    const lib = await findLibraryFor(services, ctx.state.principal, id, { fresh: true, teamId: query.teamId });
    if (!lib) throw new LibraryNotFoundError(id);
    const requested = query.version;
    const versions = requested === undefined ? lib.versions.filter((v) => v.generation > 0) : [resolveVersion(lib, requested)].flatMap((v) => (v ? [v] : []));
    if (versions.length === 0) throw new LibraryNotFoundError(`${id} has no finished build to export`);
    const name = `${id.slice(1).replace('/', '__')}${requested ? `@${versions[0].version}` : ''}.shelfmark.gz`;
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.type = 'application/gzip';
    ctx.body = exportBundleStream({ snippets: services.snippets, manifests: services.manifests, embeddings: services.embeddings }, lib, versions, (error) =>
      services.log.error({ err: error, libraryId: lib._id }, 'export ended early; the receiver gets a bundle without its trailer'),
    );
  });

  router.post('libraries.import', '/libraries/import', guard(services), expensive, validate(s['libraries.import']), async (ctx) => {
    if (ctx.is('application/json')) throw new ValidationError('Send the bundle file itself as the body (Content-Type: application/gzip), not JSON.');
    const declared = Number(ctx.get('content-length') || 0);
    const maxBytes = services.config.bundleMaxBytes;
    if (declared > maxBytes) throw new PayloadTooLargeError(`The bundle is larger than ${maxBytes} bytes (BUNDLE_MAX_BYTES).`);
    const { force } = ctx.state.input.query;
    const result = await importBundle(services, ctx.req, { force, maxBytes });
    ctx.body = result;
  });

  return router;
}
