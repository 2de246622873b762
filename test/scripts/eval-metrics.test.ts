/**
 * The eval metrics on hand-computed examples (shared/eval/README.md protocol). Expected
 * values are written out as the formulas with their numbers, so a reader can check them.
 */
import test from 'ava';
import {
  dcgAtK,
  gradeMap,
  hitAtK,
  idealDcgAtK,
  meanScores,
  missScores,
  ndcgAtK,
  recallAtK,
  reciprocalRank,
  scoreRanking,
  type Qrel,
} from '../../scripts/eval/metrics';

const close = (t: { true(v: boolean, m?: string): void }, actual: number, expected: number) =>
  t.true(Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);

const qrels: Qrel[] = [
  { path: 'a.md', grade: 3 },
  { path: 'b.md', grade: 2 },
];
const grades = gradeMap(qrels);
// x is ungraded; a repeats at rank 3.
const ranked = ['x.md', 'a.md', 'a.md', 'b.md', 'y.md'];

test('Hit@k is 1 once a relevant entry is within the first k', (t) => {
  t.is(hitAtK(ranked, grades, 1), 0);
  t.is(hitAtK(ranked, grades, 2), 1);
  t.is(hitAtK(ranked, grades, 3), 1);
  t.is(hitAtK(ranked, grades, 10), 1);
});

test('MRR is 1 / rank of the first relevant entry', (t) => {
  close(t, reciprocalRank(ranked, grades), 1 / 2);
  close(t, reciprocalRank(['a.md'], grades), 1);
  close(t, reciprocalRank(['u', 'u', 'b.md', 'a.md'], grades), 1 / 3);
});

test('MRR only looks at the first 10 entries', (t) => {
  const filler = Array.from({ length: 9 }, (_, i) => `f${i}.md`);
  close(t, reciprocalRank([...filler, 'b.md'], grades), 1 / 10);
  t.is(reciprocalRank([...filler, 'z.md', 'a.md'], grades), 0);
  t.is(hitAtK([...filler, 'b.md'], grades, 10), 1);
});

test('DCG counts a repeated path only at its first occurrence', (t) => {
  // rank 2: a (2^3 − 1) / log2(3); rank 3: a again, 0; rank 4: b (2^2 − 1) / log2(5).
  close(t, dcgAtK(ranked, grades, 5), 7 / Math.log2(3) + 3 / Math.log2(5));
  close(t, dcgAtK(ranked, grades, 3), 7 / Math.log2(3));
  t.is(dcgAtK(ranked, grades, 1), 0);
});

test('ideal DCG sorts the qrel grades from highest and stops at k', (t) => {
  const g = gradeMap([
    { path: 'p1', grade: 1 },
    { path: 'p3', grade: 3 },
    { path: 'p2', grade: 2 },
    { path: 'p3b', grade: 3 },
  ]);
  close(t, idealDcgAtK(g, 1), 7);
  close(t, idealDcgAtK(g, 3), 7 + 7 / Math.log2(3) + 3 / 2);
  close(t, idealDcgAtK(g, 10), 7 + 7 / Math.log2(3) + 3 / 2 + 1 / Math.log2(5));
});

test('nDCG@k divides by the ideal DCG at the same k', (t) => {
  const ideal5 = 7 + 3 / Math.log2(3);
  close(t, ndcgAtK(ranked, grades, 5), (7 / Math.log2(3) + 3 / Math.log2(5)) / ideal5);
  close(t, ndcgAtK(ranked, grades, 3), 7 / Math.log2(3) / ideal5);
  t.is(ndcgAtK(ranked, grades, 1), 0);
  close(t, ndcgAtK(['a.md', 'b.md'], grades, 10), 1);
  // The ideal order, with a repeat of the best file in between, scores below 1.
  close(t, ndcgAtK(['a.md', 'a.md', 'b.md'], grades, 3), (7 + 3 / 2) / ideal5);
});

test('Recall@k counts distinct relevant paths over the number of qrels', (t) => {
  t.is(recallAtK(ranked, grades, 1), 0);
  t.is(recallAtK(ranked, grades, 3), 1 / 2);
  t.is(recallAtK(ranked, grades, 5), 1);
  t.is(recallAtK(['a.md', 'a.md', 'a.md'], grades, 3), 1 / 2);
});

test('ungraded paths score nothing', (t) => {
  const s = scoreRanking(['u1.md', 'u2.md', 'u3.md'], qrels);
  t.is(s.mrr, 0);
  t.deepEqual(s.hit, { 1: 0, 3: 0, 5: 0, 10: 0 });
  t.deepEqual(s.ndcg, { 1: 0, 3: 0, 5: 0, 10: 0 });
  t.deepEqual(s.recall, { 1: 0, 3: 0, 5: 0, 10: 0 });
});

test('an empty list scores zero everywhere, like an error', (t) => {
  const s = scoreRanking([], qrels);
  t.deepEqual(s, missScores());
  t.deepEqual(s, { mrr: 0, hit: { 1: 0, 3: 0, 5: 0, 10: 0 }, ndcg: { 1: 0, 3: 0, 5: 0, 10: 0 }, recall: { 1: 0, 3: 0, 5: 0, 10: 0 } });
});

test('a qrel graded 0 is not relevant and not counted in recall', (t) => {
  const g = gradeMap([
    { path: 'a.md', grade: 0 },
    { path: 'b.md', grade: 1 },
  ]);
  t.is(hitAtK(['a.md', 'b.md'], g, 1), 0);
  t.is(reciprocalRank(['a.md', 'b.md'], g), 1 / 2);
  t.is(recallAtK(['a.md', 'b.md'], g, 3), 1);
  close(t, idealDcgAtK(g, 3), 1);
});

test('a path listed twice in the qrels keeps its highest grade', (t) => {
  const g = gradeMap([
    { path: 'a.md', grade: 1 },
    { path: 'a.md', grade: 3 },
  ]);
  t.is(g.get('a.md'), 3);
  t.is(recallAtK(['a.md'], g, 1), 1);
});

test('scoreRanking reports every cut-off', (t) => {
  const s = scoreRanking(ranked, qrels);
  close(t, s.mrr, 0.5);
  t.deepEqual(s.hit, { 1: 0, 3: 1, 5: 1, 10: 1 });
  t.deepEqual(s.recall, { 1: 0, 3: 0.5, 5: 1, 10: 1 });
  close(t, s.ndcg[10], s.ndcg[5]);
});

test('meanScores averages each metric, and is zero for no questions', (t) => {
  const perfect = scoreRanking(['a.md', 'b.md'], qrels);
  const m = meanScores([perfect, missScores()]);
  t.is(m.mrr, 0.5);
  t.is(m.hit[1], 0.5);
  t.is(m.ndcg[10], 0.5);
  t.is(m.recall[3], 0.5);
  t.deepEqual(meanScores([]), missScores());
});
