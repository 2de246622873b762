/**
 * `resolve-library-id`: a library name (and optionally the user's task) to a ranked list of
 * libraries in the Context7 text format, under a short header telling the model how to
 * choose. Nothing matching is an answer, not an error (with near names when there are any).
 */
import * as z from 'zod/v4';
import { AppError, ValidationError } from '../../errors';
import { formatResolveLibraryText, NO_LIBRARIES_TEXT } from '../../search/format/libraries';
import { looseArguments, pickString, QUERY_NAMES } from '../arguments';
import type { LibrarySearchAnswer } from '../backend';
import type { ShelfmarkTool } from './tool';

export const RESOLVE_HEADER = `Available libraries (best match first). Each result lists:
- Title (the library's name)
- Context7-compatible library ID (format /org/project; pass it to query-docs)
- Description (a short summary)
- Code Snippets (how many code examples are indexed)
- Source Reputation (High, Medium, Low or Unknown)
- Benchmark Score (documentation quality; 100 is the highest)
- Versions (indexed versions, if any; when the user asks about one, use /org/project/<version>)

Pick the library whose name matches best and whose description fits the user's task; when several fit, prefer more code snippets, higher reputation and a higher benchmark score.`;

export const POLICY_NOTE = "Note: your team's library policy applies; libraries it does not allow are not listed.";

/** The whole answer text: header, policy note when filtered, then the libraries. */
export function formatResolveAnswer(answer: LibrarySearchAnswer): string {
  const parts = [RESOLVE_HEADER];
  if (answer.searchFilterApplied) parts.push(POLICY_NOTE);
  parts.push('----------', formatResolveLibraryText(answer.libraries));
  return parts.join('\n\n');
}

export const resolveLibraryIdTool: ShelfmarkTool = {
  name: 'resolve-library-id',
  title: 'Resolve library ID',
  description: `Resolves a library or package name to a Context7-compatible library ID and lists the matching libraries indexed on this Shelfmark server.

You MUST call this tool before query-docs to obtain a valid library ID, UNLESS the user explicitly gave a library ID of the form /org/project or /org/project/version.

Choose the result whose name is most similar to what the user asked for and whose description fits the task; prefer libraries with more code snippets, High or Medium source reputation and a higher benchmark score. If several fit, say so and use the most relevant one; if none fits, say so and suggest another name. For an ambiguous name, ask the user before guessing.

Do not call this tool more than 3 times for one question; then use the best result you have.`,
  inputSchema: looseArguments(
    {
      libraryName: z.string().optional().describe('Library or package name to look up, e.g. "next.js", "koa", "react-query".'),
      query: z
        .string()
        .optional()
        .describe(
          "Optional: the user's question or task, used to rank libraries by how well their documentation answers it. Do not include secrets or private code.",
        ),
    },
    ['libraryName'],
  ),
  async run(args, backend) {
    const libraryName = pickString(args, ['libraryName']);
    if (!libraryName)
      throw new ValidationError('resolve-library-id needs `libraryName`: the name of the library or package to look up (e.g. "koa").', 'libraryName');
    const query = pickString(args, QUERY_NAMES);
    try {
      return formatResolveAnswer(await backend.searchLibraries({ libraryName, query }));
    } catch (error) {
      if (error instanceof AppError && error.code === 'no_libraries_found' && (error.details.hiddenByPolicy ?? []).length > 0) {
        // A name the team's policy hides is said as such: the assistant must not reach for it another way.
        return `${NO_LIBRARIES_TEXT} Your team's library policy hides ${(error.details.hiddenByPolicy ?? []).join(', ')}, the library with this name on this Shelfmark server. Do not use it or another library's docs instead: tell the user, who can ask a team admin to allow it.`;
      }
      if (error instanceof AppError && error.code === 'no_libraries_found') {
        // The API's message may name libraries with a near name (typo suggestions); never an unrelated one.
        const near = /Libraries with a similar name: .*$/.exec(error.message)?.[0];
        const suggestion = near ? ` ${near} Use one only if it is the library the user meant.` : '';
        return `${NO_LIBRARIES_TEXT} Nothing on this Shelfmark server matches "${libraryName}".${suggestion} Try another spelling or the package's plain name (without scope or suffix); the library may not be indexed here, so do not answer from another library's docs.`;
      }
      throw error;
    }
  },
};
