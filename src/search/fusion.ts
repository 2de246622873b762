/**
 * Reciprocal rank fusion in Node (the server-core Elasticsearch has no `rrf` retriever):
 * for when a context answer merges several ranked lists, e.g. one query over code fields
 * and one over prose fields.
 */
import type { ScoredCandidate } from './types';
import { SEARCH_WEIGHTS } from './weights';

/**
 * Fuses ranked lists by Σ 1/(k + rank) over the lists holding each snippet (rank from 1),
 * keyed by snippet id; best first, ties in order of first appearance. The fused score
 * replaces the input scores.
 */
export function fuseReciprocalRank(lists: ReadonlyArray<readonly ScoredCandidate[]>, k: number = SEARCH_WEIGHTS.fusion.k): ScoredCandidate[] {
  const fused = new Map<string, ScoredCandidate>();
  for (const list of lists) {
    list.forEach((candidate, index) => {
      const contribution = 1 / (k + index + 1);
      const existing = fused.get(candidate.doc.id);
      if (existing) existing.score += contribution;
      else fused.set(candidate.doc.id, { doc: candidate.doc, score: contribution });
    });
  }
  // Array.prototype.sort is stable, so equal scores keep their first-appearance order.
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
