/**
 * The one place a thrown value becomes an answer: `toAppError` maps library errors (store
 * outages, body-parser refusals) to AppErrors for every adapter (HTTP here, MCP in its
 * backends), and `errorFunnel` is the HTTP middleware that sends them. It lives beside
 * errors.ts, not in http/, so MCP does not import the HTTP layer.
 */
import type { Middleware } from 'koa';
import { AppError, InternalError, PayloadTooLargeError, StoreUnavailableError, ValidationError } from './errors';
import { isEsRefusal, isEsUnavailable } from './search/client';
import { isMongoUnavailable } from './store/mongo';
import type { Logger } from './logger';

/** Turns a thrown value into an AppError (the one mapping boundary for library errors). */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isEsUnavailable(error)) return new StoreUnavailableError('elasticsearch', error);
  if (isMongoUnavailable(error)) return new StoreUnavailableError('mongodb', error);
  // Elasticsearch refusing a query we built (a 400 for a malformed aggregation) is our defect:
  // a 500 whose cause is logged, not the client's 400 "Invalid request." with nothing logged.
  if (isEsRefusal(error)) return new InternalError('Internal server error.', error);
  const e = error as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string; limit?: unknown };
  const status = e?.status ?? e?.statusCode;
  // Errors raised by koa-bodyparser / http-errors (malformed JSON, body too large).
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) {
      const limit = typeof e.limit === 'number' ? ` (${formatBytes(e.limit)})` : '';
      return new PayloadTooLargeError(`The request body is larger than the limit${limit}; send a smaller body.`);
    }
    if (e.type === 'entity.parse.failed' || (status === 400 && /JSON|Unexpected token|position \d+/i.test(e.message ?? ''))) {
      return new ValidationError('The request body is not valid JSON.');
    }
    if (status === 415) return new ValidationError('Unsupported content type.');
    return new ValidationError(e.expose && e.message ? e.message : 'Invalid request.');
  }
  return new InternalError('Internal server error.', error);
}

/** 1048576 → "1 MB", 65536 → "64 KB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** The JSON body of an error: `{ error, message }` and, for a client's error, its details beside them. */
export function errorResponseBody(error: AppError): Record<string, unknown> {
  if (!error.expose) return { error: error.code, message: 'Internal server error.' };
  return { ...error.details, error: error.code, message: error.message };
}

/**
 * The error funnel: every failure becomes `{ error, message, ...details }` with the code's
 * status. 5xx causes are logged, never sent.
 */
export function errorFunnel(options: { log: Logger; onStoreUnavailable?: (store: StoreUnavailableError['store']) => void }): Middleware {
  return async function errorFunnelMiddleware(ctx, next) {
    try {
      await next();
    } catch (thrown) {
      const error = toAppError(thrown);
      // A request found a store unreachable: have it probed now, so the next requests fail fast.
      if (error instanceof StoreUnavailableError) options.onStoreUnavailable?.(error.store);
      const log = ctx.state.log ?? options.log;
      if (error.status >= 500) log.error({ err: thrown, code: error.code }, 'request failed');
      ctx.status = error.status;
      for (const [k, v] of Object.entries(error.headers)) ctx.set(k, v);
      ctx.body = errorResponseBody(error);
    }
  };
}
