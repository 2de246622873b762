/**
 * Context7-compatible retrieval: `GET /libs/search`, `GET /context` (mounted under /v2 and
 * /api/v2) and the older `GET /api/v1/<owner>/<repo>[/<version>]`. Public unless the
 * global API_KEY is set (the authenticate middleware decides).
 */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { countedContext } from '../../../retrieval/counted-context';
import { overviewQuery, type ContextRequest } from '../../../retrieval/context';
import { withProvenanceLine } from '../../../retrieval/provenance';
import { searchLibraries } from '../../../catalog/find';
import { formatContextJson } from '../../../search/format/json';
import { formatContextText } from '../../../search/format/txt';
import { presentLibrary } from '../../../search/format/libraries';
import { validate } from '../../validate';
import { projectPins, withPin } from '../../../projects/project-version';
import { retrievalSchemas as s } from './schema';

/** What `retrievalRoutes` reaches (ports.ts). */
export type RetrievalRoutesPorts = Pick<
  Ports,
  | 'authenticator'
  | 'catalogIndex'
  | 'config'
  | 'embeddings'
  | 'libraries'
  | 'policies'
  | 'projects'
  | 'rateLimiter'
  | 'settings'
  | 'snippets'
  | 'trustedProxy'
  | 'usage'
>;

export function retrievalRoutes(services: RetrievalRoutesPorts): Router {
  const router = new Router();
  const limit = rateLimit(services, { class: 'standard' });

  router.get('libraries.search', '/libs/search', guard(services), limit, validate(s['libraries.search']), async (ctx) => {
    const { libraryName, query, projectId } = ctx.state.input.query;
    const result = await searchLibraries(services, ctx.state.principal, { libraryName, query });
    const pins = await projectPins(services, ctx.state.principal, projectId);
    ctx.body = { results: result.libraries.map((l) => withPin(presentLibrary(l), pins)), searchFilterApplied: result.searchFilterApplied };
  });

  router.get('context.read', '/context', guard(services), limit, validate(s['context.read']), async (ctx) => {
    const { libraryId, query, tokens, type, version, language, languageOnly, projectId } = ctx.state.input.query;
    await respondWithContext(ctx, services, { libraryId, query, tokens, type, version, language, languageOnly, projectId });
  });

  return router;
}

/** What `legacyRoutes` reaches (ports.ts). */
export type LegacyRoutesPorts = Pick<
  Ports,
  'authenticator' | 'config' | 'embeddings' | 'libraries' | 'policies' | 'projects' | 'rateLimiter' | 'settings' | 'snippets' | 'trustedProxy' | 'usage'
>;

/** The Context7 v1 route: `/api/v1/<owner>/<repo>[/<version>]?topic=&tokens=&type=`. */
export function legacyRoutes(services: LegacyRoutesPorts): Router {
  const router = new Router();
  const respond = async (
    ctx: Context,
    p: { owner: string; repo: string; version?: string },
    q: {
      topic?: string;
      query?: string;
      tokens: number;
      type: 'txt' | 'json';
      version?: string;
      language?: string;
      languageOnly?: boolean;
      projectId?: string;
    },
  ) => {
    const libraryId = `/${p.owner}/${p.repo}${p.version ? `/${p.version}` : ''}`;
    const question = q.topic ?? q.query;
    // Without a topic an overview is asked for: the best snippets, not an answer to a question.
    const options = { version: q.version, language: q.language, languageOnly: q.languageOnly, projectId: q.projectId };
    await respondWithContext(ctx, services, {
      libraryId,
      query: question ?? overviewQuery(libraryId),
      tokens: q.tokens,
      type: q.type,
      overview: question === undefined,
      ...options,
    });
  };
  const chain = [guard(services), rateLimit(services, { class: 'standard' })];
  router.get('context.read', '/api/v1/:owner/:repo', ...chain, validate(s['context.read.v1']), (ctx) =>
    respond(ctx, ctx.state.input.params, ctx.state.input.query),
  );
  router.get('context.read', '/api/v1/:owner/:repo/:version', ...chain, validate(s['context.read.v1.version']), (ctx) =>
    respond(ctx, ctx.state.input.params, ctx.state.input.query),
  );
  return router;
}

/** What `respondWithContext` reaches (ports.ts). */
export type RespondWithContextPorts = Pick<Ports, 'embeddings' | 'libraries' | 'policies' | 'projects' | 'snippets' | 'usage'>;

async function respondWithContext(
  ctx: Context,
  services: RespondWithContextPorts,
  input: ContextRequest & { tokens: number; type: 'txt' | 'json' },
): Promise<void> {
  // The stdio MCP bridge reaches us over HTTP and says so, so its calls count as MCP; the
  // dashboard's playground says so too, and counts apart only from a signed-in session.
  const said = ctx.get('x-shelfmark-channel');
  const principal = ctx.state.principal;
  const channel =
    said === 'mcp'
      ? 'mcp'
      : said === 'playground' && principal.kind === 'user' && principal.via === 'session'
        ? 'playground'
        : input.type === 'json'
          ? 'api'
          : 'txt';
  const answer = await countedContext(services, ctx.state.principal, input, channel);
  // The version served, also as headers: a client that reads only the body's code still can tell.
  ctx.set('X-Shelfmark-Version-Served', answer.provenance.versionServed.version);
  if (input.type === 'json') {
    ctx.body = { ...formatContextJson(answer.snippets), provenance: answer.provenance };
  } else {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = withProvenanceLine(answer.provenance, formatContextText(answer.snippets));
  }
}
