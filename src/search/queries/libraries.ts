/**
 * The catalogue's content query: how well each candidate library's snippets answer a
 * question. One search collapsed on `libraryId` returns each library's best snippet, whose
 * score is the library's content score (core features only: no scripts, no `max` over
 * `_score`). `readLibraryContentScores` turns the response into the map catalog.ts reads.
 */
import { analyzeQuery } from '../analysis';
import { SEARCH_WEIGHTS, type QueryWeights } from '../weights';
import { contextShouldClauses, type SearchRequestBody } from './context';
import { versionFilter, type ServedGeneration } from '../served';

export interface LibraryContentQueryInput {
  libraryIds: string[];
  query: string;
  /** The version and generation served per library (served.ts); without them every generation counts. */
  generations?: ReadonlyArray<{ libraryId: string; version: string } & ServedGeneration>;
}

type Query = NonNullable<SearchRequestBody['query']>;

function scopeFilter(input: LibraryContentQueryInput, libraryIds: string[]): Query | undefined {
  if (input.generations === undefined) return { terms: { libraryId: libraryIds } };
  const scopes = input.generations.filter((g) => libraryIds.includes(g.libraryId));
  if (scopes.length === 0) return undefined;
  return {
    bool: {
      should: scopes.map((g) => ({ bool: { filter: versionFilter(g) } })),
      minimum_should_match: 1,
    },
  };
}

/** Builds the collapsed search that scores each library's content for `query`; undefined when there is nothing to score. */
export function buildLibraryContentQuery(input: LibraryContentQueryInput, weights: QueryWeights = SEARCH_WEIGHTS.query): SearchRequestBody | undefined {
  const libraryIds = [...new Set(input.libraryIds)];
  const should = contextShouldClauses(analyzeQuery(input.query), new Set(), weights);
  const scope = libraryIds.length > 0 ? scopeFilter(input, libraryIds) : undefined;
  if (scope === undefined || should.length === 0) return undefined;
  return {
    size: libraryIds.length,
    track_total_hits: false,
    _source: ['libraryId'],
    query: { bool: { filter: [scope], should, minimum_should_match: 1 } },
    collapse: { field: 'libraryId' },
  };
}

/** The part of a search response the reader needs (an `estypes.SearchResponse` fits). */
export interface LibraryContentResponse {
  hits: { hits: Array<{ _score?: number | null; _source?: { libraryId?: string } }> };
}

/** Each library's content score (its best snippet's score) from the collapsed response. */
export function readLibraryContentScores(response: LibraryContentResponse): Map<string, number> {
  const scores = new Map<string, number>();
  for (const hit of response.hits.hits) {
    const id = hit._source?.libraryId;
    const score = hit._score ?? 0;
    if (id !== undefined && score > (scores.get(id) ?? 0)) scores.set(id, score);
  }
  return scores;
}
