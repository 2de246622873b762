/**
 * `query-docs`: the best documentation snippets of one library for a question, in the
 * Context7 text format, within a token budget. Accepts the argument names models often use
 * instead of `libraryId` and `query` (see arguments.ts).
 */
import * as z from 'zod/v4';
import { ValidationError } from '../../errors';
import { LIBRARY_ID_NAMES, looseArguments, pickString, QUERY_NAMES, tokenBudget, tokensArgument, versionArguments, versionInputs } from '../arguments';
import type { ShelfmarkTool } from './tool';
import { noRelevantDocumentation } from '../errors';

export const queryDocsTool: ShelfmarkTool = {
  name: 'query-docs',
  title: 'Query documentation',
  description: `Retrieves up-to-date documentation and code examples for a library from Shelfmark, focused on a question.

You must call resolve-library-id first to obtain the exact library ID, UNLESS the user explicitly gave one of the form /org/project or /org/project/version. A version can be addressed as /org/project/<version>.

Do not call this tool more than 3 times for one question; then use the best information you have.`,
  inputSchema: looseArguments(
    {
      libraryId: z
        .string()
        .optional()
        .describe("Exact Context7-compatible library ID, e.g. '/koajs/koa' or '/vercel/next.js/v14.3.0', from resolve-library-id or from the user."),
      query: z
        .string()
        .optional()
        .describe(
          "The question or task, specific and complete: 'How to set a signed cookie in a Koa middleware' rather than 'cookies'. Do not include secrets or private code.",
        ),
      tokens: tokensArgument,
      ...versionArguments,
    },
    ['libraryId', 'query'],
  ),
  async run(args, backend) {
    const libraryId = pickString(args, LIBRARY_ID_NAMES);
    if (!libraryId) {
      throw new ValidationError('query-docs needs `libraryId`: a library ID like /org/project. Call resolve-library-id first to find it.', 'libraryId');
    }
    const query = pickString(args, QUERY_NAMES);
    if (!query)
      throw new ValidationError('query-docs needs `query`: the question to find documentation for, e.g. "how to set a cookie on the response".', 'query');
    try {
      return await backend.queryDocs({ libraryId, query, tokens: tokenBudget(args.tokens), ...versionInputs(args) });
    } catch (error) {
      // Nothing in the docs answers it: said plainly, as an answer (errors.ts).
      const none = noRelevantDocumentation(error, libraryId, query);
      if (none !== undefined) return none;
      throw error;
    }
  },
};
