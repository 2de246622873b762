/**
 * Which copy of a library a caller addresses by its client id (`/acme/internal`): the
 * caller's side of `LibraryRepository.resolve` (store/libraries.ts, "Copies and scopes").
 * HTTP routes, MCP, the retrieval and library use cases all come through here, so a client id
 * means the same copy everywhere. Here too the one check a use case makes before it uses a
 * library a caller names (`usableLibrary`: visibility, then the team's policy), and before it adds one (`requirePolicyAllows`): HTTP and MCP refuse
 * a hidden or denied library alike because neither checks it itself.
 */
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { canSeeLibrary } from '../auth/authorize';
import type { LibraryRecord } from '../store/models/library';
import type { PolicyLibrary } from '../auth/policy';
import { AccessDeniedError, LibraryNotFoundError } from '../errors';

/** The teams whose private copies a caller addresses by client id, the default team first. */
export function callerTeams(principal: Principal): string[] {
  if (principal.kind !== 'user') return [];
  const first = principal.defaultTeamId && principal.teamIds.includes(principal.defaultTeamId) ? [principal.defaultTeamId] : [];
  return [...first, ...principal.teamIds.filter((t) => !first.includes(t))];
}

export interface FindLibraryOptions {
  fresh?: boolean;
  /**
   * Address one team's private copy instead (admins, the service key and the team's members):
   * the way to reach another team's copy, which a client id alone never resolves to.
   */
  teamId?: string;
}

/**
 * The copy of `clientId` the caller addresses, or null (no such library, or none the caller
 * may see: the caller cannot tell which).
 */
export async function findLibraryFor(
  services: Pick<Ports, 'libraries'>,
  principal: Principal,
  clientId: string,
  options: FindLibraryOptions = {},
): Promise<LibraryRecord | null> {
  if (options.teamId !== undefined) {
    const copy = await services.libraries.findCopy(clientId, options.teamId, options);
    return copy && canSeeLibrary(principal, copy) ? copy : null;
  }
  const copy = await services.libraries.resolve(clientId, callerTeams(principal), options);
  return copy && canSeeLibrary(principal, copy) ? copy : null;
}

/**
 * The key whose usage a caller may read for `clientId`: its copy's key; the client id itself
 * when no record holds it (usage of a deleted or never-added library is not private); none
 * when the client id's own record is a copy the caller cannot see.
 */
export async function usageKeyFor(services: Pick<Ports, 'libraries'>, principal: Principal, clientId: string): Promise<string | undefined> {
  const copy = await findLibraryFor(services, principal, clientId);
  if (copy) return copy._id;
  return (await services.libraries.get(clientId)) ? undefined : clientId;
}

/**
 * The stored key to filter records (jobs) of `clientId` by: the caller's copy's key, or the
 * client id itself when the caller has no copy to see (which then matches nothing private).
 */
export async function libraryKeyFor(services: Pick<Ports, 'libraries'>, principal: Principal, clientId: string): Promise<string> {
  return (await findLibraryFor(services, principal, clientId))?._id ?? clientId;
}

/**
 * The copy of `clientId` the caller addresses and may use: `library_not_found` when there is
 * none it may see (hidden and absent alike), `access_denied` when its team's policy excludes it.
 */
export async function usableLibrary(
  services: Pick<Ports, 'libraries' | 'policies'>,
  principal: Principal,
  clientId: string,
  options: FindLibraryOptions = {},
): Promise<LibraryRecord> {
  const lib = await findLibraryFor(services, principal, clientId, options);
  if (!lib) throw new LibraryNotFoundError(clientId);
  await requirePolicyAllows(services, principal, { id: clientId, source: lib.source, trustScore: lib.trustScore });
  return lib;
}

/** `access_denied` unless the caller's team policy admits the library (one being added, too). */
export async function requirePolicyAllows(services: Pick<Ports, 'policies'>, principal: Principal, candidate: PolicyLibrary): Promise<void> {
  const policy = await services.policies.forPrincipal(principal);
  if (!policy.allows(candidate)) throw new AccessDeniedError(candidate.id);
}
