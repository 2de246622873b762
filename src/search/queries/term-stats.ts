/**
 * How many snippets of one library version contain each query term, and how many it has in
 * all: the library's own document frequencies. Elasticsearch scores with statistics of the
 * whole index (every library at once), where a word every page of one library uses (koa's
 * `ctx`, requests' `session`) is rare and weighs like a topic; re-scoring in Node
 * (search/rescore.ts) weighs terms by this library's frequencies instead. Pure: the request
 * body of one aggregation, over the same fields the context query searches.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { SearchRequestBody } from './context';
import { scopesFilter, type SourceScope } from '../served';

/** The analysed fields a term is counted in. */
export const TERM_FIELDS = ['searchTitle', 'searchBreadcrumb', 'searchBody', 'searchCode', 'searchPath', 'searchIdentifiers'] as const;

export interface TermStatsScope {
  libraryId: string;
  version: string;
  generation?: number;
  baseGeneration?: number;
  /** A merged library: the versions of its other sources served with this one (served.ts `scopesFilter`). */
  also?: readonly SourceScope[];
}

/**
 * The request for `terms`' document frequencies and the version's snippet count. Without
 * terms (a question of stop words alone: "each", "{#if}") it asks for the count only:
 * Elasticsearch refuses a `filters` aggregation with no filters.
 */
export function buildTermStatsQuery(scope: TermStatsScope, terms: readonly string[]): SearchRequestBody {
  const filters: Record<string, estypes.QueryDslQueryContainer> = {};
  for (const term of terms) filters[term] = { multi_match: { query: term, fields: [...TERM_FIELDS] } };
  return {
    size: 0,
    track_total_hits: true,
    query: {
      bool: {
        filter: [...scopesFilter(scope)],
      },
    },
    ...(terms.length > 0 ? { aggs: { df: { filters: { filters } } } } : {}),
  };
}
