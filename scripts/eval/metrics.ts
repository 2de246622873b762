/**
 * Retrieval metrics of the scoring protocol in shared/eval/README.md, as pure functions over
 * a ranked list of paths (one entry per returned snippet, so a path can repeat) and the
 * file-level qrels of one question. Ranks are 1-based in the formulas, 0-based in arrays.
 *
 * Relevance of an entry = the grade of its path in the qrels, 0 when the path is absent.
 * A qrel graded 0 is a judged non-relevant file: it is never "relevant" and does not count
 * in Recall's denominator (dev.yaml has none; grades there are 1–3).
 */

export interface Qrel {
  path: string;
  grade: number;
}

/** The cut-offs every metric is reported at. */
export const CUTOFFS = [1, 3, 5, 10] as const;
export type Cutoff = (typeof CUTOFFS)[number];

/** MRR only looks this deep: a first relevant entry below it scores 0. */
export const MRR_DEPTH = 10;

/** Path → grade; a path listed twice keeps its highest grade. */
export function gradeMap(qrels: readonly Qrel[]): Map<string, number> {
  const grades = new Map<string, number>();
  for (const q of qrels) grades.set(q.path, Math.max(q.grade, grades.get(q.path) ?? 0));
  return grades;
}

/** 1 when any of the first k entries is relevant, else 0. */
export function hitAtK(ranked: readonly string[], grades: ReadonlyMap<string, number>, k: number): number {
  return ranked.slice(0, k).some((p) => (grades.get(p) ?? 0) > 0) ? 1 : 0;
}

/** 1 / rank of the first relevant entry, 0 when none is within the first {@link MRR_DEPTH}. */
export function reciprocalRank(ranked: readonly string[], grades: ReadonlyMap<string, number>, depth = MRR_DEPTH): number {
  const i = ranked.slice(0, depth).findIndex((p) => (grades.get(p) ?? 0) > 0);
  return i === -1 ? 0 : 1 / (i + 1);
}

const gain = (grade: number): number => 2 ** grade - 1;
const discount = (rank: number): number => Math.log2(rank + 1);

/**
 * DCG over the first k entries, Σ (2^grade − 1) / log2(rank + 1), where a path counts only
 * at its first occurrence: a repeat still takes up its rank but adds nothing.
 */
export function dcgAtK(ranked: readonly string[], grades: ReadonlyMap<string, number>, k: number): number {
  const seen = new Set<string>();
  let dcg = 0;
  ranked.slice(0, k).forEach((p, i) => {
    if (seen.has(p)) return;
    seen.add(p);
    dcg += gain(grades.get(p) ?? 0) / discount(i + 1);
  });
  return dcg;
}

/** The best DCG@k the qrels allow: their grades sorted from highest, one per rank. */
export function idealDcgAtK(grades: ReadonlyMap<string, number>, k: number): number {
  return [...grades.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + gain(g) / discount(i + 1), 0);
}

/** DCG@k / ideal DCG@k; 0 when the qrels hold nothing relevant. */
export function ndcgAtK(ranked: readonly string[], grades: ReadonlyMap<string, number>, k: number): number {
  const ideal = idealDcgAtK(grades, k);
  return ideal === 0 ? 0 : dcgAtK(ranked, grades, k) / ideal;
}

/** Distinct relevant paths among the first k entries / number of relevant qrels. */
export function recallAtK(ranked: readonly string[], grades: ReadonlyMap<string, number>, k: number): number {
  const relevant = [...grades.values()].filter((g) => g > 0).length;
  if (relevant === 0) return 0;
  const found = new Set(ranked.slice(0, k).filter((p) => (grades.get(p) ?? 0) > 0));
  return found.size / relevant;
}

/** Every metric of one question, keyed by cut-off. */
export interface QueryScores {
  mrr: number;
  hit: Record<Cutoff, number>;
  ndcg: Record<Cutoff, number>;
  recall: Record<Cutoff, number>;
}

const byCutoff = (f: (k: number) => number): Record<Cutoff, number> => Object.fromEntries(CUTOFFS.map((k) => [k, f(k)])) as Record<Cutoff, number>;

/** Scores one ranked list against its qrels. */
export function scoreRanking(ranked: readonly string[], qrels: readonly Qrel[]): QueryScores {
  const grades = gradeMap(qrels);
  return {
    mrr: reciprocalRank(ranked, grades),
    hit: byCutoff((k) => hitAtK(ranked, grades, k)),
    ndcg: byCutoff((k) => ndcgAtK(ranked, grades, k)),
    recall: byCutoff((k) => recallAtK(ranked, grades, k)),
  };
}

/** The scores of a question that got no answer (an error counts as a miss). */
export function missScores(): QueryScores {
  return scoreRanking([], []);
}

/** The mean of each metric over several questions (all zeros for none). */
export function meanScores(scores: readonly QueryScores[]): QueryScores {
  const mean = (f: (s: QueryScores) => number): number => (scores.length === 0 ? 0 : scores.reduce((n, s) => n + f(s), 0) / scores.length);
  return {
    mrr: mean((s) => s.mrr),
    hit: byCutoff((k) => mean((s) => s.hit[k as Cutoff])),
    ndcg: byCutoff((k) => mean((s) => s.ndcg[k as Cutoff])),
    recall: byCutoff((k) => mean((s) => s.recall[k as Cutoff])),
  };
}
