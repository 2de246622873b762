/** The contract of the library page's own operations: the snippet browser and removing a webhook (see http/validate.ts). */
import { z } from 'zod';
import { query, type RouteSchema } from '../../validate';
import { LIBRARY_ID_PATTERN, libraryParams, VERSION_PATTERN } from '../shared-schema';

const browsedSnippet = z.object({
  id: z.string(),
  kind: z.enum(['code', 'info']),
  title: z.string(),
  breadcrumb: z.array(z.string()),
  pageTitle: z.string(),
  description: z.string(),
  content: z.string(),
  language: z.string(),
  code: z.string(),
  path: z.string(),
  startLine: z.number(),
  url: z.string(),
  tokens: z.number(),
  pageKind: z.string().optional(),
});
const librarySources = z
  .object({
    libraryId: z.string(),
    sources: z.array(
      z.object({
        libraryId: z.string().openapi({ description: "The source's own id (a merged source's old id, which redirects to the library)" }),
        role: z.enum(['own', 'merged']),
        source: z.string().openapi({ description: 'github, gitlab, bitbucket, git, website, llmstxt, archive or openapi' }),
        state: z.string(),
        joins: z
          .string()
          .nullable()
          .openapi({ description: "A merged source: the library's version its default version joins (its versions of the same name join theirs)" }),
        versions: z.array(z.object({ version: z.string(), totalSnippets: z.number(), lastUpdateDate: z.string().nullable() })),
      }),
    ),
  })
  .openapi('LibrarySources');
const facet = z.array(z.object({ value: z.string(), count: z.number() }));

export const manageSchemas = {
  'libraries.snippets': {
    summary: "Browse a version's snippets: words, kind, page and page kind filters, with facets (visibility and the team's policy apply, as for context)",
    tag: 'Libraries',
    params: libraryParams,
    query: z.object({
      teamId: query.teamId(),
      version: query.text(100).openapi({ description: 'A version or tag (default: latest)', pattern: VERSION_PATTERN }),
      q: query.text(500).openapi({ description: 'Words the snippets must contain (title, text, code)' }),
      kind: query.oneOf(['code', 'info', 'any'], 'any'),
      page: query.text(1000).openapi({ description: "Only this page (a snippet's path)" }),
      pageKind: query.text(50).openapi({ description: 'Only pages of this kind (guide, reference, changelog…)' }),
      from: query.int(0, 10_000, 0),
      size: query.int(1, 100, 20),
    }),
    response: z.object({
      libraryId: z.string(),
      version: z.string(),
      total: z.number(),
      from: z.number(),
      size: z.number(),
      snippets: z.array(browsedSnippet),
      facets: z.object({ kinds: facet, pages: facet, pageKinds: facet }),
    }),
    errors: ['library_not_found', 'access_denied', 'tag_not_found'],
  },
  'libraries.sources': {
    summary:
      "A library's sources: its own and the libraries merged into it, each built and refreshed on its own, served together as one version set (visibility and the team's policy apply)",
    tag: 'Libraries',
    params: libraryParams,
    query: z.object({ teamId: query.teamId() }),
    response: librarySources,
    errors: ['library_not_found', 'access_denied'],
  },
  'libraries.sources.add': {
    summary:
      "Merge another library into this one as a source (admins; a team's owners for its private copies, which must be in the same team): its snippets are served with this library's, a page both hold once (the richer copy), and its old id redirects here in context and search. Add a website or llms.txt first (POST /v2/add/website, /v2/add/llmstxt), then merge it",
    tag: 'Libraries',
    params: libraryParams,
    query: z.object({ teamId: query.teamId() }),
    body: z
      .object({
        source: z
          .string({
            required_error: 'source is required: the id of the library to merge in (e.g. /websites/koajs-com)',
            invalid_type_error: 'source must be a library id',
          })
          .trim()
          .min(1, 'source is required')
          .max(300, 'source is too long')
          .openapi({ description: 'The id of the library to merge in', pattern: LIBRARY_ID_PATTERN }),
        joins: z.string({ invalid_type_error: 'joins must be a version name' }).trim().min(1).max(100).optional().openapi({
          description: "This library's version the source's default version joins (default latest: a website or llms.txt has no tags)",
          pattern: VERSION_PATTERN,
        }),
      })
      .strict(),
    response: librarySources,
    errors: ['library_not_found', 'access_denied', 'invalid_library_id', 'forbidden'],
  },
  'libraries.webhook.delete': {
    summary: 'Remove the push webhook of a library (admins): deliveries signed with its secret are refused from now on',
    tag: 'Libraries',
    params: libraryParams,
    query: z.object({ teamId: query.teamId() }),
    errors: ['library_not_found'],
  },
} satisfies Record<string, RouteSchema>;
