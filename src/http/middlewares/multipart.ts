/**
 * Multipart bodies: `@koa/multer` (multer over busboy) reads the form into memory with its
 * limits enforced while streaming, and every way a body can be malformed or too large becomes
 * the API's error here, at one boundary: 413 `payload_too_large` for a file or field over its
 * size limit, 400 `validation_error` for everything else (a missing boundary, a malformed part
 * header, a part without a field name, a body cut short, too many parts or files, ...).
 * Only what multer and busboy read runs inside the mapping: the route's handler runs after it,
 * so its own errors are never mistaken for a parser's.
 */
import multer from '@koa/multer';
import type { Middleware } from 'koa';
import { AppError, PayloadTooLargeError, ValidationError } from '../../errors';
import { formatBytes } from '../../error-funnel';

export interface MultipartOptions {
  /** The one file field accepted. */
  fileField: string;
  maxFileBytes: number;
  /** Text fields: how many and how large each. */
  maxFields: number;
  maxFieldBytes: number;
  /** Parts in all (files and fields). */
  maxParts: number;
}

/** Reads a multipart/form-data body into `ctx.file` and `ctx.request.body`, or answers 400/413. */
export function receiveMultipart(options: MultipartOptions): Middleware {
  const single = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: options.maxFileBytes, files: 1, fields: options.maxFields, fieldSize: options.maxFieldBytes, parts: options.maxParts },
  }).single(options.fileField);
  return async function receiveMultipartBody(ctx, next) {
    if (!ctx.is('multipart/form-data')) {
      throw new ValidationError(`Send multipart/form-data with the file in the ${options.fileField} field.`, options.fileField);
    }
    // busboy reads a body with an empty boundary as an empty form; say what is wrong instead.
    const boundary = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(ctx.get('content-type'));
    if (!boundary || !(boundary[1] ?? boundary[2])) throw multipartError(new Error('Multipart: Boundary not found'), options);
    try {
      await single(ctx, async () => undefined);
    } catch (error) {
      throw multipartError(error, options);
    }
    await next();
  };
}

/**
 * The API error for a failure of multer or busboy. Multer's errors carry a `code` (see
 * multer/lib/multer-error.js); busboy's are plain errors told apart by their fixed messages
 * (busboy/lib/index.js, lib/types/multipart.js); a request that ends early surfaces as
 * "Request aborted"/"Request closed" or a socket error. Anything else is not about the body
 * and stays what it is (a 500, logged).
 */
export function multipartError(error: unknown, options: MultipartOptions): unknown {
  if (error instanceof AppError) return error;
  const e = error as { name?: string; code?: string; field?: string; message?: string };
  const field = typeof e?.field === 'string' ? e.field : undefined;
  if (e?.name === 'MulterError') {
    switch (e.code) {
      case 'LIMIT_FILE_SIZE':
        return new PayloadTooLargeError(`${field ?? options.fileField} is larger than ${formatBytes(options.maxFileBytes)}.`, field ?? options.fileField);
      case 'LIMIT_FIELD_VALUE':
        return new PayloadTooLargeError(`${field ? `The form field ${field}` : 'A form field'} is larger than ${formatBytes(options.maxFieldBytes)}.`, field);
      case 'LIMIT_FILE_COUNT':
        return new ValidationError(`Only one file, in the ${options.fileField} field, is accepted.`, options.fileField);
      case 'LIMIT_UNEXPECTED_FILE':
        return field === options.fileField
          ? new ValidationError(`Only one file, in the ${options.fileField} field, is accepted (it was sent twice).`, options.fileField)
          : new ValidationError(`Unexpected file in the field "${field ?? ''}": only one file, in the ${options.fileField} field, is accepted.`, field);
      case 'LIMIT_PART_COUNT':
        return new ValidationError(`The form has too many parts (at most ${options.maxParts}).`);
      case 'LIMIT_FIELD_COUNT':
        return new ValidationError(`The form has too many text fields (at most ${options.maxFields}).`);
      case 'LIMIT_FIELD_KEY':
        return new ValidationError('A form field name is too long.');
      case 'MISSING_FIELD_NAME':
        return new ValidationError('A part of the form has no field name: each part needs Content-Disposition: form-data; name="<field>".');
      case 'LIMIT_FIELD_NESTING':
      case 'LIMIT_FIELD_ARRAY_INDEX':
      case 'INVALID_FIELD_NAME':
        return new ValidationError(`The form field name "${field ?? ''}" is not valid.`, field);
      case 'STREAM_DESTROYED':
        return new ValidationError('The upload was interrupted before the file was received completely.', options.fileField);
      default:
        return new ValidationError(`The multipart body was refused (${e.code ?? 'unknown reason'}).`);
    }
  }
  const message = typeof e?.message === 'string' ? e.message : '';
  if (message === 'Multipart: Boundary not found') {
    return new ValidationError('The multipart body has no boundary: send Content-Type: multipart/form-data; boundary=<boundary>.');
  }
  if (message === 'Malformed content type' || message === 'Missing Content-Type' || message.startsWith('Unsupported content type')) {
    return new ValidationError('Content-Type must be multipart/form-data with a boundary parameter.');
  }
  if (message === 'Malformed part header')
    return new ValidationError('A part header of the multipart body is malformed (each header line is "Name: value", and the headers end with an empty line).');
  if (message === 'Unexpected end of form' || message === 'Unexpected end of file') {
    return new ValidationError('The multipart body ended before its closing boundary: it was cut short or is malformed.');
  }
  if (
    message === 'Request aborted' ||
    message === 'Request closed' ||
    message === 'Request error' ||
    e?.code === 'ECONNRESET' ||
    e?.code === 'ERR_STREAM_PREMATURE_CLOSE'
  ) {
    return new ValidationError('The request body was not received completely.');
  }
  return error;
}
