/**
 * From the two retrieval legs to the snippets an assistant receives: the pool (the lexical
 * leg's best and the kNN leg's nearest) re-scored with the library's own statistics and every
 * candidate's cosine (rescore.ts), a page's introduction weighing less when a section of its
 * page is among the candidates (the section says how, the introduction what), a page (or its
 * top section) whose heading says exactly what a topic says weighing more, then what makes
 * an answer rather than a list: it says nothing when nothing is relevant (an absolute floor),
 * stops where relevance falls off (relative to the best snippet, more steeply for long
 * snippets, for a lone hit on a page nothing else of the answer comes from, for a page's
 * fourth section and beyond: page-evidence.ts, for a candidate far from the question in
 * meaning, and for other pages when one page clearly leads; beyond two sections holding
 * exactly the same words of the question), serves a
 * section copied onto another page once, keeps the parts of one section
 * together in document order (a later part paying for the parts it brings) and merged while
 * they fit (section-parts.ts), and fills the budget as a ceiling, never as a quota. Pure: the context
 * use case (retrieval/context.ts) and the offline replay of the eval (scripts/eval/replay.ts)
 * run exactly this.
 */
import type { AnalyzedQuery } from './analysis';
import { DEFAULT_TOKENS, SEPARATOR_TOKENS } from './budget';
import { withoutDuplicates } from './ranking';
import { rescoreCandidates, type RescoredCandidate } from './rescore';
import { withoutCopies } from './copies';
import type { TermStats } from './term-stats';
import { changeQuestion, pageKindFactor, targetVersions } from './page-kinds';
import type { RankedSnippet, ScoredCandidate } from './types';
import { onlyOtherLanguages } from './code-language';
import { isPageIntro, pagesWithSections, withPageRepeats, withPageSupport } from './page-evidence';
import { mergeParts, sectionOf, withSectionParts } from './section-parts';
import { SEARCH_WEIGHTS, type SearchWeights } from './weights';

export interface AnswerInput {
  lexical: readonly ScoredCandidate[];
  semantic: readonly ScoredCandidate[];
  analyzed: AnalyzedQuery;
  stats: TermStats;
  /** The question's vector (absent with embeddings off). */
  queryVector?: Float32Array;
  budget: number;
  /** The library (its name in a question makes "koa 3" a version) and the served version (a tag, or a branch such as latest): page kinds weigh guides by them. */
  libraryId: string;
  version: string;
  /** The question as asked (what it says about change and versions). */
  query: string;
  /**
   * No question, an overview asked for (an older client's get-library-docs without a topic):
   * the best snippets fill the budget, with neither floor applied.
   */
  overview?: boolean;
  /** Earlier parts of sections the pool holds a later part of, read apart (`missingParts`): served with them, not ranked. */
  parts?: readonly ScoredCandidate[];
  /**
   * A code language asked for (normalised, code-language.ts): sections whose examples are all
   * in other languages weigh less (`answer.otherLanguage`), or with `only` are left out.
   */
  language?: { name: string; only: boolean };
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
  /** The tokens of the smallest relevant snippet (what a budget must hold for an answer). */
  smallestRelevant: number;
  /** True when relevant snippets exist but none has examples in the language asked for strictly. */
  noneInLanguage?: boolean;
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

/**
 * Whether nothing in the pool is about the question at all (the absolute floor, from both
 * legs). With vectors, a candidate is about the question when its cosine, plus
 * `headingEvidence` times the share of the question's weight its own heading holds, plus
 * `wholeQuestion` when it holds every one of the question's terms, reaches the cosine floor;
 * and a topic (at most `topicTerms` terms: what an assistant sends as a get-library-docs
 * topic) is answered when one candidate holds every one of its terms, since the cosine of a
 * word or two says little either way. Without vectors the coverage floor decides.
 */
export function nothingRelevant(ranked: readonly RescoredCandidate[], withVectors: boolean, w: SearchWeights['answer'], terms = Infinity): boolean {
  if (ranked.length === 0) return true;
  let coverage = 0;
  for (const r of ranked) coverage = Math.max(coverage, r.coverage);
  if (withVectors) {
    let best = -Infinity;
    for (const r of ranked)
      if (r.cosine !== undefined) best = Math.max(best, r.cosine + w.headingEvidence * r.parts.title + (r.coverage >= 1 ? w.wholeQuestion : 0));
    if (best > -Infinity) return best < w.cosineFloor && !(terms <= w.topicTerms && coverage >= 1);
  }
  return coverage < w.coverageFloor;
}

/** Whole groups in order while they fit the budget (a group that does not fit is left out whole). */
function packGroups(groups: readonly RankedSnippet[][], budget: number): RankedSnippet[] {
  const out: RankedSnippet[] = [];
  let total = 0;
  for (const group of groups) {
    const cost = group.reduce((n, s, i) => n + Math.max(0, s.doc.tokens) + (out.length + i > 0 ? SEPARATOR_TOKENS : 0), 0);
    if (total + cost > budget) continue;
    out.push(...group);
    total += cost;
  }
  return out;
}

export function answerFromLegs(input: AnswerInput, weights: SearchWeights = SEARCH_WEIGHTS): AnswerResult {
  const w = weights.answer;
  const pool = candidatePool(input.lexical, input.semantic.slice(0, w.knnHits));
  const question = changeQuestion(input.query, input.libraryId);
  const targets = targetVersions(
    question,
    input.version,
    pool.map((c) => c.doc),
  );
  const sectioned = input.overview ? new Set<string>() : pagesWithSections(pool);
  const scored = rescoreCandidates(pool, input.analyzed, input.stats, input.queryVector, weights.rescore)
    .map((r) => ({
      ...r,
      score:
        r.score *
        pageKindFactor(r.doc, question, targets, weights.pageKinds) *
        languageFactor(r.doc, input.language, w) *
        (isPageIntro(r.doc) && sectioned.has(r.doc.path) ? w.pageIntro : 1) *
        (r.named && r.doc.breadcrumb.length <= 1 ? w.namedPage : 1),
    }))
    .sort((a, b) => b.score - a.score);
  // Only candidates that can be served are compared (the relative floor of the best); the rest keep their places.
  const ranked = withoutCopies(scored, pool, w.copyCosine, w.relativeFloor * (scored[0]?.score ?? 0));
  if (!input.overview && nothingRelevant(ranked, input.queryVector !== undefined, w, input.analyzed.terms.length))
    return { ranked, snippets: [], nothingRelevant: true, exhausted: false, smallestRelevant: 0 };
  const language = input.language;
  // Asked strictly: the sections with examples only in other languages are not answers (prose stays).
  const eligible = language?.only ? ranked.filter((r) => !onlyOtherLanguages(r.doc, language.name)) : ranked;
  if (eligible.length === 0) return { ranked, snippets: [], nothingRelevant: false, exhausted: false, smallestRelevant: 0, noneInLanguage: true };
  const top = eligible[0]!.score;
  const bestCosine = ranked.reduce((m, r) => Math.max(m, r.cosine ?? -Infinity), -Infinity);
  const floored = eligible.filter(
    (r, i) => input.overview || i === 0 || (r.score >= relevanceFloor(top, r.doc.tokens, w) && nearEnough(r, bestCosine, top, w)),
  );
  // A caller asking more than the default budget asks for more of the same: more of one kind of evidence, a smaller step for a page's repeats, a smaller rise for a clear lead.
  const breadth = Math.max(1, input.budget / DEFAULT_TOKENS);
  const led = input.overview ? floored : withClearLead(floored, bestCosine, w.leadGain / breadth, w);
  const passed = input.overview || input.analyzed.terms.length <= 1 ? led : withoutRepeatedEvidence(led, Math.ceil(w.sameEvidence * breadth));
  const repeatStep = w.pageRepeatStep / breadth;
  const relevant = (
    input.overview
      ? passed
      : withPageRepeats(withPageSupport(passed, top * w.lonePageFloor), (r) => relevanceFloor(top, r.doc.tokens, w), w.pageRepeatsFrom, repeatStep)
  ).map((r) => ({ doc: r.doc, score: r.score }));
  const groups = withSectionParts(relevant, [...ranked, ...(input.parts ?? [])]);
  const packed = packGroups(input.overview ? groups : worthTheirTokens(groups, top, w), input.budget);
  const smallestRelevant = relevant.reduce((m, r) => Math.min(m, r.doc.tokens), Infinity);
  const exhausted = relevant.length === eligible.length && packed.length >= relevant.length;
  return { ranked, snippets: mergeParts(packed, w.mergedPartsCeiling), nothingRelevant: false, exhausted, smallestRelevant };
}

/**
 * The score a snippet of `tokens` tokens needs to be part of an answer whose best snippet
 * scores `top`: a share of the best (`relativeFloor`), higher for long snippets (`sizeFloor`
 * per doubling beyond `sizeFloorFrom` tokens), so that a long section is served only when it
 * is nearly as relevant as the best one.
 */
export function relevanceFloor(top: number, tokens: number, w: SearchWeights['answer']): number {
  const doublings = Math.max(0, Math.log2(Math.max(1, tokens) / w.sizeFloorFrom));
  return w.relativeFloor * top * (1 + w.sizeFloor * doublings);
}

/**
 * A candidate far from the question in meaning (its cosine more than `farCosine` below the
 * pool's best, or below the cosine floor under which nothing is about the question) is served
 * only on strong words: a score of at least `farFloor` of the best.
 * Words shared by chance (a setting named like the question's verb, an error class listed in
 * a reference) lift such a section over the relative floor, not an answer. Without vectors
 * every candidate is near.
 */
export function nearEnough(r: RescoredCandidate, bestCosine: number, top: number, w: SearchWeights['answer']): boolean {
  if (r.cosine === undefined || bestCosine === -Infinity) return true;
  const near = bestCosine - r.cosine <= w.farCosine && r.cosine >= w.cosineFloor;
  return near || r.score >= w.farFloor * top;
}

/**
 * When the best snippet's page leads every other page (its best scores more than `leadFrom`
 * above theirs, as a share of the best), the answer is most likely on that page: a snippet of
 * another page must then score the relative floor plus `gain` times the lead beyond
 * `leadFrom` (as a share of the best), unless its meaning is as close to the question as the
 * pool's best (a cosine within `leadCosine` of it). The leading page's own snippets keep
 * their floors. Without vectors nothing is exempt by meaning, so the rule is off. Examples: a
 * migration guide's section named by the error asked about, against the guide's sections
 * on other pages that merely mention the same hook.
 */
export function withClearLead(floored: readonly RescoredCandidate[], bestCosine: number, gain: number, w: SearchWeights['answer']): RescoredCandidate[] {
  const best = floored[0];
  if (!best || gain <= 0 || bestCosine === -Infinity) return [...floored];
  const other = floored.find((r) => r.doc.path !== best.doc.path);
  const lead = other ? 1 - other.score / best.score : 0;
  if (lead <= w.leadFrom) return [...floored];
  const needed = best.score * (w.relativeFloor + gain * (lead - w.leadFrom));
  return floored.filter(
    (r) => r === best || r.doc.path === best.doc.path || r.score >= needed || (r.cosine !== undefined && bestCosine - r.cosine <= w.leadCosine),
  );
}

/**
 * Sections that hold exactly the same words of the question, and no other, are the same
 * lexical evidence: beyond the first `most` of them (in rank order; the best snippet always
 * stays) one more adds nothing the answer does not already show. They are the sections a
 * question's context words match on every page (a migration guide's every removed method for
 * "after moving to express 5, …", every `z.toJSONSchema()` option for "… from a JSON
 * Schema"), while a section holding one more of its words, or other ones, is other evidence.
 * Sections found by meaning alone (no word of the question) count as one kind too; the parts
 * of one long section count as one section. A question of one term is left alone: every
 * section about "for" holds the same one word, so words cannot tell them apart.
 */
export function withoutRepeatedEvidence(passed: readonly RescoredCandidate[], most: number): RescoredCandidate[] {
  const sectionsOf = new Map<string, Set<string>>();
  return passed.filter((r, i) => {
    const section = sectionOf(r.doc) ?? r.doc.id;
    const sections = sectionsOf.get(r.matched) ?? new Set<string>();
    sectionsOf.set(r.matched, sections);
    if (i > 0 && !sections.has(section) && sections.size >= most) return false;
    sections.add(section);
    return true;
  });
}

/**
 * A later part of a long section is served with the parts before it, so what it costs is the
 * whole group: a group must clear the length-weighted floor for all its tokens, not only for
 * the part that ranked (the best group always stays). Capture replay (dev as asked and its
 * three rewordings; held-out as asked): relevant share 0.436 → 0.462 and 0.332 → 0.357, S-MRR
 * up by 0.001–0.007, S-any unchanged on every wording of both sets.
 */
export function worthTheirTokens(groups: readonly RankedSnippet[][], top: number, w: SearchWeights['answer']): RankedSnippet[][] {
  return groups.filter((g, i) => {
    if (i === 0 || g.length === 1) return true;
    const tokens = g.reduce((n, s) => n + s.doc.tokens, 0);
    return g[0]!.score >= relevanceFloor(top, tokens, w);
  });
}

/** A snippet's weight for the language asked (1 without one, strictly asked, or for prose and code in it). */
function languageFactor(doc: RankedSnippet['doc'], language: AnswerInput['language'], w: SearchWeights['answer']): number {
  if (!language || language.only) return 1;
  return onlyOtherLanguages(doc, language.name) ? w.otherLanguage : 1;
}
