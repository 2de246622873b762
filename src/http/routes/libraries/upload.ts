/**
 * `POST /add/openapi-upload` (multipart): the 10 MB limit is enforced by multer while the
 * file streams in, so a larger upload is refused (413) without being held whole; the form's
 * limits and fields are in upload-form.ts.
 */
import { Router } from '@koa/router';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { receiveMultipart } from '../../middlewares/multipart';
import { uploadOpenApi } from '../../../catalog/upload-openapi';
import { OPENAPI_UPLOAD_FORM, readUploadForm } from './upload-form';
import { validate } from '../../validate';
import { librarySchemas as s } from './schema';

/** What `uploadRoutes` reaches (ports.ts). */
export type UploadRoutesPorts = Pick<
  Ports,
  | 'authenticator'
  | 'buildDeps'
  | 'config'
  | 'embeddings'
  | 'jobs'
  | 'libraries'
  | 'log'
  | 'manifests'
  | 'policies'
  | 'rateLimiter'
  | 'settings'
  | 'snippets'
  | 'trustedProxy'
>;

export function uploadRoutes(services: UploadRoutesPorts): Router {
  const router = new Router();
  router.post(
    'libraries.upload',
    '/add/openapi-upload',
    guard(services),
    rateLimit(services, { class: 'expensive' }),
    receiveMultipart(OPENAPI_UPLOAD_FORM),
    validate(s['libraries.upload']), // documents the form; readUploadForm checks its fields
    async (ctx) => {
      ctx.body = await uploadOpenApi(services, ctx.state.principal, readUploadForm(ctx));
    },
  );
  return router;
}
