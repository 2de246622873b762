/** The contracts of search across libraries and upgrade guides (see http/validate.ts). */
import { z } from 'zod';
import { DEFAULT_TOKENS, MAX_TOKENS, MIN_TOKENS } from '../../../search/budget';
import { query, type RouteSchema } from '../../validate';
import { LIBRARY_ID_PATTERN } from '../shared-schema';
import { provenanceJson } from '../retrieval/schema';
import { projectIdQuery } from '../retrieval/schema';

const tokens = query.int(MIN_TOKENS, MAX_TOKENS, DEFAULT_TOKENS).openapi({ description: 'Token budget (whole snippets or sections only)' });
const type = query.oneOf(['txt', 'json'] as const, 'txt').openapi({ description: 'Response format' });

const acrossJson = z
  .object({
    scope: z.enum(['named', 'team', 'all']),
    tokens: z.number().int(),
    snippets: z.array(z.object({ libraryId: z.string(), version: z.string(), title: z.string(), pageKind: z.string(), score: z.number() }).passthrough()),
    libraries: z.array(z.object({ libraryId: z.string(), snippets: z.number().int(), relevant: z.boolean(), provenance: provenanceJson })),
  })
  .openapi('SearchAcrossJson');

const guideVersion = z.object({ version: z.string(), commit: z.string(), indexedAt: z.string() });

const upgradeJson = z
  .object({
    libraryId: z.string(),
    from: guideVersion,
    to: guideVersion,
    page: z.number().int(),
    totalPages: z.number().int(),
    tokens: z.number().int(),
    text: z.string(),
    counts: z.record(z.number().int()),
    missing: z.array(z.string()),
  })
  .openapi('UpgradeGuideJson');

export const versionSchemas = {
  'search.across': {
    summary: "One question over several libraries (named, the team's allowed set or the catalogue), with the context answer's budget and relevance rules",
    tag: 'Context',
    text: true,
    query: z.object({
      query: query.requiredText(2000).openapi({ description: 'The question', pattern: '\\S' }),
      libraries: query.text(2000).openapi({
        description: 'Comma-separated library ids, each optionally with a version (/pydantic/pydantic/2.13.4); at most 10. Without it, scope decides',
      }),
      scope: query
        .text(10)
        .refine((v) => v === undefined || v === 'team' || v === 'all', 'must be team or all')
        .openapi({
          enum: ['team', 'all'],
          description: "Without libraries: `team` (your team's allowed libraries) or `all` (the catalogue you can see; the default). Policies apply",
        }),
      tokens,
      type,
      language: query.text(40).openapi({ description: 'A code language whose examples rank first' }),
      languageOnly: query.flag().openapi({ description: 'With language: only sections whose examples are in it' }),
      projectId: projectIdQuery,
    }),
    response: acrossJson,
    errors: ['invalid_library_id', 'library_not_found', 'tag_not_found', 'no_snippets_found', 'access_denied', 'not_found'],
  },
  'upgrade.guide': {
    summary: 'Upgrade guide between two indexed versions: page 1 the summary (breaking changes, deprecations, codemods, API diff), later pages the details',
    tag: 'Context',
    text: true,
    query: z.object({
      libraryId: query.requiredText(500).openapi({ description: '/owner/repo (no version: give them as from and to)', pattern: LIBRARY_ID_PATTERN }),
      from: query.requiredText(100).openapi({ description: 'The indexed version upgraded from (a version, or a range such as ^2)', pattern: '\\S' }),
      to: query.text(100).openapi({ description: 'The indexed version upgraded to (default: the latest indexed)' }),
      page: query.int(1, 1000, 1).openapi({ description: 'Page 1 is the summary; later pages the details' }),
      tokens,
      type,
    }),
    response: upgradeJson,
    errors: ['invalid_library_id', 'library_not_found', 'tag_not_found', 'access_denied'],
  },
} satisfies Record<string, RouteSchema>;
