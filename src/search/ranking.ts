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
  // Trimmed texts by kind and length; equal keys (rare among one query's candidates) are compared whole.
  const seen = new Map<number, string[]>();
  const out: ScoredCandidate[] = [];
  for (const candidate of candidates) {
    const code = candidate.doc.kind === 'code';
    const text = code ? candidate.doc.code : candidate.doc.content;
    let start = 0;
    let end = text.length;
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    const key = (end - start) * 2 + (code ? 1 : 0);
    const body = start === 0 && end === text.length ? text : text.slice(start, end);
    const same = seen.get(key);
    if (same) {
      if (same.includes(body)) continue;
      same.push(body);
    } else {
      seen.set(key, [body]);
    }
    out.push(candidate);
  }
  return out;
}

/** The whitespace String.prototype.trim removes that occurs in text (ASCII and the common Unicode spaces). */
function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0xfeff ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x3000 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x1680 ||
    code === 0x202f ||
    code === 0x205f
  );
}

/** The multiplier of the code-vs-prose balance for one snippet kind. */
export function kindFactor(kind: ContextSnippet['kind'], wantsCode: number, w: RerankWeights): number {
  const lean = w.kindBalance * (wantsCode - 0.5) * 2;
  return kind === 'code' ? 1 + lean : 1 - lean;
}

/** A candidate being re-ranked; `page` numbers its page (path) in order of first appearance. */
interface Scored {
  doc: ContextSnippet;
  base: number;
  score: number;
  index: number;
  page: number;
}

/** Per page: the sum of its best `top` base scores. */
function pageEvidence(items: readonly Scored[], pages: number, top: number): number[] {
  const byPage: number[][] = Array.from({ length: pages }, () => []);
  for (const item of items) byPage[item.page]!.push(item.base);
  return byPage.map((scores) => {
    scores.sort((a, b) => b - a);
    let sum = 0;
    for (let i = 0; i < Math.min(top, scores.length); i++) sum += scores[i]!;
    return sum;
  });
}

/**
 * Greedy diversified order: repeatedly takes the best score after each page's decay, the
 * k-th pick from one page being multiplied by decay^k. Only each page's best remaining
 * snippet can win a step, so a step compares pages, not snippets. Scores come out
 * non-increasing; ties go to the earlier candidate.
 */
function diversify(items: readonly Scored[], pages: number, decayOf: readonly number[]): RankedSnippet[] {
  const sorted = [...items].sort((a, b) => b.score - a.score || a.index - b.index);
  const groups = Array.from({ length: pages }, (_, page) => ({ queue: [] as Scored[], next: 0, factor: 1, decay: decayOf[page]! }));
  for (const item of sorted) groups[item.page]!.queue.push(item);
  const out: RankedSnippet[] = [];
  while (out.length < sorted.length) {
    let best: (typeof groups)[number] | undefined;
    let bestScore = -Infinity;
    for (const group of groups) {
      if (group.next >= group.queue.length) continue;
      const head = group.queue[group.next]!;
      const adjusted = head.score * group.factor;
      if (best === undefined || adjusted > bestScore || (adjusted === bestScore && head.index < best.queue[best.next]!.index)) {
        best = group;
        bestScore = adjusted;
      }
    }
    if (best === undefined) break;
    out.push({ doc: best.queue[best.next]!.doc, score: bestScore });
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
  let maxScore = -Infinity;
  for (const c of unique) if (c.score > maxScore) maxScore = c.score;
  const matchers = analyzed.identifiers.slice(0, MAX_IDENTIFIERS).map(identifierMatcher);
  const pageOf = new Map<string, number>();
  const scored: Scored[] = unique.map((c, index) => {
    // Without usable scores (a filter-only query), fall back to the order received.
    const norm = maxScore > 0 ? Math.max(0, c.score) / maxScore : 1 / (1 + index);
    const hits = identifierHits(c.doc, matchers);
    const bonus = weights.identifierInTitle * hits.title + weights.identifierInBody * hits.body;
    const short = c.doc.tokens < weights.minUsefulTokens ? weights.shortPenalty : 1;
    let page = pageOf.get(c.doc.path);
    if (page === undefined) {
      page = pageOf.size;
      pageOf.set(c.doc.path, page);
    }
    return { doc: c.doc, base: (norm + bonus) * kindFactor(c.doc.kind, analyzed.wantsCode, weights) * short, score: 0, index, page };
  });
  const evidence = pageEvidence(scored, pageOf.size, weights.pageEvidenceTop);
  let maxEvidence = 0;
  let totalEvidence = 0;
  for (const value of evidence) {
    maxEvidence = Math.max(maxEvidence, value);
    totalEvidence += value;
  }
  for (const s of scored) {
    const page = maxEvidence > 0 ? evidence[s.page]! / maxEvidence : 0;
    s.score = weights.snippet * s.base + weights.page * page;
  }
  const decayOf = evidence.map((value) =>
    totalEvidence > 0 && value / totalEvidence >= weights.dominantShare ? weights.dominantDecay : weights.samePageDecay,
  );
  return diversify(scored, pageOf.size, decayOf);
}
