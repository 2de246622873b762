/**
 * getContext, counted in the usage metrics (the HTTP routes and the MCP tool share it): an
 * answer counts as a request of its channel, for the library, the API key and the caller's
 * team; a question that found nothing counts as a zero-result query of the library it asked
 * (the usage page links it there), and the error goes on to the caller.
 */
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import type { UsageChannel } from '../auth/usage';
import { NoSnippetsFoundError } from '../errors';
import { parseLibraryId } from '../domain/library-ids';
import { getContext, type ContextAnswer, type ContextRequest } from './context';

/** What `countedContext` reaches (ports.ts). */
export type CountedContextPorts = Pick<Ports, 'embeddings' | 'libraries' | 'policies' | 'projects' | 'snippets' | 'usage'>;

export async function countedContext(
  services: CountedContextPorts,
  principal: Principal,
  request: ContextRequest,
  channel: UsageChannel,
): Promise<ContextAnswer> {
  const caller = principal.kind === 'user' ? { keyId: principal.keyId ?? null, callerTeamId: principal.defaultTeamId } : {};
  let answer: ContextAnswer;
  try {
    answer = await getContext(services, principal, request);
  } catch (error) {
    if (error instanceof NoSnippetsFoundError) {
      const libraryId = safeLibraryId(request.libraryId);
      if (libraryId) services.usage.record({ libraryId, channel, tokens: 0, query: request.query, noResults: true });
    }
    throw error;
  }
  services.usage.record({
    libraryId: answer.library._id,
    channel,
    tokens: answer.tokens,
    query: request.query,
    teamId: answer.library.teamId,
    score: answer.scorePerTerm,
    ...caller,
  });
  return answer;
}

function safeLibraryId(raw: string): string | null {
  try {
    return parseLibraryId(raw).libraryId;
  } catch {
    return null;
  }
}
