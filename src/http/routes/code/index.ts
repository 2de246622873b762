/**
 * `GET /code`: the code tools over HTTP (code/code-query.ts), mounted under /v2 and /api/v2.
 * A read of a library's content like context: the same operation in the permissions table
 * (public unless the global API_KEY is set), the same visibility and policy checks inside
 * the use case.
 */
import { Router } from '@koa/router';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { validate } from '../../validate';
import { queryCode } from '../../../code/code-query';
import { formatCodeText } from '../../../code/code-format';
import { codeSchemas as s } from './schema';

/** What `codeRoutes` reaches (ports.ts). */
export type CodeRoutesPorts = Pick<Ports, 'authenticator' | 'config' | 'libraries' | 'policies' | 'rateLimiter' | 'settings' | 'trustedProxy'>;

export function codeRoutes(services: CodeRoutesPorts): Router {
  const router = new Router();
  const limit = rateLimit(services, { class: 'standard' });

  router.get('context.read', '/code', guard(services), limit, validate(s['code.query']), async (ctx) => {
    const q = ctx.state.input.query;
    const answer = await queryCode(services, ctx.state.principal, {
      libraryId: q.libraryId,
      operation: q.operation,
      query: q.query,
      regex: q.regex,
      caseSensitive: q.caseSensitive === 'smart' ? undefined : q.caseSensitive === 'true',
      path: q.path,
      startLine: q.startLine,
      endLine: q.endLine === 0 ? undefined : q.endLine,
      limit: q.limit,
      version: q.version,
    });
    ctx.set('X-Shelfmark-Version-Served', answer.provenance.versionServed.version);
    if (q.type === 'json') ctx.body = answer;
    else {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = formatCodeText(answer);
    }
  });

  return router;
}
