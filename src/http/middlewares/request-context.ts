import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../logger';

/** Assigns a request id (or accepts a sane incoming one), a child logger, and logs each request. */
export function requestContext(options: { log: Logger }): Middleware {
  return async function requestContextMiddleware(ctx, next) {
    const incoming = ctx.get('x-request-id');
    const id = /^[A-Za-z0-9._-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const log = options.log.child({ requestId: id });
    ctx.state.log = log;
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}
