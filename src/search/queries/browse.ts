/**
 * The snippet browser's query (a library page's "Snippets" tab): one version's served
 * snippets, filtered by kind, page and page kind, optionally matched against words, with
 * facets (kinds, pages, page kinds) over the same filters but their own. Pure: input → the
 * exact Elasticsearch body.
 */
import type { estypes } from '@elastic/elasticsearch';
import { analyzeText } from '../analysis';
import { versionFilter, type ServedGeneration } from '../served';
import type { SnippetDocument } from '../types';

export interface BrowseInput {
  scope: { libraryId: string; version: string } & ServedGeneration;
  /** Words to match (analysed as the index is: identifier splitting, stemming). */
  q?: string;
  kind?: 'code' | 'info';
  /** A page's repository-relative path. */
  path?: string;
  /** A page kind (guide, reference, changelog…), when the index stores one. */
  pageKind?: string;
  from: number;
  size: number;
}

/** Facet sizes: every kind, the most populous pages. */
export const BROWSE_PAGE_FACETS = 300;

/** Fields a browsed snippet is shown with (never the analysed copies or the vector). */
export const BROWSE_FIELDS = [
  'id',
  'kind',
  'title',
  'breadcrumb',
  'pageTitle',
  'description',
  'content',
  'language',
  'code',
  'path',
  'startLine',
  'url',
  'tokens',
  'pageKind',
] as const;

export function buildBrowseQuery(input: BrowseInput): estypes.SearchRequest {
  const scope = versionFilter(input.scope);
  const filters: Record<'kind' | 'path' | 'pageKind', estypes.QueryDslQueryContainer | undefined> = {
    kind: input.kind ? { term: { kind: input.kind } } : undefined,
    path: input.path ? { term: { path: input.path } } : undefined,
    pageKind: input.pageKind ? { term: { pageKind: input.pageKind } } : undefined,
  };
  const terms = input.q ? [...new Set(analyzeText(input.q))] : [];
  const words = terms.length
    ? [
        {
          multi_match: {
            query: terms.join(' '),
            fields: ['searchTitle^3', 'searchIdentifiers^2', 'searchBreadcrumb', 'searchBody', 'searchCode'],
            operator: 'and' as const,
          },
        },
      ]
    : [];
  const others = (except: keyof typeof filters) =>
    Object.entries(filters)
      .filter(([k, f]) => k !== except && f)
      .map(([, f]) => f as estypes.QueryDslQueryContainer);
  // Each facet counts under every filter but its own, so a chosen page still lists the others.
  const facet = (field: keyof typeof filters, size: number): estypes.AggregationsAggregationContainer => ({
    filter: { bool: { filter: others(field) } },
    aggs: { values: { terms: { field, size, order: [{ _count: 'desc' }, { _key: 'asc' }] } } },
  });
  return {
    from: input.from,
    size: input.size,
    track_total_hits: true,
    query: { bool: { filter: scope, must: words } },
    post_filter: { bool: { filter: Object.values(filters).filter((f): f is estypes.QueryDslQueryContainer => f !== undefined) } },
    sort: terms.length ? ['_score', { path: 'asc' }, { startLine: 'asc' }] : [{ path: 'asc' }, { startLine: 'asc' }, { id: 'asc' }],
    _source: [...BROWSE_FIELDS],
    aggs: { kinds: facet('kind', 2), pages: facet('path', BROWSE_PAGE_FACETS), pageKinds: facet('pageKind', 20) },
  };
}

export type BrowsedSnippet = Pick<
  SnippetDocument,
  'id' | 'kind' | 'title' | 'breadcrumb' | 'pageTitle' | 'description' | 'content' | 'language' | 'code' | 'path' | 'startLine' | 'url' | 'tokens'
> & { pageKind?: string };

export interface BrowseFacets {
  kinds: Array<{ value: string; count: number }>;
  pages: Array<{ value: string; count: number }>;
  pageKinds: Array<{ value: string; count: number }>;
}

/** The facets of a browse answer (empty lists when a field is not indexed). */
export function readBrowseFacets(aggregations: Record<string, unknown> | undefined): BrowseFacets {
  const read = (name: string) => {
    const agg = aggregations?.[name] as { values?: { buckets?: Array<{ key: string; doc_count: number }> } } | undefined;
    return (agg?.values?.buckets ?? []).map((b) => ({ value: String(b.key), count: b.doc_count }));
  };
  return { kinds: read('kinds'), pages: read('pages'), pageKinds: read('pageKinds') };
}
