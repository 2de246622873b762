/**
 * `get-library-docs`: the older Context7 tool (`context7CompatibleLibraryID`, `topic`,
 * `tokens`), kept for clients written against it. Same retrieval as query-docs; without a
 * topic it asks for an overview.
 */
import * as z from 'zod/v4';
import { ValidationError } from '../../errors';
import { LIBRARY_ID_NAMES, looseArguments, pickString, QUERY_NAMES, tokenBudget, tokensArgument, versionArguments, versionInputs } from '../arguments';
import type { ShelfmarkTool } from './tool';
import { noRelevantDocumentation } from '../errors';
import { overviewQuery } from '../../retrieval/context';

/** Canonical name first, then the aliases query-docs accepts. */
const ID_NAMES = ['context7CompatibleLibraryID', ...LIBRARY_ID_NAMES.filter((n) => n !== 'context7CompatibleLibraryID')];
const TOPIC_NAMES = ['topic', ...QUERY_NAMES.filter((n) => n !== 'topic')];

export { overviewQuery };

export const getLibraryDocsTool: ShelfmarkTool = {
  name: 'get-library-docs',
  title: 'Get library docs (legacy)',
  description: `Fetches up-to-date documentation for a library. Older form of query-docs, kept for existing clients; prefer query-docs when available.

You must call resolve-library-id first to obtain the exact Context7-compatible library ID, UNLESS the user explicitly gave one of the form /org/project or /org/project/version.`,
  inputSchema: looseArguments(
    {
      context7CompatibleLibraryID: z
        .string()
        .optional()
        .describe("Exact Context7-compatible library ID, e.g. '/koajs/koa', from resolve-library-id or from the user."),
      topic: z.string().optional().describe("Topic to focus the documentation on, e.g. 'routing' or 'cookies'. Without it, an overview is returned."),
      tokens: tokensArgument,
      ...versionArguments,
    },
    ['context7CompatibleLibraryID'],
  ),
  async run(args, backend) {
    const libraryId = pickString(args, ID_NAMES);
    if (!libraryId) {
      throw new ValidationError(
        'get-library-docs needs `context7CompatibleLibraryID`: a library ID like /org/project. Call resolve-library-id first to find it.',
        'context7CompatibleLibraryID',
      );
    }
    const topic = pickString(args, TOPIC_NAMES);
    const query = topic ?? overviewQuery(libraryId);
    try {
      return await backend.queryDocs({
        libraryId,
        query,
        tokens: tokenBudget(args.tokens),
        ...versionInputs(args),
        ...(topic === undefined ? { overview: true } : {}),
      });
    } catch (error) {
      const none = noRelevantDocumentation(error, libraryId, query);
      if (none !== undefined) return none;
      throw error;
    }
  },
};
