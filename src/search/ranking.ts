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

/**
 * A case-insensitive matcher for one (lowercase) identifier with the same boundaries as
 * `containsIdentifier`, so snippets need not be lowercased (they are ~1 kB each, 40+ per query).
 */
export function identifierMatcher(id: string): RegExp {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const before = isWordChar(id.charCodeAt(0)) ? '(?<![0-9A-Za-z_])' : '';
  const after = isWordChar(id.charCodeAt(id.length - 1)) ? '(?![0-9A-Za-z_])' : '';
  return new RegExp(`${before}${escaped}${after}`, 'i');
}

/** Fractions of the query identifiers found in the snippet's headings and in its body. */
function identifierHits(doc: ContextSnippet, matchers: readonly RegExp[]): { title: number; body: number } {
  if (matchers.length === 0) return { title: 0, body: 0 };
  let title = 0;
  let inBody = 0;
  for (const m of matchers) {
    if (m.test(doc.title) || doc.breadcrumb.some((b) => m.test(b))) title++;
    if (m.test(doc.code) || m.test(doc.description) || m.test(doc.content)) inBody++;
  }
  return { title: title / matchers.length, body: inBody / matchers.length };
}

/**
 * Drops later candidates whose code (or prose) repeats an earlier one word for word: the
 * same example copied across pages or versioned folders tells the reader nothing new.
 */
export function withoutDuplicates(candidates: readonly ScoredCandidate[]): ScoredCandidate[] {
  // Keyed by kind, length and both ends of the trimmed text; equal keys are compared whole.
  const seen = new Map<string, string[]>();
  const out: ScoredCandidate[] = [];
  for (const candidate of candidates) {
    const text = candidate.doc.kind === 'code' ? candidate.doc.code : candidate.doc.content;
    let start = 0;
    let end = text.length;
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    const key = `${candidate.doc.kind}\u0000${end - start}\u0000${text.slice(start, Math.min(end, start + 48))}\u0000${text.slice(Math.max(start, end - 48), end)}`;
    const same = seen.get(key);
    const body = same ? text.slice(start, end) : undefined;
    if (same && body !== undefined && same.includes(body)) continue;
    if (same && body !== undefined) same.push(body);
    else seen.set(key, [text.slice(start, end)]);
    out.push(candidate);
  }
  return out;
}

/** The whitespace String.prototype.trim removes that occurs in text (ASCII and the common Unicode spaces). */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0xfeff || code === 0x2028 || code === 0x2029 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a) || code === 0x1680 || code === 0x202f || code === 0x205f;
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
  const matchers = analyzed.identifiers.slice(0, MAX_IDENTIFIERS).map(identifierMatcher);
  const scored: Scored[] = unique.map((c, index) => {
    // Without usable scores (a filter-only query), fall back to the order received.
    const norm = maxScore > 0 ? Math.max(0, c.score) / maxScore : 1 / (1 + index);
    const hits = identifierHits(c.doc, matchers);
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
