/**
 * `search-docs`: one question over several libraries — named ones, the team's allowed set or
 * the whole catalogue — answered with the same budget and relevance rules as query-docs, each
 * snippet labelled with its library and version (GET /v2/search).
 */
import * as z from 'zod/v4';
import { ValidationError } from '../../errors';
import { looseArguments, pickString, QUERY_NAMES, tokenBudget, tokensArgument } from '../arguments';
import { noRelevantDocumentation } from '../errors';
import type { ShelfmarkTool } from './tool';

/** Library ids as models send them: an array, or one comma-separated string. */
function libraryList(raw: unknown): string[] {
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  return items
    .filter((x): x is string => typeof x === 'string')
    .map((x) => x.trim())
    .filter(Boolean);
}

export const searchDocsTool: ShelfmarkTool = {
  name: 'search-docs',
  title: 'Search documentation across libraries',
  description: `Answers one question from the documentation of several libraries at once, e.g. "validate a FastAPI request body with pydantic v2 field validators" over /fastapi/fastapi and /pydantic/pydantic. Name the libraries (IDs from resolve-library-id, optionally with a version: /org/project/1.2.3), or leave them out to search the libraries your team may use. Each snippet says which library and version it comes from.

Use query-docs instead when the question is about one library.`,
  inputSchema: looseArguments(
    {
      query: z.string().optional().describe('The question or task, specific and complete. Do not include secrets or private code.'),
      libraries: z
        .union([z.array(z.string()), z.string()])
        .optional()
        .describe(
          "Library IDs to search, e.g. ['/fastapi/fastapi', '/pydantic/pydantic/2.13.4'] (at most 10). Without them, the team's allowed libraries (or the whole catalogue) are searched.",
        ),
      scope: z
        .enum(['team', 'all'])
        .optional()
        .describe("Without libraries: 'team' (your team's allowed libraries) or 'all' (every library you can see; the default)."),
      tokens: tokensArgument,
      language: z.string().optional().describe('Optional: a code language whose examples come first, e.g. "python".'),
    },
    ['query'],
  ),
  async run(args, backend) {
    const query = pickString(args, QUERY_NAMES);
    if (!query) throw new ValidationError('search-docs needs `query`: the question to find documentation for.', 'query');
    const libraries = libraryList(args.libraries ?? args.libraryIds);
    const scope = args.scope === 'team' || args.scope === 'all' ? args.scope : undefined;
    const language = pickString(args, ['language']);
    try {
      return await backend.searchAcross({
        query,
        libraries,
        ...(libraries.length === 0 && scope ? { scope } : {}),
        tokens: tokenBudget(args.tokens),
        ...(language ? { language } : {}),
      });
    } catch (error) {
      const none = noRelevantDocumentation(error, libraries.join(', ') || 'the libraries searched', query);
      if (none !== undefined) return none;
      throw error;
    }
  },
};
