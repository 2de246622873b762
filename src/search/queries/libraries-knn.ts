/**
 * Which libraries hold the snippets nearest to a question's vector, over many libraries at
 * once (each at its served version and generation): the semantic half of choosing the
 * libraries a question across the catalogue is asked of (retrieval/search-across.ts). Pure.
 */
import type { SearchRequestBody } from './context';
import { versionFilter, type ServedGeneration } from '../served';
import { SEARCH_WEIGHTS, type HybridWeights } from '../weights';

export interface LibrariesKnnInput {
  scopes: ReadonlyArray<{ libraryId: string; version: string } & ServedGeneration>;
  vector: ArrayLike<number>;
  size: number;
}

export function buildLibrariesKnnQuery(input: LibrariesKnnInput, weights: HybridWeights = SEARCH_WEIGHTS.hybrid): SearchRequestBody | undefined {
  if (input.scopes.length === 0) return undefined;
  return {
    size: input.size,
    track_total_hits: false,
    _source: ['libraryId'],
    knn: {
      field: 'embedding',
      query_vector: Array.from(input.vector, (x) => Math.round(x * 1e6) / 1e6),
      k: input.size,
      num_candidates: Math.min(10_000, Math.max(100, input.size * weights.numCandidatesFactor)),
      filter: [{ bool: { should: input.scopes.map((s) => ({ bool: { filter: versionFilter(s) } })), minimum_should_match: 1 } }],
    },
  };
}

/** Each library's best similarity among the hits (ES kNN scores: higher is nearer). */
export function readNearestLibraries(hits: ReadonlyArray<{ _score?: number | null; _source?: { libraryId?: string } }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const h of hits) {
    const id = h._source?.libraryId;
    if (id !== undefined && (h._score ?? 0) > (out.get(id) ?? -Infinity)) out.set(id, h._score ?? 0);
  }
  return out;
}
