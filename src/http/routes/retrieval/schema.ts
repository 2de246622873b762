/** The Context7-compatible retrieval routes' contract (see http/validate.ts). */
import { z } from 'zod';
import { DEFAULT_TOKENS, MAX_TOKENS, MIN_TOKENS } from '../../../search/budget';
import { PAGE_KINDS } from '../../../search/types';
import { query, type RouteSchema } from '../../validate';
import { LIBRARY_ID_PATTERN, VERSION_PATTERN, libraryParams } from '../shared-schema';

const tokens = query.int(MIN_TOKENS, MAX_TOKENS, DEFAULT_TOKENS).openapi({ description: 'Token budget (whole snippets only)' });
const type = query.oneOf(['txt', 'json'] as const, 'txt').openapi({ description: 'Response format' });

const librarySearchResult = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    branch: z.string(),
    lastUpdateDate: z.string(),
    state: z.string(),
    totalTokens: z.number().int(),
    totalSnippets: z.number().int(),
    stars: z.number().int(),
    trustScore: z.number(),
    benchmarkScore: z.number(),
    versions: z.array(z.string()),
  })
  .partial()
  .passthrough()
  .openapi('LibrarySearchResult');

/** The JSON shape of a context answer (`type=json`). */
export const contextJson = z
  .object({
    codeSnippets: z.array(z.object({}).passthrough()),
    infoSnippets: z.array(z.object({}).passthrough()),
    snippets: z.array(
      z
        .object({
          kind: z.enum(['code', 'info']),
          title: z.string(),
          tokens: z.number().int(),
          pageKind: z.enum(PAGE_KINDS).openapi({ description: 'What the page is: guide, reference, example, changelog, migration, blog, internal or stub' }),
        })
        .passthrough(),
    ),
  })
  .partial()
  .passthrough()
  .openapi('ContextJson');

const contextErrors = ['invalid_library_id', 'library_not_found', 'tag_not_found', 'no_snippets_found', 'access_denied'] as const;

/** A blank or absent `query` is the `topic` an older client sent. */
function topicAsQuery(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object') return raw;
  const q = raw as Record<string, unknown>;
  const blank = q.query === undefined || (typeof q.query === 'string' && q.query.trim() === '');
  return blank && q.topic !== undefined ? { ...q, query: q.topic } : q;
}

export const retrievalSchemas = {
  'libraries.search': {
    summary: 'Search the library catalogue (Context7 shape)',
    tag: 'Search',
    query: z.object({
      libraryName: query.requiredText(500).openapi({ description: 'Library name to resolve', pattern: '\\S' }),
      query: query.text(2000).openapi({ description: 'What the caller wants to do (ranks by content)' }),
    }),
    response: z.object({ results: z.array(librarySearchResult), searchFilterApplied: z.boolean() }),
    errors: ['no_libraries_found'],
  },
  'context.read': {
    summary: 'Documentation context for a question within a token budget',
    tag: 'Context',
    text: true,
    // `query` is required, and an older client's `topic` stands in for it: so the document
    // says what is checked (a request without both was valid to the document, then a 400).
    query: z.preprocess(
      topicAsQuery,
      z.object({
        libraryId: query.requiredText(500).openapi({ description: '/owner/repo, optionally /version or @version', pattern: LIBRARY_ID_PATTERN }),
        query: query.requiredText(2000).openapi({ description: 'The question (older clients may send `topic` instead)', pattern: '\\S' }),
        topic: query.text(2000).openapi({ description: 'The question, for older clients that do not send `query`' }),
        tokens,
        type,
      }),
    ),
    response: contextJson,
    errors: contextErrors,
  },
  'context.read.v1': {
    summary: 'Context7 v1 context (topic, tokens, type); without a topic, an overview',
    tag: 'Context',
    text: true,
    params: libraryParams,
    query: z.object({ topic: query.text(2000), query: query.text(2000), tokens, type }),
    response: contextJson,
    errors: contextErrors,
  },
  'context.read.v1.version': {
    summary: 'Context7 v1 context of a version',
    tag: 'Context',
    text: true,
    params: libraryParams.extend({ version: z.string().min(1).max(200).openapi({ pattern: VERSION_PATTERN }) }),
    query: z.object({ topic: query.text(2000), query: query.text(2000), tokens, type }),
    response: contextJson,
    errors: contextErrors,
  },
} satisfies Record<string, RouteSchema>;
