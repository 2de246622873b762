/**
 * A library record as the catalogue presents and indexes it: the Context7 summary library
 * search answers with, and the catalogue index's entry (search/catalog-document.ts).
 */
import type { LibraryRecord } from '../store/models/library';
import type { LibrarySummary } from '../search/types';
import type { CatalogEntry } from '../search/catalog-document';
import { clientLibraryId, latestIndexed, versionNames } from '../domain/library-keys';

export function toSummary(lib: LibraryRecord): LibrarySummary {
  const latest = lib.versions.find((v) => v.version === 'latest');
  return {
    id: clientLibraryId(lib._id),
    title: lib.title || clientLibraryId(lib._id),
    description: lib.description,
    branch: lib.branch,
    lastUpdateDate: latest?.lastUpdateDate ?? lib.updatedAt,
    state: lib.state,
    totalTokens: latest?.totalTokens ?? 0,
    totalSnippets: latest?.totalSnippets ?? 0,
    stars: lib.stars,
    trustScore: lib.trustScore,
    benchmarkScore: latest?.benchmarkScore ?? 0,
    versions: versionNames(lib),
    aliases: lib.aliases,
    latestIndexed: latestIndexed(lib),
    sourceLatest: lib.sourceState?.newestTag ?? null,
    ...(lib.mergedInto ? { mergedInto: clientLibraryId(lib.mergedInto) } : {}),
  };
}

/** The catalogue index's entry of a record. */
export function catalogEntryOf(lib: LibraryRecord): CatalogEntry {
  const latest = lib.versions.find((v) => v.version === 'latest' && v.generation > 0);
  return {
    key: lib._id,
    private: lib.private,
    teamId: lib.teamId ?? null,
    source: lib.source,
    built: lib.versions.some((v) => v.generation > 0),
    latest: latest ? { generation: latest.generation, ...(latest.baseGeneration !== undefined ? { baseGeneration: latest.baseGeneration } : {}) } : null,
    changedAt: new Date(lib.updatedAt ?? lib.createdAt ?? 0).getTime(),
    summary: toSummary(lib),
  };
}
