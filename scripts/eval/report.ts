/** The eval's console report: ranking and recall tables, then errors and worst questions. */
import { CUTOFFS, gradeMap } from './metrics';
import { selectWorst, type Aggregates, type EntryResult, type GroupSummary } from './aggregate';
import { fixed, formatTable } from './table';

function groupRows(agg: Aggregates): Array<[string, GroupSummary]> {
  return [
    ['overall', agg.overall],
    ...Object.entries(agg.byLibrary).map(([k, g]): [string, GroupSummary] => [`library ${k}`, g]),
    ...Object.entries(agg.byIntent).map(([k, g]): [string, GroupSummary] => [`intent ${k}`, g]),
  ];
}

export function formatRankingTable(agg: Aggregates): string {
  const head = ['group', 'n', 'MRR', ...CUTOFFS.map((k) => `Hit@${k}`), ...CUTOFFS.map((k) => `nDCG@${k}`)];
  const rows = groupRows(agg).map(([name, g]) => [
    name,
    String(g.n),
    fixed(g.scores.mrr),
    ...CUTOFFS.map((k) => fixed(g.scores.hit[k])),
    ...CUTOFFS.map((k) => fixed(g.scores.ndcg[k])),
  ]);
  return formatTable(head, rows);
}

export function formatRecallTable(agg: Aggregates): string {
  const head = ['group', 'n', ...CUTOFFS.map((k) => `R@${k}`), 'tokens', 'p50 ms', 'p95 ms', 'errors'];
  const rows = groupRows(agg).map(([name, g]) => [
    name,
    String(g.n),
    ...CUTOFFS.map((k) => fixed(g.scores.recall[k])),
    String(g.meanTokens),
    fixed(g.medianLatencyMs, 0),
    fixed(g.p95LatencyMs, 0),
    String(g.errors),
  ]);
  return formatTable(head, rows);
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The worst questions with their top 3 paths, each marked with its grade ([-] = ungraded). */
export function formatWorst(results: readonly EntryResult[], atLeast = 10): string {
  const answered = results.filter((r) => r.error === undefined);
  if (answered.length === 0) return '  (no question was answered)';
  const worst = selectWorst(answered, atLeast);
  if (worst.length === 0) return '  (every answer is perfect)';
  return worst
    .map((r) => {
      const grades = gradeMap(r.qrels);
      const top = r.paths.slice(0, 3).map((p, i) => `      ${i + 1}. [${grades.get(p) ?? '-'}] ${p}`);
      const wanted = [...r.qrels].sort((a, b) => b.grade - a.grade).map((q) => `${q.path} (${q.grade})`);
      return [
        `  #${r.index + 1} ${r.libraryId} [${r.intent}] MRR ${fixed(r.scores.mrr)} nDCG@10 ${fixed(r.scores.ndcg[10])}`,
        `    q: ${clip(r.query, 140)}`,
        ...(top.length > 0 ? top : ['      (no snippets)']),
        `    wanted: ${wanted.join(', ')}`,
      ].join('\n');
    })
    .join('\n');
}

export function formatErrors(results: readonly EntryResult[]): string {
  const errors = results.filter((r) => r.error !== undefined);
  return errors.map((r) => `  #${r.index + 1} ${r.libraryId}: ${r.error}\n    q: ${clip(r.query, 140)}`).join('\n');
}
