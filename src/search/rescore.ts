/**
 * Re-scoring the candidate pool of a context query in Node, where the library is known.
 * Elasticsearch found the pool (the lexical leg's best and the kNN leg's nearest); here every
 * candidate is scored again by what separates sections of one library:
 * - BM25F over its analysed fields with the library's own document frequencies
 *   (queries/term-stats.ts): a word every page of the library uses weighs nothing, the
 *   words that single out a section weigh most;
 * - its vector's cosine to the question's, for every candidate (not only the kNN leg's few),
 *   graded against the best one on a fixed scale;
 * - how much of the question's weight its own heading, and its heading path, carry.
 * Measured on the dev set (weights.ts `rescore`), this is what lifted the section that
 * answers to the top; Elasticsearch's own score (index-wide statistics) adds nothing to it.
 */
import type { AnalyzedQuery } from './analysis';
import type { TermStats } from './term-stats';
import type { ContextSnippet, EVIDENCE_FIELDS, ScoredCandidate } from './types';
import { SEARCH_WEIGHTS, type RescoreWeights } from './weights';

type Field = (typeof EVIDENCE_FIELDS)[number];

/** A candidate with its new score and the evidence behind it. */
export interface RescoredCandidate {
  doc: ContextSnippet;
  score: number;
  /** Cosine of its vector to the question's (undefined without vectors). */
  cosine?: number;
  /** Share of the question's terms found anywhere in it (0..1, unweighted: a word every snippet has still counts). */
  coverage: number;
  /** The question's terms found anywhere in it, as their indexes in order ("0,2"): which of the question's words it is evidence for. */
  matched: string;
  /** The parts of the score before weighting: BM25F / the pool's best, cosine grade, heading and path coverage. */
  parts: { lexical: number; semantic: number; title: number; headings: number };
  /** Its own heading says exactly what the question says: every term of it, and nothing else ("Request Body" for "request body"). */
  named?: boolean;
}

/** Occurrences of `token` as a whole token of an analysed (space-separated) text. */
export function countToken(text: string, token: string): number {
  let n = 0;
  for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length)) {
    const end = at + token.length;
    if ((at === 0 || text.charCodeAt(at - 1) === 32) && (end === text.length || text.charCodeAt(end) === 32)) n++;
  }
  return n;
}

/** Tokens of an analysed text (its spaces + 1; 0 for ""). */
function tokenCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) n++;
  return n;
}

/** One expression finding every term of the question as a whole token of an analysed text (longest first). */
function termMatcher(terms: readonly string[]): RegExp | undefined {
  if (terms.length === 0) return undefined;
  const alternatives = [...terms].sort((a, b) => b.length - a.length).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![^ ])(${alternatives.join('|')})(?![^ ])`, 'g');
}

/** Token counts of a candidate's fields, computed once per cached candidate. */
function fieldLengths(evidence: ScoredCandidate['evidence'], fields: readonly Field[]): number[] {
  if (!evidence) return fields.map(() => 0);
  const cached = (evidence as { lengths?: number[] }).lengths;
  if (cached && cached.length === fields.length) return cached;
  const lengths = fields.map((f) => tokenCount(evidence.text[f]));
  (evidence as { lengths?: number[] }).lengths = lengths;
  return lengths;
}

/** Inverse document frequency of a term within the library (BM25's, never negative). */
export function libraryIdf(stats: TermStats, term: string): number {
  const df = stats.df.get(term) ?? 0;
  return Math.log(1 + (stats.total - df + 0.5) / (df + 0.5));
}

/** The dot product of two vectors (their cosine when both are unit vectors, as every vector here is). */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * The pool re-scored, best first (ties keep the pool's order). Candidates without evidence
 * (none should reach here) score by nothing but their position.
 */
export function rescoreCandidates(
  pool: readonly ScoredCandidate[],
  analyzed: AnalyzedQuery,
  stats: TermStats,
  queryVector: Float32Array | undefined,
  w: RescoreWeights = SEARCH_WEIGHTS.rescore,
): RescoredCandidate[] {
  if (pool.length === 0) return [];
  const fields = Object.keys(w.fields) as Field[];
  const terms = analyzed.terms;
  const idf = terms.map((t) => libraryIdf(stats, t));
  const totalIdf = idf.reduce((n, x) => n + x, 0) || 1;
  const matcher = termMatcher(terms);
  const termIndex = new Map(terms.map((t, k) => [t, k]));
  // Field lengths (kept with the cached evidence: they never change), and their means over
  // the pool (BM25's length normalisation).
  const lengths = pool.map((c) => fieldLengths(c.evidence, fields));
  const mean = fields.map((_, j) => Math.max(1, lengths.reduce((n, l) => n + l[j]!, 0) / pool.length));
  const counts = new Float64Array(terms.length * fields.length);
  const titleField = fields.indexOf('searchTitle');
  const rows = pool.map((c, i) => {
    const text = c.evidence?.text;
    let bm25 = 0;
    let covered = 0;
    let inTitle = 0;
    let inHeadings = 0;
    let titleTerms = 0;
    let matched = '';
    if (text && matcher) {
      // Each field is read once for every term at once.
      counts.fill(0);
      fields.forEach((f, j) => {
        const value = text[f];
        if (value === '') return;
        matcher.lastIndex = 0;
        for (let m = matcher.exec(value); m !== null; m = matcher.exec(value)) counts[termIndex.get(m[1]!)! * fields.length + j]! += 1;
      });
      terms.forEach((_, k) => {
        let tf = 0;
        let title = 0;
        let heading = 0;
        fields.forEach((f, j) => {
          const n = counts[k * fields.length + j]!;
          if (n === 0) return;
          tf += (w.fields[f] * n) / (1 - w.b + (w.b * lengths[i]![j]!) / mean[j]!);
          if (f === 'searchTitle') title = 1;
          if (f === 'searchTitle' || f === 'searchBreadcrumb') heading = 1;
        });
        if (tf > 0) {
          covered++;
          matched += matched === '' ? String(k) : `,${k}`;
        }
        bm25 += (idf[k]! * tf) / (w.k1 + tf);
        inTitle += title * idf[k]!;
        titleTerms += title;
        inHeadings += heading * idf[k]!;
      });
    }
    const vector = c.evidence?.vector;
    const cosine = queryVector && vector ? dot(queryVector, vector) : undefined;
    return {
      doc: c.doc,
      bm25,
      cosine,
      coverage: terms.length > 0 ? covered / terms.length : 0,
      matched,
      title: inTitle / totalIdf,
      headings: inHeadings / totalIdf,
      named: terms.length > 0 && titleTerms === terms.length && lengths[i]![titleField]! === terms.length,
      index: i,
    };
  });
  let maxBm25 = 0;
  let bestCosine = -Infinity;
  for (const r of rows) {
    maxBm25 = Math.max(maxBm25, r.bm25);
    if (r.cosine !== undefined) bestCosine = Math.max(bestCosine, r.cosine);
  }
  const scored = rows.map((r) => {
    const grade = r.cosine === undefined ? 0 : Math.max(0, 1 - (bestCosine - r.cosine) / w.cosineScale);
    const lexical = maxBm25 > 0 ? r.bm25 / maxBm25 : 0;
    const score = w.lexical * lexical + w.semantic * grade + w.title * r.title + w.headings * r.headings;
    return {
      doc: r.doc,
      score,
      cosine: r.cosine,
      coverage: r.coverage,
      matched: r.matched,
      parts: { lexical, semantic: grade, title: r.title, headings: r.headings },
      ...(r.named ? { named: true } : {}),
      index: r.index,
    };
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map(({ index: _index, ...rest }) => rest);
}
