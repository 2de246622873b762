/**
 * The library's own term statistics for re-scoring (queries/term-stats.ts says why), kept per
 * process: per served library version (its generation is in the key, so a new build starts
 * afresh), the document frequency of every term asked so far and the number of snippets.
 * Questions about one library repeat most of their words, so after a few questions a new one
 * costs no request, and the one it needs asks only for the terms not seen yet.
 */
import { buildTermStatsQuery, type TermStatsScope } from './queries/term-stats';
import { alsoKey } from './served';
import { Lru } from '../util/lru';

/** Document frequencies of terms within one library version, and its snippet count. */
export interface TermStats {
  total: number;
  df: ReadonlyMap<string, number>;
}

/** Runs a term statistics request (the body of `buildTermStatsQuery`). */
export type TermStatsFetch = (body: ReturnType<typeof buildTermStatsQuery>) => Promise<{ total: number; df: Record<string, number> }>;

/** Library versions kept, and terms kept per version (beyond it the version starts afresh). */
const SCOPES = 500;
const TERMS_PER_SCOPE = 20_000;

export class TermStatsCache {
  private readonly scopes: Lru<{ total: number; df: Map<string, number> }>;

  constructor(
    private readonly fetch: TermStatsFetch,
    capacity = SCOPES,
  ) {
    this.scopes = new Lru(capacity);
  }

  async stats(scope: TermStatsScope, terms: readonly string[]): Promise<TermStats> {
    const key = `${scope.libraryId}\u0000${scope.version}\u0000${scope.generation ?? ''}\u0000${scope.baseGeneration ?? ''}\u0000${alsoKey(scope.also)}`;
    let entry = this.scopes.get(key);
    // A full version starts afresh before the terms to ask are chosen (clearing after the
    // request lost the question's known terms, which then counted as in no snippet).
    if (entry && entry.df.size > TERMS_PER_SCOPE) entry.df.clear();
    const missing = entry ? terms.filter((t) => !entry!.df.has(t)) : [...terms];
    if (!entry || missing.length > 0) {
      const fetched = await this.fetch(buildTermStatsQuery(scope, missing));
      entry = this.scopes.get(key) ?? { total: fetched.total, df: new Map() };
      entry.total = fetched.total;
      for (const t of missing) entry.df.set(t, fetched.df[t] ?? 0);
    }
    // Least recently used out: writing it again keeps a library in use.
    this.scopes.set(key, entry);
    return entry;
  }
}
