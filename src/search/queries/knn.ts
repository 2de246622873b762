/**
 * The semantic leg of a context query: the snippets of one library version nearest to the
 * query's vector (approximate kNN over the `embedding` field, filtered to the version's
 * generation before the graph search). Pure; returns the request body like
 * buildContextQuery, with the same `_source` fields (never the vectors themselves).
 */
import { CONTEXT_SOURCE_FIELDS } from '../types';
import { SEARCH_WEIGHTS, type HybridWeights } from '../weights';
import type { SearchRequestBody } from './context';
import { scopesFilter, type SourceScope } from '../served';

export interface KnnQueryInput {
  libraryId: string;
  version: string;
  generation?: number;
  baseGeneration?: number;
  /** A merged library: the versions of its other sources served with this one (served.ts `scopesFilter`). */
  also?: readonly SourceScope[];
  vector: ArrayLike<number>;
  size: number;
}

export function buildKnnQuery(input: KnnQueryInput, weights: HybridWeights = SEARCH_WEIGHTS.hybrid): SearchRequestBody {
  return {
    size: input.size,
    track_total_hits: false,
    _source: [...CONTEXT_SOURCE_FIELDS],
    knn: {
      field: 'embedding',
      // Six decimals: the request stays ~3 kB and the int8 index cannot tell the difference.
      query_vector: Array.from(input.vector, (x) => Math.round(x * 1e6) / 1e6),
      k: input.size,
      num_candidates: Math.min(10_000, Math.max(100, input.size * weights.numCandidatesFactor)),
      filter: [...scopesFilter(input)],
    },
  };
}
