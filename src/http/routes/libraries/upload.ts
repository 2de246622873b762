/**
 * `POST /add/openapi-upload` (multipart): the 10 MB limit is enforced by multer while the
 * file streams in, so a larger upload is refused without being held whole.
 */
import Router from '@koa/router';
import multer from '@koa/multer';
import type { Services } from '../../../services';
import type { Principal } from '../../../auth/principal';
import { authenticate } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { ValidationError } from '../../../errors';
import { MAX_OPENAPI_BYTES, uploadOpenApi } from '../../../libraries/upload-openapi';

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_OPENAPI_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
});

export function uploadRoutes(services: Services): Router {
  const router = new Router();
  router.post(
    '/add/openapi-upload',
    authenticate(services, { required: true, anonymousOperation: 'upload' }),
    rateLimit(services, { class: 'expensive' }),
    async function receiveMultipart(ctx, next) {
      if (!ctx.is('multipart/form-data')) throw new ValidationError('Send multipart/form-data with the file in the openapiFile field.', 'openapiFile');
      try {
        await upload.single('openapiFile')(ctx, next);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'LIMIT_FILE_SIZE') throw new ValidationError(`openapiFile is larger than ${MAX_OPENAPI_BYTES / 1024 / 1024} MB.`, 'openapiFile');
        if (code === 'LIMIT_UNEXPECTED_FILE') throw new ValidationError('Only one file, in the openapiFile field, is accepted.', 'openapiFile');
        if (code?.startsWith('LIMIT_')) throw new ValidationError(`The upload is too large or has too many parts (${code}).`);
        if ((error as Error).message?.includes('Multipart') || (error as Error).message?.includes('Unexpected end')) throw new ValidationError('The multipart body is malformed.');
        throw error;
      }
    },
    async (ctx) => {
      const file = ctx.file ?? ctx.request.file;
      if (!file) throw new ValidationError('openapiFile is required.', 'openapiFile');
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      const force = body.force;
      if (force !== undefined && force !== 'true' && force !== 'false') throw new ValidationError('force must be "true" or "false".', 'force');
      for (const f of ['libraryTitle', 'description'] as const) {
        if (body[f] !== undefined && typeof body[f] !== 'string') throw new ValidationError(`${f} must be text.`, f);
      }
      const libraryTitle = body.libraryTitle as string | undefined;
      if (libraryTitle && libraryTitle.length > 200) throw new ValidationError('libraryTitle is too long (at most 200 characters).', 'libraryTitle');
      const description = body.description as string | undefined;
      if (description && description.length > 2000) throw new ValidationError('description is too long (at most 2000 characters).', 'description');
      const result = await uploadOpenApi(services, ctx.state.principal as Principal, {
        file: file.buffer,
        fileName: (file.originalname || 'openapi').replace(/[^\w.-]+/g, '_').slice(0, 100),
        libraryTitle,
        description,
        force: force === 'true',
      });
      ctx.body = result;
    },
  );
  return router;
}
