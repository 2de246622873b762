/** The Context7-compatible retrieval routes' contract (see http/validate.ts). */
import { z } from 'zod';
import { DEFAULT_TOKENS, MAX_TOKENS, MIN_TOKENS } from '../../../search/budget';
import { PAGE_KINDS } from '../../../search/types';
import { query, type RouteSchema } from '../../validate';
import { LIBRARY_ID_PATTERN, VERSION_PATTERN, libraryParams } from '../shared-schema';

/** A project whose lockfile pins the versions answered when none is named (GET /v2/projects). */
export const projectIdQuery = query.text(40).openapi({
  description:
    "A project (prj_…): a library it pins is answered at the pinned version when the request names none, and provenance says so. Default: the API key's project, if it is bound to one",
  pattern: '^prj_[a-z0-9]{16}$',
});

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
    latestIndexed: z.string().openapi({ description: 'The newest version indexed' }),
    pinnedVersion: z.string().openapi({ description: 'With a project: the version its lockfile pins (context answers from it when no version is named)' }),
    sourceLatest: z.string().nullable().openapi({ description: 'The newest release the source had at its last check (null: unknown)' }),
    redirectedFrom: z.string().openapi({ description: 'The id that matched: a source merged into this library, which now serves it' }),
  })
  .partial()
  .passthrough()
  .openapi('LibrarySearchResult');

/** Where an answer came from (retrieval/provenance.ts). */
export const provenanceJson = z
  .object({
    libraryId: z.string(),
    versionRequested: z.string().nullable(),
    versionServed: z.object({ version: z.string(), record: z.string(), ref: z.string(), commit: z.string(), indexedAt: z.string() }),
    resolution: z
      .enum(['default', 'exact', 'range', 'closest', 'pinned'])
      .openapi({ description: "How the version was chosen; pinned: by the project (projectId, or the API key's project), said in reason" }),
    reason: z.string().optional(),
    latestIndexed: z.string(),
    source: z.object({ checkedAt: z.string(), newestRelease: z.string().nullable() }).nullable(),
    newerRelease: z.string().nullable(),
    behindSource: z.boolean().nullable(),
    redirectedFrom: z.string().optional().openapi({ description: 'The id asked for, a source merged into this library, which serves it now' }),
    mergedSources: z
      .array(z.object({ libraryId: z.string(), version: z.string() }))
      .optional()
      .openapi({ description: "A merged library: the other sources' versions read with the served one" }),
  })
  .openapi('Provenance', {
    description: 'Library, version asked and served (tag, commit, indexed at, how chosen), newest indexed version, and the source at its last check',
  });

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
          pageKind: z.enum(PAGE_KINDS).openapi({
            description:
              'What the page is: guide, reference, example, errors (a catalogue of error or warning messages), changelog, migration, blog, internal or stub',
          }),
        })
        .passthrough(),
    ),
    provenance: provenanceJson,
  })
  .partial()
  .passthrough()
  .openapi('ContextJson');

/** The newer Context7 inputs: the version to answer from and a code language (context and its v1 form). */
const versionInputs = {
  version: query.text(100).openapi({
    description:
      'The version to answer from (instead of naming it in libraryId): a version or tag ("3.2.0"), `latest`, a semver range ("^4", "~8.2": the newest indexed version in it) or `closest:<version>` (the nearest indexed one). An exact version that is not indexed is 404 tag_not_found; another version is served only for a range or closest, and the answer says so in its provenance.',
  }),
  language: query.text(40).openapi({ description: 'A code language ("python", "ts"): sections with examples in it rank first' }),
  languageOnly: query.flag().openapi({ description: 'With language: serve only sections whose examples are in it (prose without code stays)' }),
  projectId: projectIdQuery,
};

const contextErrors = ['invalid_library_id', 'library_not_found', 'tag_not_found', 'no_snippets_found', 'access_denied', 'not_found'] as const;

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
      projectId: projectIdQuery,
    }),
    response: z.object({ results: z.array(librarySearchResult), searchFilterApplied: z.boolean() }),
    errors: ['no_libraries_found', 'not_found'],
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
        ...versionInputs,
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
    query: z.object({ topic: query.text(2000), query: query.text(2000), tokens, type, ...versionInputs }),
    response: contextJson,
    errors: contextErrors,
  },
  'context.read.v1.version': {
    summary: 'Context7 v1 context of a version',
    tag: 'Context',
    text: true,
    params: libraryParams.extend({ version: z.string().min(1).max(200).openapi({ pattern: VERSION_PATTERN }) }),
    query: z.object({ topic: query.text(2000), query: query.text(2000), tokens, type, ...versionInputs }),
    response: contextJson,
    errors: contextErrors,
  },
} satisfies Record<string, RouteSchema>;
