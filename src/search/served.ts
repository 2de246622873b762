/**
 * Which snippet documents a library version serves. A build no longer copies the snippets of
 * unchanged files: each document keeps the generation it was written in (`generation`) and,
 * once a later build replaced it, the generation that retired it (`retired`, absent while
 * live). A version record names the generation it serves (`generation`, G) and the
 * generation of its last full rebuild (`baseGeneration`, B; absent on records written before
 * incremental builds, when it equals G), and serves exactly the documents with
 * `B <= generation <= G` and no `retired <= G`:
 * - documents a build is writing (generation > G) and marks it has set (retired > G) are
 *   invisible until the record switches to that build's generation, in one update;
 * - documents of an older full build (generation < B) are invisible once a full rebuild is
 *   served, without being marked.
 * Pure (no store access), so every reader builds the same filter.
 */
import type { estypes } from '@elastic/elasticsearch';

/** What a reader knows of the served generation (a version record or the part it needs). */
export interface ServedGeneration {
  generation: number;
  baseGeneration?: number;
}

/** The lowest generation a version serves: the last full rebuild's. */
export function baseOf(v: ServedGeneration): number {
  return v.baseGeneration ?? v.generation;
}

/** The filter clause selecting the documents a version serves at `v` (version and library filtered apart). */
export function servedFilter(v: ServedGeneration): estypes.QueryDslQueryContainer {
  return {
    bool: {
      filter: [{ range: { generation: { gte: baseOf(v), lte: v.generation } } }],
      must_not: [{ range: { retired: { lte: v.generation } } }],
    },
  };
}

/** Library, version and served generation: the whole scope of one version's documents. */
export function versionFilter(scope: { libraryId: string; version: string } & ServedGeneration): estypes.QueryDslQueryContainer[] {
  return [{ term: { libraryId: scope.libraryId } }, { term: { version: scope.version } }, servedFilter(scope)];
}

/** One version of one source of a merged library, with its served generation. */
export type SourceScope = { libraryId: string; version: string } & ServedGeneration;

/**
 * The filter of a query over one version (`generation` absent: every generation) and, for a
 * merged library, the versions of its other sources that join it (`also`): the documents of
 * any of them. Without `also` it is exactly the one version's filter, so plain libraries'
 * queries do not change.
 */
export function scopesFilter(scope: {
  libraryId: string;
  version: string;
  generation?: number;
  baseGeneration?: number;
  also?: readonly SourceScope[];
}): estypes.QueryDslQueryContainer[] {
  const own: estypes.QueryDslQueryContainer[] = [
    { term: { libraryId: scope.libraryId } },
    { term: { version: scope.version } },
    ...(scope.generation !== undefined ? [servedFilter({ generation: scope.generation, baseGeneration: scope.baseGeneration })] : []),
  ];
  if (!scope.also || scope.also.length === 0) return own;
  return [{ bool: { should: [{ bool: { filter: own } }, ...scope.also.map((s) => ({ bool: { filter: versionFilter(s) } }))], minimum_should_match: 1 } }];
}

/** The key part that tells merged scopes apart (caches keyed by scope). */
export function alsoKey(also: readonly SourceScope[] | undefined): string {
  return (also ?? []).map((s) => `${s.libraryId}@${s.version}@${s.generation}@${s.baseGeneration ?? ''}`).join('|');
}
