/** The contract of the library page's own operations: the snippet browser and removing a webhook (see http/validate.ts). */
import { z } from 'zod';
import { query, type RouteSchema } from '../../validate';
import { libraryParams, VERSION_PATTERN } from '../shared-schema';

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
    response: z.object({ libraryId: z.string(), version: z.string(), total: z.number(), from: z.number(), size: z.number(), snippets: z.array(browsedSnippet), facets: z.object({ kinds: facet, pages: facet, pageKinds: facet }) }),
    errors: ['library_not_found', 'access_denied', 'tag_not_found'],
  },
  'libraries.webhook.delete': {
    summary: 'Remove the push webhook of a library (admins): deliveries signed with its secret are refused from now on',
    tag: 'Libraries',
    params: libraryParams,
    query: z.object({ teamId: query.teamId() }),
    errors: ['library_not_found'],
  },
} satisfies Record<string, RouteSchema>;
