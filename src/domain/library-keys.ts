/**
 * Library storage keys and version addressing: the rules store/, indexing/, search/ and the
 * catalogue share, kept here in the bottom layer so each imports them downward.
 *
 * Copies and scopes. A client id (`/acme/internal`) can name several copies: one public copy
 * and one private copy per team, each its own record under its own stored key: the public copy
 * at the client id itself, a team's private copy at `<client id>~<teamId>` (`~` cannot occur in
 * a client id, so a caller can never name a key). Private libraries made before scoping keep
 * the client id as their key and count as their team's copy; a public copy made while such a
 * record holds the client id goes to `<client id>~public`.
 */
import semver from 'semver';
import { TagNotFoundError } from '../errors';
import { nearestVersion } from './version-rule';

/** Separates a client id from the scope of a copy in stored keys; client ids cannot contain it. */
export const SCOPE_SEPARATOR = '~';

/** What the scope rules read of a library record. */
export interface ScopedRecord {
  _id: string;
  private: boolean;
  teamId: string | null;
}

/** What version addressing reads of a version record. */
export interface AddressableVersion {
  version: string;
  tags?: string[];
  generation: number;
  commit?: string;
}

/** The stored key of a team's private copy of `clientId`. */
export function privateLibraryKey(clientId: string, teamId: string): string {
  return `${clientId}${SCOPE_SEPARATOR}${teamId}`;
}

/** The client-facing id of a stored key: `/acme/internal~team_1` → `/acme/internal`. */
export function clientLibraryId(key: string): string {
  const at = key.indexOf(SCOPE_SEPARATOR);
  return at === -1 ? key : key.slice(0, at);
}

/** The team of a stored key's private copy (null for a public copy). */
export function teamOfLibraryKey(key: string): string | null {
  const at = key.indexOf(SCOPE_SEPARATOR);
  const team = at === -1 ? null : key.slice(at + 1);
  return team === 'public' ? null : team;
}

/** A scope: a team's id (its private copies), or null (the public copies). */
export type LibraryScope = string | null;

/** The keys the copy of `clientId` in `scope` may be stored under, in the order they are tried. */
export function keysInScope(clientId: string, scope: LibraryScope): string[] {
  return scope === null ? [clientId, `${clientId}${SCOPE_SEPARATOR}public`] : [privateLibraryKey(clientId, scope), clientId];
}

export function inScope(record: Pick<ScopedRecord, 'private' | 'teamId'>, scope: LibraryScope): boolean {
  return scope === null ? !record.private : record.private && record.teamId === scope;
}

/**
 * Where a copy ranks for a caller in `teamIds` (preferred first): its team's position, the
 * public copy after every team's; -1 for another team's copy (never addressed by client id).
 */
export function scopeRank(record: Pick<ScopedRecord, 'private' | 'teamId'>, teamIds: readonly string[]): number {
  if (!record.private) return teamIds.length;
  return record.teamId === null ? -1 : teamIds.indexOf(record.teamId);
}

/**
 * Of a list of records, the copy each client id resolves to for a caller in `teamIds` (the
 * same choice as `LibraryRepository.resolve`), in the list's order.
 */
export function preferredCopies<T extends ScopedRecord>(records: readonly T[], teamIds: readonly string[]): T[] {
  const best = new Map<string, { record: T; rank: number }>();
  for (const record of records) {
    const rank = scopeRank(record, teamIds);
    if (rank < 0) continue;
    const id = clientLibraryId(record._id);
    const seen = best.get(id);
    if (!seen || rank < seen.rank) best.set(id, { record, rank });
  }
  const chosen = new Set([...best.values()].map((b) => b.record));
  return records.filter((r) => chosen.has(r));
}

/** Every name a version can be addressed by. */
export function versionNames(lib: { versions: readonly Pick<AddressableVersion, 'version' | 'tags'>[] }): string[] {
  const names = new Set<string>();
  for (const v of lib.versions) {
    if (v.version !== 'latest') names.add(v.version);
    for (const t of v.tags ?? []) names.add(t);
  }
  return [...names].sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
}

/**
 * The version record a request addresses: latest when none is named; a tag matches its
 * own version or a version whose commit it points at (a leading "v" is optional). Never
 * substitutes another version: an unknown tag is a 404 listing the available ones.
 */
export function resolveVersion<V extends AddressableVersion>(lib: { _id: string; versions: readonly V[] }, requested: string | undefined): V | undefined {
  const ready = lib.versions.filter((v) => v.generation > 0);
  if (requested === undefined) return ready.find((v) => v.version === 'latest') ?? undefined;
  const norm = (s: string) => s.replace(/^v(?=\d)/, '');
  const want = norm(requested);
  const match =
    ready.find((v) => v.version === requested) ??
    ready.find((v) => (v.tags ?? []).includes(requested)) ??
    ready.find((v) => norm(v.version) === want || (v.tags ?? []).some((t) => norm(t) === want));
  if (!match) {
    const available = versionNames({ versions: ready });
    throw new TagNotFoundError(clientLibraryId(lib._id), requested, available, nearestVersion(requested, available));
  }
  return match;
}

/** The newest indexed version of a library, by semver (non-release names after releases). */
export function latestIndexed(lib: { versions: readonly (Pick<AddressableVersion, 'version' | 'tags'> & { generation: number })[] }): string {
  const names = versionNames({ versions: lib.versions.filter((v) => v.generation > 0) });
  const releases = names.map((n) => ({ n, v: releaseOf(n) })).filter((r): r is { n: string; v: semver.SemVer } => r.v !== null && r.v.prerelease.length === 0);
  releases.sort((a, b) => semver.rcompare(a.v, b.v));
  return releases[0]?.n ?? names[0] ?? 'latest';
}

function releaseOf(name: string): semver.SemVer | null {
  return semver.parse(name.replace(/^v(?=\d)/, ''));
}
