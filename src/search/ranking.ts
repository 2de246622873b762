/**
 * Node-side re-ranking of the candidates of a context query. Elasticsearch scores each
 * snippet alone; here the snippet's score is combined with what only the whole candidate
 * set shows: how much of the evidence its page holds, whether the exact identifiers of the
 * question appear in it, whether the question wants code or prose, and diversity, so that
 * one page cannot fill the answer unless it clearly is the answer.
 */
import type { AnalyzedQuery } from './analysis';
import type { ContextSnippet, RankedSnippet, ScoredCandidate } from './types';
import { SEARCH_WEIGHTS, type RerankWeights } from './weights';

const MAX_IDENTIFIERS = 8;

function isWordChar(code: number): boolean {
  // 0-9, A-Z, _, a-z
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || code === 95 || (code >= 97 && code <= 122);
}

/** True when `id` occurs in `haystack` (both lowercase) not glued to other word characters. */
export function containsIdentifier(haystack: string, id: string): boolean {
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(id, from);
    if (at < 0) return false;
    const end = at + id.length;
    const okBefore = at === 0 || !isWordChar(haystack.charCodeAt(at - 1)) || !isWordChar(id.charCodeAt(0));
    const okAfter = end >= haystack.length || !isWordChar(haystack.charCodeAt(end)) || !isWordChar(id.charCodeAt(id.length - 1));
    if (okBefore && okAfter) return true;
    from = at + 1;
  }
}

/** Fractions of the query identifiers found in the snippet's headings and in its body. */
function identifierHits(doc: ContextSnippet, ids: readonly string[]): { title: number; body: number } {
  if (ids.length === 0) return { title: 0, body: 0 };
  const heading = `${doc.title}\n${doc.breadcrumb.join('\n')}`.toLowerCase();
  const body = `${doc.code}\n${doc.description}\n${doc.content}`.toLowerCase();
  let title = 0;
  let inBody = 0;
  for (const id of ids) {
    if (containsIdentifier(heading, id)) title++;
    if (containsIdentifier(body, id)) inBody++;
  }
  return { title: title / ids.length, body: inBody / ids.length };
}

/**
 * Drops later candidates whose code (or prose) repeats an earlier one word for word: the
 * same example copied across pages or versioned folders tells the reader nothing new.
 */
export function withoutDuplicates(candidates: readonly ScoredCandidate[]): ScoredCandidate[] {
  const seen = new Set<string>();
  const out: ScoredCandidate[] = [];
  for (const candidate of candidates) {
    const body = candidate.doc.kind === 'code' ? candidate.doc.code : candidate.doc.content;
    const key = `${candidate.doc.kind}\u0000${body.trim()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(candidate);
  }
  return out;
}

/** The multiplier of the code-vs-prose balance for one snippet kind. */
export function kindFactor(kind: ContextSnippet['kind'], wantsCode: number, w: RerankWeights): number {
  const lean = w.kindBalance * (wantsCode - 0.5) * 2;
  return kind === 'code' ? 1 + lean : 1 - lean;
}

interface Scored {
  doc: ContextSnippet;
  base: number;
  index: number;
}

/** Per page: the sum of its best `top` base scores. */
function pageEvidence(items: Scored[], top: number): Map<string, number> {
  const byPath = new Map<string, number[]>();
  for (const item of items) {
    const list = byPath.get(item.doc.path);
    if (list) list.push(item.base);
    else byPath.set(item.doc.path, [item.base]);
  }
  const evidence = new Map<string, number>();
  for (const [path, scores] of byPath) {
    scores.sort((a, b) => b - a);
    let sum = 0;
    for (let i = 0; i < Math.min(top, scores.length); i++) sum += scores[i];
    evidence.set(path, sum);
  }
  return evidence;
}

/**
 * Greedy diversified order: repeatedly takes the best score after each page's decay, the
 * k-th pick from one page being multiplied by decay^k. Only each page's best remaining
 * snippet can win a step, so a step compares pages, not snippets. Scores come out
 * non-increasing; ties go to the earlier candidate.
 */
function diversify(items: Array<Scored & { score: number }>, decayOf: ReadonlyMap<string, number>): RankedSnippet[] {
  const sorted = [...items].sort((a, b) => b.score - a.score || a.index - b.index);
  const pages = new Map<string, { queue: typeof sorted; next: number; factor: number; decay: number }>();
  for (const item of sorted) {
    const page = pages.get(item.doc.path);
    if (page) page.queue.push(item);
    else pages.set(item.doc.path, { queue: [item], next: 0, factor: 1, decay: decayOf.get(item.doc.path) ?? 1 });
  }
  const groups = [...pages.values()];
  const out: RankedSnippet[] = [];
  while (out.length < sorted.length) {
    let best: (typeof groups)[number] | undefined;
    let bestScore = -Infinity;
    for (const group of groups) {
      if (group.next >= group.queue.length) continue;
      const head = group.queue[group.next];
      const adjusted = head.score * group.factor;
      if (best === undefined || adjusted > bestScore || (adjusted === bestScore && head.index < best.queue[best.next].index)) {
        best = group;
        bestScore = adjusted;
      }
    }
    if (best === undefined) break;
    out.push({ doc: best.queue[best.next].doc, score: bestScore });
    best.next += 1;
    best.factor *= best.decay;
  }
  return out;
}

/**
 * Re-ranks the candidates of one context query (best first): normalised ES score plus
 * exact-identifier bonuses, times the code/prose balance, blended with the page's evidence,
 * then diversified per page. Pure and deterministic (ties keep the input order).
 */
export function rerankCandidates(
  candidates: readonly ScoredCandidate[],
  analyzed: AnalyzedQuery,
  weights: RerankWeights = SEARCH_WEIGHTS.rerank,
): RankedSnippet[] {
  const unique = withoutDuplicates(candidates);
  if (unique.length === 0) return [];
  const maxScore = Math.max(...unique.map((c) => c.score));
  const ids = analyzed.identifiers.slice(0, MAX_IDENTIFIERS);
  const scored: Scored[] = unique.map((c, index) => {
    // Without usable scores (a filter-only query), fall back to the order received.
    const norm = maxScore > 0 ? Math.max(0, c.score) / maxScore : 1 / (1 + index);
    const hits = identifierHits(c.doc, ids);
    const bonus = weights.identifierInTitle * hits.title + weights.identifierInBody * hits.body;
    const short = c.doc.tokens < weights.minUsefulTokens ? weights.shortPenalty : 1;
    return { doc: c.doc, base: (norm + bonus) * kindFactor(c.doc.kind, analyzed.wantsCode, weights) * short, index };
  });
  const evidence = pageEvidence(scored, weights.pageEvidenceTop);
  let maxEvidence = 0;
  let totalEvidence = 0;
  for (const value of evidence.values()) {
    maxEvidence = Math.max(maxEvidence, value);
    totalEvidence += value;
  }
  const withScores = scored.map((s) => {
    const page = maxEvidence > 0 ? (evidence.get(s.doc.path) ?? 0) / maxEvidence : 0;
    return { ...s, score: weights.snippet * s.base + weights.page * page };
  });
  const decayOf = new Map<string, number>();
  for (const [path, value] of evidence) {
    const dominant = totalEvidence > 0 && value / totalEvidence >= weights.dominantShare;
    decayOf.set(path, dominant ? weights.dominantDecay : weights.samePageDecay);
  }
  return diversify(withScores, decayOf);
}
