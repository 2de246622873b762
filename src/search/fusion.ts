/**
 * Fusion of ranked lists in Node (the server-core Elasticsearch has no `rrf` retriever):
 * the lexical (BM25F) and semantic (kNN) legs of hybrid retrieval, or any lists that rank
 * the same snippets. Three ways, chosen by measurement on the eval set (weights.ts `hybrid`):
 * reciprocal rank fusion, which ignores score gaps; a weighted blend of normalised scores,
 * which keeps them; and gap filling (the default), where the semantic leg adds evidence
 * only where the lexical leg has little.
 */
import type { ScoredCandidate } from './types';
import { SEARCH_WEIGHTS, type HybridWeights } from './weights';

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

/**
 * Weighted blend of a lexical and a semantic list: (1 − w)·lexical/max(lexical) +
 * w·semantic, where the semantic part grades each cosine by its gap to the best one on a
 * fixed scale (1 − gap/cosineScale, at least 0). A fixed scale, not the list's own span:
 * the cosines of one query's neighbours often lie within 0.02 of each other, and stretching
 * that to 0..1 would turn noise into rank. A snippet missing from a list gets 0 from it.
 * Best first; ties keep the order of first appearance (lexical list first).
 */
export function blendScores(
  lexical: readonly ScoredCandidate[],
  semantic: readonly ScoredCandidate[],
  semanticWeight: number,
  cosineScale = 0.2,
): ScoredCandidate[] {
  let maxLex = 0;
  for (const c of lexical) maxLex = Math.max(maxLex, c.score);
  let maxSem = -Infinity;
  for (const c of semantic) maxSem = Math.max(maxSem, c.score);
  const fused = new Map<string, ScoredCandidate>();
  for (const c of lexical) fused.set(c.doc.id, { doc: c.doc, score: (1 - semanticWeight) * (maxLex > 0 ? Math.max(0, c.score) / maxLex : 0) });
  for (const c of semantic) {
    const part = semanticWeight * Math.max(0, 1 - (maxSem - c.score) / cosineScale);
    const existing = fused.get(c.doc.id);
    if (existing) existing.score += part;
    else fused.set(c.doc.id, { doc: c.doc, score: part });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/**
 * The semantic grade of each snippet of a kNN list: 1 for the reference cosine, falling
 * linearly to 0 at `cosineScale` below it. The reference is the best neighbour's cosine,
 * but at least `confident`: a leg whose best neighbour is itself a weak match (a question
 * the library's docs do not really answer in any words, where the nearest snippets are
 * READMEs and indexes) grades everything lower instead of presenting its best guess as a
 * clear match. A fixed scale, not the list's own span: the cosines of one query's
 * neighbours often lie within 0.02 of each other, and stretching that to 0..1 would turn
 * noise into rank.
 */
export function semanticGrades(
  semantic: readonly ScoredCandidate[],
  cosineScale: number,
  confident = 0,
): Map<string, { doc: ScoredCandidate['doc']; grade: number }> {
  let best = confident;
  for (const c of semantic) best = Math.max(best, c.score);
  const grades = new Map<string, { doc: ScoredCandidate['doc']; grade: number }>();
  for (const c of semantic) grades.set(c.doc.id, { doc: c.doc, grade: Math.max(0, 1 - (best - c.score) / cosineScale) });
  return grades;
}

/**
 * Page evidence of the semantic leg: per page (path), the mean of its `top` best grades
 * among the kNN hits, a missing one counting 0. One near neighbour on a page is weak
 * evidence (a cosine differs from the next by noise more often than by meaning); several
 * neighbours agreeing on one page is strong evidence that the page is about the question,
 * the passage-to-document aggregation that helps where the question's words are not the
 * page's (a page on timeouts for "5 seconds to connect, 60 to read").
 */
export function semanticPageEvidence(grades: ReadonlyMap<string, { doc: ScoredCandidate['doc']; grade: number }>, top: number): Map<string, number> {
  const byPage = new Map<string, number[]>();
  for (const { doc, grade } of grades.values()) {
    const list = byPage.get(doc.path);
    if (list) list.push(grade);
    else byPage.set(doc.path, [grade]);
  }
  const evidence = new Map<string, number>();
  for (const [page, list] of byPage) {
    list.sort((a, b) => b - a);
    let sum = 0;
    for (let i = 0; i < Math.min(top, list.length); i++) sum += list[i]!;
    evidence.set(page, sum / top);
  }
  return evidence;
}

/** How much a page's semantic evidence (`semanticPageEvidence`) adds to each of its candidates. */
export interface PageEvidenceWeights {
  /** The most it adds (to every candidate of a page whose `top` best neighbours all grade 1). */
  weight: number;
  top: number;
}

/**
 * Gap filling: lexical + w·semantic·(1 − lexical)², with the lexical score normalised by
 * the list's best and the semantic grade of `semanticGrades` (graded against at least the
 * `confident` cosine), plus the page's semantic evidence times `page.weight`. The semantic
 * leg fills the gaps the lexical one leaves (a snippet in other words than the question's,
 * found by the kNN leg alone or matched weakly by words, rises by up to `weight`), and its
 * share shrinks with the square of the lexical evidence, so one cosine cannot reorder strong
 * lexical matches: their cosines differ by noise more often than by meaning, and a blend
 * that let them decide lost exactly where the words are the answer (error strings, setting
 * names: troubleshooting questions dropped 0.865 → 0.771 MRR on dev.yaml). What can reorder
 * them is agreement: several near neighbours on one page lift that page's candidates by up
 * to `page.weight` (0 turns it off, and then the lexical best keeps its score, 1, and
 * nothing else can pass it). Best first; ties keep the order of first appearance (lexical
 * list first).
 */
export function fillGaps(
  lexical: readonly ScoredCandidate[],
  semantic: readonly ScoredCandidate[],
  weight: number,
  cosineScale = 0.2,
  confident = 0,
  page: PageEvidenceWeights = { weight: 0, top: 1 },
): ScoredCandidate[] {
  let maxLex = 0;
  for (const c of lexical) maxLex = Math.max(maxLex, c.score);
  const grades = semanticGrades(semantic, cosineScale, confident);
  const pages = page.weight > 0 ? semanticPageEvidence(grades, page.top) : new Map<string, number>();
  const pageBonus = (path: string) => page.weight * (pages.get(path) ?? 0);
  const fused = new Map<string, ScoredCandidate>();
  for (const c of lexical) {
    const l = maxLex > 0 ? Math.max(0, c.score) / maxLex : 0;
    const s = grades.get(c.doc.id)?.grade ?? 0;
    fused.set(c.doc.id, { doc: c.doc, score: l + weight * s * (1 - l) ** 2 + pageBonus(c.doc.path) });
  }
  for (const [id, { doc, grade }] of grades) if (!fused.has(id)) fused.set(id, { doc, score: weight * grade + pageBonus(doc.path) });
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/** Elasticsearch's kNN score for `dot_product` on unit vectors is (1 + cosine) / 2; this undoes it. */
export function cosineFromKnnScore(score: number): number {
  return 2 * score - 1;
}

/**
 * Fuses the lexical and semantic legs as the hybrid weights say; an empty semantic leg
 * leaves the lexical list as it is. A question that names code identifiers or error
 * strings (`namesIdentifiers`) is what the lexical leg matches exactly, so there the blend
 * scales the semantic share by `identifierFactor` and gap filling leaves out page evidence
 * (its only way to reorder strong lexical matches).
 */
export function fuseHybrid(
  lexical: readonly ScoredCandidate[],
  semantic: readonly ScoredCandidate[],
  weights: HybridWeights = SEARCH_WEIGHTS.hybrid,
  query: { namesIdentifiers?: boolean } = {},
): ScoredCandidate[] {
  if (semantic.length === 0) return [...lexical];
  if (weights.method === 'rrf') return fuseReciprocalRank([lexical, semantic], weights.rrfK);
  const cosines = semantic.map((c) => ({ doc: c.doc, score: cosineFromKnnScore(c.score) }));
  if (weights.method === 'fill') {
    // A question naming identifiers or error strings is what the words match exactly: there
    // the pages the vectors agree on do not get to pass the page that holds those words.
    const page = { weight: query.namesIdentifiers ? 0 : weights.pageWeight, top: weights.pageTop };
    return fillGaps(lexical, cosines, weights.fillWeight, weights.cosineScale, weights.confidentCosine, page);
  }
  const share = weights.semantic * (query.namesIdentifiers ? weights.identifierFactor : 1);
  return blendScores(lexical, cosines, share, weights.cosineScale);
}
