/**
 * Failures of a tool call as the model reads them: the service's message followed by what
 * to do next. A tool never throws to the protocol layer; an error becomes a result with
 * `isError: true`, which the model sees and can act on (call resolve-library-id, pick an
 * available version, rephrase, wait). Unexpected failures get a generic text; their
 * details go to the log only.
 */
import { AppError } from '../errors';

export interface ToolFailure {
  text: string;
  /** True when the failure is ours (a bug or an outage): it must be logged. */
  unexpected: boolean;
}

export const UNEXPECTED_FAILURE_TEXT =
  'Shelfmark could not answer because of an internal error. Try again later; if it keeps failing, tell the user that the documentation service is failing.';

const RESOLVE_FIRST =
  'Call resolve-library-id with the library name to get a valid Context7-compatible library ID (like /org/project), then call this tool again with it.';

/** The versions a `tag_not_found` error lists (its details, in process or from an HTTP body). */
export function availableVersions(error: AppError): string[] {
  return error.details.availableVersions ?? [];
}

/**
 * A question the library's docs do not answer is an answer, not a failure: the tool says so
 * in plain words with what to do next (and the nearest sections, which an assistant may still
 * open). Undefined for any other error (a library still being indexed, a budget too small).
 */
export function noRelevantDocumentation(error: unknown, libraryId: string, query: string): string | undefined {
  if (!(error instanceof AppError) || error.code !== 'no_snippets_found' || !/ is relevant to /.test(error.message)) return undefined;
  const nearest = error.details.nearestSections ?? [];
  return [
    `No relevant documentation in ${libraryId} for "${query}".`,
    nearest.length > 0 ? `The nearest sections, none of which answers it: ${nearest.join('; ')}.` : '',
    'If the question is about another library or tool, call resolve-library-id for that one; if it is about this library, ask again naming the function, option or error message. Otherwise tell the user these docs do not cover it rather than guessing from them.',
  ]
    .filter((line) => line !== '')
    .join('\n\n');
}

/** The text of a failed tool call. */
export function toolFailure(error: unknown): ToolFailure {
  if (!(error instanceof AppError) || !error.expose) return { text: UNEXPECTED_FAILURE_TEXT, unexpected: true };
  const message = error.message.trim();
  switch (error.code) {
    case 'library_not_found':
      return { text: `${message} ${RESOLVE_FIRST}`, unexpected: false };
    case 'invalid_library_id':
      return { text: `${message} ${RESOLVE_FIRST}`, unexpected: false };
    case 'tag_not_found': {
      const versions = availableVersions(error);
      const id = error.details.libraryId;
      const latest = id ? ` or ${id} (without a version) for the latest documentation` : ' or the library ID without a version for the latest documentation';
      const choice =
        versions.length > 0
          ? `Use one of the available versions: ${versions.map((v) => (id ? `${id}/${v}` : v)).join(', ')}${latest}.`
          : `No other versions are indexed: use${latest.replace(/^ or/, '')}.`;
      const nearest = error.details.nearest;
      const closer = nearest
        ? ` If the user accepts a nearby version, call again with version "closest:${error.details.requested ?? nearest}" (the answer then says which version it served).`
        : '';
      return { text: `${message} ${choice}${closer} Do not substitute another version without telling the user.`, unexpected: false };
    }
    case 'no_snippets_found':
      return {
        text: /raise tokens/.test(message)
          ? `${message} Call the tool again with a larger tokens value.`
          : `${message} Rephrase the query to be more specific (name the function, option or task), or check with resolve-library-id that this is the right library.`,
        unexpected: false,
      };
    case 'no_libraries_found':
      return {
        text: `${message} Try another spelling or the package's plain name; the library may not be indexed on this Shelfmark server.`,
        unexpected: false,
      };
    case 'access_denied':
      return {
        text: `${message} Your team's library policy does not allow it: choose another library from resolve-library-id, or ask a team admin to allow this one.`,
        unexpected: false,
      };
    case 'forbidden':
      return { text: `${message} This API key may not do that; ask the user or a team admin.`, unexpected: false };
    case 'rate_limit_exceeded':
      return {
        text: `${message} Do not retry at once: wait, or tell the user that Shelfmark's rate limit was reached. An API key (the SHELFMARK_API_KEY header, or --api-key for stdio) raises the limit.`,
        unexpected: false,
      };
    case 'invalid_api_key':
      return {
        text: `${message} The API key configured for this MCP server is missing or invalid: ask the user to check it (SHELFMARK_API_KEY header, or --api-key for stdio).`,
        unexpected: false,
      };
    case 'validation_error':
      return { text: message, unexpected: false };
    default:
      // 503 (a store is down) and 504 (timeout) are exposed and temporary.
      return error.status >= 500 ? { text: `${message} Try again in a moment.`, unexpected: false } : { text: message, unexpected: false };
  }
}
