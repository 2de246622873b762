/**
 * Versions that tell the truth, beyond one library's context: `GET /search` (one question over
 * several libraries, a team's allowed set or the catalogue) and `GET /upgrade-guide` (between
 * two indexed versions). Mounted under /v2 and /api/v2; public unless the global API_KEY is set,
 * like context (they are reads of context: the same operation in the permissions table).
 */
import { Router } from '@koa/router';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { validate } from '../../validate';
import { searchAcrossLibraries } from '../../../retrieval/search-across';
import { formatAcrossJson, formatAcrossText } from '../../../retrieval/across-format';
import { getUpgradeGuide } from '../../../retrieval/upgrade-guide';
import { versionSchemas as s } from './schema';

/** What `versionRoutes` reaches (ports.ts). */
export type VersionRoutesPorts = Pick<
  Ports,
  'authenticator' | 'catalogIndex' | 'config' | 'embeddings' | 'libraries' | 'policies' | 'projects' | 'rateLimiter' | 'settings' | 'snippets' | 'trustedProxy'
>;

export function versionRoutes(services: VersionRoutesPorts): Router {
  const router = new Router();
  const limit = rateLimit(services, { class: 'standard' });

  router.get('context.read', '/search', guard(services), limit, validate(s['search.across']), async (ctx) => {
    const { query, libraries, scope, tokens, type, language, languageOnly, projectId } = ctx.state.input.query;
    const names = libraries
      ? libraries
          .split(',')
          .map((l) => l.trim())
          .filter(Boolean)
      : [];
    const answer = await searchAcrossLibraries(services, ctx.state.principal, {
      query,
      libraries: names,
      scope: scope as 'team' | 'all' | undefined,
      tokens,
      language,
      languageOnly,
      projectId,
    });
    if (type === 'json') ctx.body = formatAcrossJson(answer);
    else {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = formatAcrossText(answer);
    }
  });

  router.get('context.read', '/upgrade-guide', guard(services), limit, validate(s['upgrade.guide']), async (ctx) => {
    const { libraryId, from, to, page, tokens, type } = ctx.state.input.query;
    const guide = await getUpgradeGuide(services, ctx.state.principal, { libraryId, from, to, page, tokens });
    if (type === 'json') ctx.body = guide;
    else {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = guide.text;
    }
  });

  return router;
}
