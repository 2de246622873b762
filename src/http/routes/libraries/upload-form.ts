/**
 * The form of `POST /add/openapi-upload`: its limits (enforced while the body streams in, see
 * middlewares/multipart.ts) and its fields, checked into the use case's input. Every refusal
 * names the field at fault.
 */
import type { Context } from 'koa';
import { ValidationError } from '../../../errors';
import { MAX_OPENAPI_BYTES, type UploadInput } from '../../../catalog/upload-openapi';
import type { MultipartOptions } from '../../middlewares/multipart';

export const OPENAPI_UPLOAD_FORM: MultipartOptions = {
  fileField: 'openapiFile',
  maxFileBytes: MAX_OPENAPI_BYTES,
  maxFields: 10,
  maxFieldBytes: 64 * 1024,
  maxParts: 12,
};

/** A `true`/`false` text field; undefined when absent. */
function flag(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new ValidationError(`${name} must be "true" or "false".`, name);
  return value === 'true';
}

/** An optional text field of at most `max` characters. */
function text(body: Record<string, unknown>, name: string, max: number): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError(`${name} must be text, sent once.`, name);
  if (value.length > max) throw new ValidationError(`${name} is too long (at most ${max} characters).`, name);
  return value;
}

/** The upload's input from a parsed multipart form (`ctx.file`, `ctx.request.body`). */
export function readUploadForm(ctx: Context): UploadInput {
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const file = ctx.file ?? ctx.request.file;
  if (!file) {
    throw new ValidationError(
      body.openapiFile === undefined ? 'openapiFile is required.' : 'openapiFile must be sent as a file (a part with a filename), not as a text field.',
      'openapiFile',
    );
  }
  return {
    file: file.buffer,
    fileName: (file.originalname || 'openapi').replace(/[^\w.-]+/g, '_').slice(0, 100),
    libraryTitle: text(body, 'libraryTitle', 200),
    description: text(body, 'description', 2000),
    force: flag(body, 'force') === true,
    public: flag(body, 'public'),
  };
}
