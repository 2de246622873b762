/**
 * Context7-compatible retrieval: `GET /libs/search`, `GET /context` (mounted under /v2 and
 * /api/v2) and the older `GET /api/v1/<owner>/<repo>[/<version>]`. Public unless the
 * global API_KEY is set (the authenticate middleware decides).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../../../services';
import type { Principal } from '../../../auth/principal';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { parseTokens } from '../../../retrieval/context';
import { countedContext } from '../../../retrieval/counted-context';
import { searchLibraries } from '../../../retrieval/search';
import { formatContextJson } from '../../../search/format/json';
import { formatContextText } from '../../../search/format/txt';
import { presentLibrary } from '../../../search/format/libraries';
import { ValidationError } from '../../../errors';

function stringParam(ctx: Context, name: string): string | undefined {
  const v = ctx.query[name];
  if (Array.isArray(v)) throw new ValidationError(`${name} must be given once.`, name);
  return v === undefined ? undefined : v;
}

function required(ctx: Context, name: string): string {
  const v = stringParam(ctx, name);
  if (v === undefined || v.trim() === '') throw new ValidationError(`${name} is required.`, name);
  return v;
}

export function retrievalRoutes(services: Services): Router {
  const router = new Router();
  const limit = rateLimit(services, { class: 'standard' });

  router.get('libraries.search', '/libs/search', guard(services), limit, async (ctx) => {
    const libraryName = required(ctx, 'libraryName');
    const query = stringParam(ctx, 'query');
    const result = await searchLibraries(services, ctx.state.principal as Principal, { libraryName, query });
    ctx.body = { results: result.libraries.map(presentLibrary), searchFilterApplied: result.searchFilterApplied };
  });

  router.get('context.read', '/context', guard(services), limit, async (ctx) => {
    const libraryId = required(ctx, 'libraryId');
    const query = stringParam(ctx, 'query') ?? stringParam(ctx, 'topic');
    if (query === undefined || query.trim() === '') throw new ValidationError('query is required.', 'query');
    const type = stringParam(ctx, 'type') ?? 'txt';
    if (type !== 'txt' && type !== 'json') throw new ValidationError('type must be txt or json.', 'type');
    const tokens = parseTokens(stringParam(ctx, 'tokens'));
    await respondWithContext(ctx, services, { libraryId, query, tokens, type });
  });

  return router;
}

/** The Context7 v1 route: `/api/v1/<owner>/<repo>[/<version>]?topic=&tokens=&type=`. */
export function legacyRoutes(services: Services): Router {
  const router = new Router();
  const handler = async (ctx: Context & { params: Record<string, string> }) => {
    const { owner, repo, version } = ctx.params;
    const libraryId = `/${owner}/${repo}${version ? `/${version}` : ''}`;
    const type = stringParam(ctx, 'type') ?? 'txt';
    if (type !== 'txt' && type !== 'json') throw new ValidationError('type must be txt or json.', 'type');
    const topic = stringParam(ctx, 'topic') ?? stringParam(ctx, 'query');
    const tokens = parseTokens(stringParam(ctx, 'tokens'));
    await respondWithContext(ctx, services, { libraryId, query: topic?.trim() ? topic : `${repo} overview getting started usage`, tokens, type });
  };
  router.get('context.read', '/api/v1/:owner/:repo', guard(services), rateLimit(services, { class: 'standard' }), handler);
  router.get('context.read', '/api/v1/:owner/:repo/:version', guard(services), rateLimit(services, { class: 'standard' }), handler);
  return router;
}

async function respondWithContext(ctx: Context, services: Services, input: { libraryId: string; query: string; tokens: number; type: 'txt' | 'json' }): Promise<void> {
  // The stdio MCP bridge reaches us over HTTP and says so, so its calls count as MCP.
  const channel = ctx.get('x-shelfmark-channel') === 'mcp' ? 'mcp' : input.type === 'json' ? 'api' : 'txt';
  const answer = await countedContext(services, ctx.state.principal as Principal, input, channel);
  if (input.type === 'json') {
    ctx.body = formatContextJson(answer.snippets);
  } else {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = formatContextText(answer.snippets);
  }
}
