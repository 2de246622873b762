/**
 * Merged libraries: one library id served from several sources (its own, plus other library
 * records: a website, an llms.txt, an archive, an OpenAPI upload, another repository).
 *
 * - Each source stays a library record of its own, built, refreshed, scheduled and deleted
 *   through the ordinary paths; the merged record lists them (`mergedSources`) and each source
 *   points back (`mergedInto`). Nothing is copied: snippets stay under each source's key and
 *   generations, and a query filters on all of them at once (search/served.ts `scopesFilter`).
 * - One version set, the merged library's own: a source serves its version of the same name,
 *   and its default version joins the merged library's `joins` version (`latest` unless pinned)
 *   — a website or llms.txt has no tags, so it documents the default branch.
 * - The old id of a source redirects: context and resolve on it serve the merged library and
 *   say so (`redirectedFrom`); managing it (refresh, settings, delete) still addresses the source.
 * - Access control is unchanged: a source must be in the merged library's scope (both public,
 *   or the same team's private copies), and the merged library's visibility and policy decide.
 */
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import type { LibraryRecord, LibraryVersionRecord, MergedSourceRecord } from '../store/models/library';
import type { SourceScope } from '../search/served';
import { canSeeLibrary } from '../auth/authorize';
import { authorize } from '../auth/permissions';
import { LibraryNotFoundError, ValidationError } from '../errors';
import { clientLibraryId } from '../domain/library-keys';
import { parseLibraryId } from '../domain/library-ids';
import { findLibraryFor, requirePolicyAllows, usableLibrary } from './access';

type LibraryPorts = Pick<Ports, 'libraries' | 'policies'>;

/** A library as a caller addresses it, after the redirect of a merged source's old id. */
export interface ServedLibrary {
  library: LibraryRecord;
  /** The id the caller named when it is a source merged into `library`. */
  redirectedFrom?: string;
}

/**
 * The library `clientId` serves: the caller's copy (visibility, then policy: `usableLibrary`),
 * or, when that copy is a source merged into another library, the merged library.
 */
export async function usableServedLibrary(
  services: LibraryPorts,
  principal: Principal,
  clientId: string,
  options: { fresh?: boolean } = {},
): Promise<ServedLibrary> {
  const library = await usableLibrary(services, principal, clientId, options);
  const merged = await mergedLibraryOf(services, library, options);
  if (!merged || !canSeeLibrary(principal, merged)) return { library };
  await requirePolicyAllows(services, principal, { id: clientLibraryId(merged._id), source: merged.source, trustScore: merged.trustScore });
  return { library: merged, redirectedFrom: clientId };
}

/** The merged library a source belongs to (its `mergedInto`, when that record still lists it). */
async function mergedLibraryOf(services: Pick<Ports, 'libraries'>, source: LibraryRecord, options: { fresh?: boolean } = {}): Promise<LibraryRecord | null> {
  if (!source.mergedInto) return null;
  const merged = await services.libraries.get(source.mergedInto, options);
  return merged && (merged.mergedSources ?? []).some((s) => s.key === source._id) ? merged : null;
}

/**
 * The version of a source that joins the merged library's `version`: its own of that name, or
 * its default version (`latest`, else its first) when `version` is the one it joins. Only
 * built versions join. Pure.
 */
export function joiningVersion(
  source: Pick<LibraryRecord, 'versions'>,
  link: Pick<MergedSourceRecord, 'joins'>,
  version: string,
): LibraryVersionRecord | undefined {
  const built = source.versions.filter((v) => v.generation > 0);
  // A source's default version joins only the version it is pinned to, not the merged library's default by name.
  const same = version !== 'latest' ? built.find((v) => v.version === version) : undefined;
  if (same) return same;
  if (version !== link.joins) return undefined;
  return built.find((v) => v.version === 'latest') ?? built[0];
}

/** The versions of a merged library's other sources served with its `version` (none for a plain library). */
export async function sourceScopes(services: Pick<Ports, 'libraries'>, library: LibraryRecord, version: string): Promise<SourceScope[]> {
  const links = library.mergedSources ?? [];
  if (links.length === 0) return [];
  const sources = await Promise.all(links.map((link) => services.libraries.get(link.key)));
  const scopes: SourceScope[] = [];
  links.forEach((link, i) => {
    const source = sources[i];
    if (!source || source.mergedInto !== library._id) return;
    const v = joiningVersion(source, link, version);
    if (v)
      scopes.push({
        libraryId: source._id,
        version: v.version,
        generation: v.generation,
        ...(v.baseGeneration !== undefined ? { baseGeneration: v.baseGeneration } : {}),
      });
  });
  return scopes;
}

export interface AddSourceInput {
  /** The library to merge in, by its id (it must be in the same scope). */
  source: string;
  /** The merged library's version its default version joins (default `latest`). */
  joins?: string;
  teamId?: string;
}

export interface LibrarySourcesView {
  libraryId: string;
  sources: Array<{
    libraryId: string;
    role: 'own' | 'merged';
    source: string;
    state: string;
    /** The merged library's version a merged source's default version joins. */
    joins: string | null;
    versions: Array<{ version: string; totalSnippets: number; lastUpdateDate: string | null }>;
  }>;
}

/**
 * Merges library `input.source` into `clientId`: the source's old id redirects to it from now
 * on, and its snippets are served with the merged library's. Admins (or a private library's
 * team owners: `libraries.update` on both). Refused with 400 `validation_error`: the library
 * itself, another scope, a source already merged somewhere, or a merged library (no chains).
 */
export async function addLibrarySource(services: LibraryPorts, principal: Principal, clientId: string, input: AddSourceInput): Promise<LibrarySourcesView> {
  const target = await findLibraryFor(services, principal, clientId, { fresh: true, ...(input.teamId !== undefined ? { teamId: input.teamId } : {}) });
  if (!target) throw new LibraryNotFoundError(clientId);
  authorize(principal, 'libraries.update', target);
  const sourceId = input.source.trim();
  if (parseLibraryId(sourceId).version !== undefined)
    throw new ValidationError('source must be a library id without a version (e.g. /websites/koajs-com): every version of it joins.', 'source');
  const source = await usableLibrary(services, principal, parseLibraryId(sourceId).libraryId, {
    fresh: true,
    ...(input.teamId !== undefined ? { teamId: input.teamId } : {}),
  });
  authorize(principal, 'libraries.update', source);
  const joins = input.joins?.trim() || 'latest';
  if (source._id === target._id) throw new ValidationError(`${sourceId} is the library itself.`, 'source');
  if (source.private !== target.private || (source.teamId ?? null) !== (target.teamId ?? null)) {
    throw new ValidationError(
      `${sourceId} and ${clientId} are not in the same scope (public, or the same team's private copies): a source is served to everyone who sees the library.`,
      'source',
    );
  }
  if (target.mergedInto)
    throw new ValidationError(`${clientId} is itself a source of ${clientLibraryId(target.mergedInto)}: add ${sourceId} there.`, 'libraryId');
  if ((source.mergedSources ?? []).length > 0) throw new ValidationError(`${sourceId} is a merged library itself: merge its sources one by one.`, 'source');
  if (source.mergedInto && source.mergedInto !== target._id)
    throw new ValidationError(`${sourceId} is already a source of ${clientLibraryId(source.mergedInto)}: delete it there first.`, 'source');
  if (!target.versions.some((v) => v.version === joins) && joins !== 'latest') {
    throw new ValidationError(`joins must be an indexed version of ${clientId}: ${target.versions.map((v) => v.version).join(', ') || 'latest'}.`, 'joins');
  }
  // The merged record first: it alone decides what is served (a source whose merged record does
  // not list it is not redirected), so a crash between the two writes serves nothing twice.
  const link: MergedSourceRecord = { key: source._id, source: source.source, joins, addedAt: new Date() };
  const merged = await services.libraries.modify(target._id, (lib) => ({
    mergedSources: [...(lib.mergedSources ?? []).filter((s) => s.key !== source._id), link],
  }));
  if (!merged) throw new LibraryNotFoundError(clientId);
  await services.libraries.modify(source._id, (lib) => (lib.mergedInto === target._id ? null : { mergedInto: target._id }));
  return viewOf(services, merged);
}

/** The sources of the library `clientId` addresses (its own first), as the caller may see it. */
export async function listLibrarySources(
  services: LibraryPorts,
  principal: Principal,
  clientId: string,
  options: { teamId?: string } = {},
): Promise<LibrarySourcesView> {
  const library = await usableLibrary(services, principal, clientId, options);
  return viewOf(services, library);
}

async function viewOf(services: Pick<Ports, 'libraries'>, library: LibraryRecord): Promise<LibrarySourcesView> {
  const links = library.mergedSources ?? [];
  const sources = await Promise.all(links.map((l) => services.libraries.get(l.key, { fresh: true })));
  const entry = (lib: LibraryRecord, link: MergedSourceRecord | null): LibrarySourcesView['sources'][number] => ({
    libraryId: clientLibraryId(lib._id),
    role: link ? 'merged' : 'own',
    source: lib.source,
    state: lib.state,
    joins: link?.joins ?? null,
    versions: lib.versions.map((v) => ({
      version: v.version,
      totalSnippets: v.totalSnippets,
      lastUpdateDate: v.lastUpdateDate ? new Date(v.lastUpdateDate).toISOString() : null,
    })),
  });
  const merged = links.flatMap((link, i) => {
    const lib = sources[i];
    return lib ? [entry(lib, link)] : [];
  });
  return { libraryId: clientLibraryId(library._id), sources: [entry(library, null), ...merged] };
}
