/**
 * Use case "find a library": catalogue ranking by name (exact, alias, fuzzy), then by how
 * well each candidate's content answers the query, then quality; filtered by visibility
 * and the caller's policy. Only name matches are answers (else 404 with near names in the
 * message), and Elasticsearch is asked about content only when several names match, so
 * most calls touch no store but the cached catalogue.
 */
import type { Services } from '../services';
import type { Principal } from '../auth/principal';
import { usableLibraries } from '../libraries/access';
import { NoLibrariesFoundError, ValidationError } from '../errors';
import type { LibraryRecord } from '../store/models/library';
import { clientLibraryId, versionNames } from '../store/libraries';
import { matchLibraryNames, rankLibraries, suggestLibraries } from '../search/catalog';
import { buildLibraryContentQuery, readLibraryContentScores } from '../search/queries/libraries';
import type { LibrarySummary } from '../search/types';
import { latestIndexed } from './provenance';

export interface SearchResult {
  libraries: LibrarySummary[];
  searchFilterApplied: boolean;
}

/** How many libraries a search answers with at most. */
const MAX_RESULTS = 10;

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
  };
}

export async function searchLibraries(services: Services, principal: Principal, input: { libraryName: string; query?: string }): Promise<SearchResult> {
  const libraryName = input.libraryName.trim();
  if (!libraryName) throw new ValidationError('libraryName is required.', 'libraryName');
  if (libraryName.length > 200) throw new ValidationError('libraryName is too long.', 'libraryName');
  // Per client id, the copy the caller addresses (its team's private copy, else the public one).
  const built = (await services.libraries.listCached()).filter((l) => l.versions.some((v) => v.generation > 0));
  const { libraries: allowed, policyApplied, hiddenByPolicy } = await usableLibraries(services, principal, built);
  const summaries = allowed.map(toSummary);

  const matches = matchLibraryNames(libraryName, summaries);
  if (matches.length === 0) {
    // Said as such: a name the team's policy hides is not "no match".
    const hidden = hiddenByPolicy.length > 0 ? matchLibraryNames(libraryName, hiddenByPolicy.map(toSummary)).map((m) => m.library.id) : [];
    throw new NoLibrariesFoundError(libraryName, suggestLibraries(libraryName, summaries), hidden);
  }

  // The content score orders libraries whose names match alike; one match needs no search.
  let contentScores: Map<string, number> | undefined;
  const query = input.query?.trim();
  if (query && matches.length > 1) {
    const matchedIds = new Set(matches.map((m) => m.library.id));
    const candidates = allowed.filter((l) => matchedIds.has(clientLibraryId(l._id)));
    const generations = candidates.flatMap((l) => l.versions.filter((v) => v.version === 'latest').map((v) => ({ libraryId: l._id, version: v.version, generation: v.generation, baseGeneration: v.baseGeneration })));
    const body = buildLibraryContentQuery({ libraryIds: candidates.map((l) => l._id), query, generations });
    if (body) {
      // Snippets carry the stored key; the ranking reads client ids (one copy each, above).
      const byKey = readLibraryContentScores({ hits: { hits: await services.snippets.searchHits(body) } });
      contentScores = new Map([...byKey].map(([key, score]) => [clientLibraryId(key), score]));
    }
  }
  const ranked = rankLibraries({ libraryName, query, libraries: matches.map((m) => m.library), contentScores });
  return { libraries: ranked.slice(0, MAX_RESULTS).map((r) => r.library), searchFilterApplied: policyApplied };
}
