/**
 * Where an answer came from, said in every answer (JSON `provenance`, one header line of the
 * text and MCP forms): the library, the version asked for and the one served (tag, commit,
 * when it was indexed, how it was chosen), the newest version indexed, and what the source
 * looked like at its last check (its newest release, whether the served branch is behind its
 * head). Pure: built from the library record and the version choice.
 */
import semver from 'semver';
import { clientLibraryId, latestIndexed } from '../domain/library-keys';

export { latestIndexed };
import type { LibraryRecord } from '../store/models/library';
import type { VersionChoice, VersionResolution } from './version-choice';

export interface Provenance {
  libraryId: string;
  /** What the caller asked for; null: nothing (the default version). */
  versionRequested: string | null;
  versionServed: {
    /** The version as a client names it (a tag; `latest` for a branch without one). */
    version: string;
    /** The indexed record: `latest` (the default branch) or a tag. */
    record: string;
    ref: string;
    commit: string;
    indexedAt: string;
  };
  resolution: VersionResolution;
  /** Why this version (range and closest). */
  reason?: string;
  /** The newest version indexed (by semver among the indexed names; else the default branch's). */
  latestIndexed: string;
  /** The source at its last check, when one was recorded. */
  source: { checkedAt: string; newestRelease: string | null } | null;
  /** A newer release than the one served, indexed or seen at the source; null when none is known. */
  newerRelease: string | null;
  /** Whether the served branch is behind its source's head (null: unknown, or a tag, which does not move). */
  behindSource: boolean | null;
  /** The id asked for, when it is a source merged into `libraryId` (catalog/merged-sources.ts). */
  redirectedFrom?: string;
  /** A merged library: the other sources' versions read with the served one. */
  mergedSources?: Array<{ libraryId: string; version: string }>;
}

function release(name: string | null | undefined): semver.SemVer | null {
  return name ? semver.parse(name.replace(/^v(?=\d)/, '')) : null;
}

export function provenanceOf(lib: Pick<LibraryRecord, '_id' | 'versions' | 'sourceState'>, choice: VersionChoice): Provenance {
  const record = choice.record;
  const newest = latestIndexed(lib);
  const source = lib.sourceState ?? null;
  const served = release(choice.served);
  const candidates = [newest, source?.newestTag ?? null].filter((n): n is string => n !== null);
  let newerRelease: string | null = null;
  for (const name of candidates) {
    const v = release(name);
    if (served && v && semver.gt(v, served) && (newerRelease === null || semver.gt(v, release(newerRelease) as semver.SemVer))) newerRelease = name;
  }
  // A branch is behind when the source's head, seen after this build, is another commit.
  const indexedAt = new Date(record.lastUpdateDate);
  const behindSource =
    record.version === 'latest' && source?.head && record.commit && new Date(source.checkedAt).getTime() >= indexedAt.getTime() - 60_000
      ? source.head !== record.commit
      : null;
  return {
    libraryId: clientLibraryId(lib._id),
    versionRequested: choice.requested,
    versionServed: { version: choice.served, record: record.version, ref: record.ref, commit: record.commit, indexedAt: indexedAt.toISOString() },
    resolution: choice.resolution,
    ...(choice.reason ? { reason: choice.reason } : {}),
    latestIndexed: newest,
    source: source ? { checkedAt: new Date(source.checkedAt).toISOString(), newestRelease: source.newestTag ?? null } : null,
    newerRelease,
    behindSource,
  };
}

/** The provenance as one line above a text answer. */
export function provenanceLine(p: Provenance): string {
  const commit = p.versionServed.commit ? ` @ ${p.versionServed.commit.slice(0, 12)}` : '';
  const asked = p.versionRequested === null ? 'no version asked (default)' : `asked ${p.versionRequested}`;
  const why = p.reason ? ` (${p.reason.replace(/\.$/, '')})` : '';
  const newer = p.newerRelease ? `; newer release: ${p.newerRelease}` : '';
  const behind = p.behindSource === true ? '; behind its source (a refresh is due)' : p.behindSource === false ? '; up to date with its source' : '';
  const redirected = p.redirectedFrom ? ` (${p.redirectedFrom} is merged into ${p.libraryId}: use that id)` : '';
  const merged = p.mergedSources && p.mergedSources.length > 0 ? `; also from ${p.mergedSources.map((s) => `${s.libraryId} ${s.version}`).join(', ')}` : '';
  return `Docs: ${p.libraryId} ${p.versionServed.version}${commit}${redirected}, indexed ${p.versionServed.indexedAt.slice(0, 10)}; ${asked}, served ${p.versionServed.version}${why}; latest indexed: ${p.latestIndexed}${newer}${behind}${merged}.`;
}

/** A text answer under its provenance line. */
export function withProvenanceLine(p: Provenance, text: string): string {
  return `${provenanceLine(p)}\n\n${text}`;
}
