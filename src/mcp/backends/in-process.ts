/**
 * The backend of the server's own `/mcp` endpoint: the same use cases as the HTTP routes,
 * called with the request's principal (visibility, policies), usage recorded as `mcp`.
 * Store and library errors are mapped to AppErrors here, at the boundary, so the tools see
 * one error family whichever backend they run on.
 */
import type { Ports } from '../../ports';
import type { Principal } from '../../auth/principal';
import type { AppError } from '../../errors';
import { countedContext } from '../../retrieval/counted-context';
import { searchLibraries } from '../../catalog/find';
import { projectPins, withPin } from '../../projects/project-version';
import { formatContextText } from '../../search/format/txt';
import { toAppError } from '../../error-funnel';
import { withProvenanceLine } from '../../retrieval/provenance';
import { searchAcrossLibraries } from '../../retrieval/search-across';
import { formatAcrossText } from '../../retrieval/across-format';
import { getUpgradeGuide } from '../../retrieval/upgrade-guide';
import { queryCode } from '../../code/code-query';
import { formatCodeText } from '../../code/code-format';
import type { DocsBackend } from '../backend';

export interface InProcessOptions {
  /**
   * A refusal decided before the call (the request is over its rate limit): every tool
   * call answers with it, so the model reads the limit as a tool error it can act on.
   */
  refusal?: AppError;
  /** The session's project (the `X-Shelfmark-Project` header): calls that name none use it. */
  projectId?: string;
}

/** What `inProcessBackend` reaches (ports.ts). */
export type InProcessBackendPorts = Pick<Ports, 'catalogIndex' | 'config' | 'embeddings' | 'libraries' | 'policies' | 'projects' | 'snippets' | 'usage'>;

export function inProcessBackend(services: InProcessBackendPorts, principal: Principal, options: InProcessOptions = {}): DocsBackend {
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    if (options.refusal) throw options.refusal;
    try {
      return await work();
    } catch (error) {
      throw toAppError(error);
    }
  };
  return {
    searchLibraries: (input) =>
      guarded(async () => {
        const [answer, pins] = await Promise.all([searchLibraries(services, principal, input), projectPins(services, principal, options.projectId)]);
        return { ...answer, libraries: answer.libraries.map((l) => withPin(l, pins)) };
      }),
    queryDocs: (input) =>
      guarded(async () => {
        const answer = await countedContext(services, principal, { ...input, projectId: input.projectId ?? options.projectId }, 'mcp');
        return withProvenanceLine(answer.provenance, formatContextText(answer.snippets));
      }),
    searchAcross: (input) =>
      guarded(async () =>
        formatAcrossText(await searchAcrossLibraries(services, principal, { ...input, ...(options.projectId ? { projectId: options.projectId } : {}) })),
      ),
    upgradeGuide: (input) => guarded(async () => (await getUpgradeGuide(services, principal, input)).text),
    queryCode: (input) => guarded(async () => formatCodeText(await queryCode(services, principal, input))),
  };
}
