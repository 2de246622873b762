/** The contract of the code tools' route (see http/validate.ts). */
import { z } from 'zod';
import { query, type RouteSchema } from '../../validate';
import { LIBRARY_ID_PATTERN } from '../shared-schema';
import { provenanceJson } from '../retrieval/schema';
import { CODE_OPERATIONS, DEFAULT_CODE_LIMIT, MAX_CODE_LIMIT } from '../../../code/code-query';

const match = z.object({
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  text: z.string(),
  kind: z.enum(['definition', 'reference']).optional(),
});
const symbol = z.object({
  path: z.string(),
  name: z.string(),
  kind: z.string(),
  line: z.number().int(),
  endLine: z.number().int(),
  container: z.string().optional(),
  signature: z.string(),
});

const codeJson = z
  .object({
    libraryId: z.string(),
    operation: z.enum(CODE_OPERATIONS),
    provenance: provenanceJson,
    tree: z.object({
      commit: z.string(),
      files: z.number().int(),
      omitted: z.object({ binary: z.number().int(), tooLarge: z.number().int(), overCap: z.number().int(), symlinks: z.number().int() }),
    }),
    query: z.string().optional(),
    matches: z.array(match).optional(),
    symbols: z.array(symbol).optional(),
    files: z.array(z.string()).optional(),
    file: z
      .object({
        path: z.string(),
        language: z.string().nullable(),
        startLine: z.number().int(),
        endLine: z.number().int(),
        totalLines: z.number().int(),
        text: z.string(),
      })
      .optional(),
    filesScanned: z.number().int().optional(),
    stoppedBy: z.enum(['limit', 'deadline']).nullable(),
  })
  .openapi('CodeAnswerJson');

export const codeSchemas = {
  'code.query': {
    summary:
      "The library's code at the indexed version: search (literal or regex), a symbol's definition or references, a file's outline, or a range of lines — over the tree of the commit the docs were built from",
    tag: 'Context',
    text: true,
    query: z.object({
      libraryId: query.requiredText(300).openapi({ description: '/owner/repo, optionally with /version or @version', pattern: LIBRARY_ID_PATTERN }),
      operation: query.oneOf(CODE_OPERATIONS, 'search').openapi({ description: 'What to do (default search)' }),
      query: query.text(500).openapi({
        description:
          'search: the text, or with regex=true a JavaScript regular expression (matched within a line); definition and references: the symbol, e.g. createServer or Application.use',
      }),
      regex: query.flag().openapi({ description: 'search: query is a regular expression' }),
      caseSensitive: query
        .oneOf(['smart', 'true', 'false'] as const, 'smart')
        .openapi({ description: 'search: smart (the default) is case-sensitive only when query has a capital letter' }),
      path: query.text(500).openapi({
        description: 'outline and read: the file (outline of a folder lists its files); search, definition, references: a folder, file or glob to look in',
      }),
      startLine: query.int(1, 10_000_000, 1).openapi({ description: 'read: the first line (1-based)' }),
      endLine: query.int(0, 10_000_000, 0).openapi({ description: 'read: the last line (default: 200 lines; at most 400 per read)' }),
      limit: query.int(1, MAX_CODE_LIMIT, DEFAULT_CODE_LIMIT).openapi({ description: 'At most this many results' }),
      version: query.text(100).openapi({ description: 'A version, a semver range (^4, ~8.2) or closest:<version>, as for context' }),
      type: query.oneOf(['txt', 'json'] as const, 'txt').openapi({ description: 'Response format' }),
    }),
    response: codeJson,
    errors: ['invalid_library_id', 'library_not_found', 'tag_not_found', 'not_found', 'access_denied', 'no_snippets_found', 'timeout'],
  },
} satisfies Record<string, RouteSchema>;
