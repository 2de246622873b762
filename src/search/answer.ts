/**
 * From the two retrieval legs to the snippets an assistant receives: the pool (the lexical
 * leg's best and the kNN leg's nearest) re-scored with the library's own statistics and every
 * candidate's cosine (rescore.ts), then what makes an answer rather than a list: it says
 * nothing when nothing is relevant (an absolute floor), stops where relevance falls off
 * (relative to the best snippet), keeps the parts of one section together in document order,
 * and fills the budget as a ceiling, never as a quota. Pure: the context use case
 * (retrieval/context.ts) and the offline replay of the eval (scripts/eval/replay.ts) run
 * exactly this.
 */
import type { AnalyzedQuery } from './analysis';
import { packSnippetsToBudget } from './budget';
import { withoutDuplicates } from './ranking';
import { rescoreCandidates, type RescoredCandidate } from './rescore';
import type { TermStats } from './term-stats';
import type { RankedSnippet, ScoredCandidate } from './types';
import { SEARCH_WEIGHTS, type SearchWeights } from './weights';

export interface AnswerInput {
  lexical: readonly ScoredCandidate[];
  semantic: readonly ScoredCandidate[];
  analyzed: AnalyzedQuery;
  stats: TermStats;
  /** The question's vector (absent with embeddings off). */
  queryVector?: Float32Array;
  budget: number;
}

export interface AnswerResult {
  /** Every candidate in final rank order (what the answer was cut from). */
  ranked: RescoredCandidate[];
  /** The answer: relevant snippets, parts together, within the budget; empty when nothing is relevant. */
  snippets: RankedSnippet[];
  /** Why the answer is empty, when it is: nothing in the pool passed the absolute floor. */
  nothingRelevant: boolean;
  /** True when the answer ends because the pool ran out (every candidate passed the floors). */
  exhausted: boolean;
}

/** The pool: lexical candidates in their order, then the kNN leg's others; each snippet once. */
export function candidatePool(lexical: readonly ScoredCandidate[], semantic: readonly ScoredCandidate[]): ScoredCandidate[] {
  const seen = new Set<string>();
  const pool: ScoredCandidate[] = [];
  for (const c of [...lexical, ...semantic]) {
    if (seen.has(c.doc.id)) continue;
    seen.add(c.doc.id);
    pool.push(c);
  }
  return withoutDuplicates(pool);
}

/** Whether nothing in the pool is about the question at all (the absolute floor). */
export function nothingRelevant(ranked: readonly RescoredCandidate[], withVectors: boolean, w: SearchWeights['answer']): boolean {
  if (ranked.length === 0) return true;
  if (withVectors) {
    let best = -Infinity;
    for (const r of ranked) if (r.cosine !== undefined) best = Math.max(best, r.cosine);
    if (best > -Infinity) return best < w.cosineFloor;
  }
  let coverage = 0;
  for (const r of ranked) coverage = Math.max(coverage, r.coverage);
  return coverage < w.coverageFloor;
}

export function answerFromLegs(input: AnswerInput, weights: SearchWeights = SEARCH_WEIGHTS): AnswerResult {
  const pool = candidatePool(input.lexical, input.semantic.slice(0, weights.answer.knnHits));
  const ranked = rescoreCandidates(pool, input.analyzed, input.stats, input.queryVector, weights.rescore);
  if (nothingRelevant(ranked, input.queryVector !== undefined, weights.answer)) return { ranked, snippets: [], nothingRelevant: true, exhausted: false };
  const floor = weights.answer.relativeFloor * (ranked[0]?.score ?? 0);
  const relevant = ranked.filter((r) => r.score >= floor).map((r) => ({ doc: r.doc, score: r.score }));
  const snippets = packSnippetsToBudget(relevant, input.budget);
  return { ranked, snippets, nothingRelevant: false, exhausted: relevant.length === ranked.length && snippets.length === relevant.length };
}
