/**
 * Means over questions (overall, per library, per intent) and the selection of the worst
 * questions for debugging. Pure: the CLI feeds it the per-question results.
 */
import { median, percentile } from '../bench/harness/stats';
import { meanScores, type Qrel, type QueryScores } from './metrics';

export interface EntryResult {
  index: number;
  library: string;
  version?: string;
  libraryId: string;
  query: string;
  intent: string;
  qrels: Qrel[];
  /** HTTP status of the answer; 0 when the request itself failed. */
  status: number;
  error?: string;
  latencyMs: number;
  tokens: number;
  /** The ranked list: `snippets[].source.path` in order. */
  paths: string[];
  scores: QueryScores;
  rateLimited: number;
}

export interface GroupSummary {
  n: number;
  errors: number;
  /** Means over all questions of the group; an error scores 0 everywhere. */
  scores: QueryScores;
  /** Over the calls that got an HTTP answer. */
  medianLatencyMs: number;
  p95LatencyMs: number;
  /** Over the questions answered with 200. */
  meanTokens: number;
}

export interface Aggregates {
  overall: GroupSummary;
  byLibrary: Record<string, GroupSummary>;
  byIntent: Record<string, GroupSummary>;
}

export function summarizeGroup(results: readonly EntryResult[]): GroupSummary {
  const answered = results.filter((r) => r.status > 0).map((r) => r.latencyMs);
  const ok = results.filter((r) => r.status === 200);
  const round = (v: number) => (Number.isNaN(v) ? v : Math.round(v * 10) / 10);
  return {
    n: results.length,
    errors: results.filter((r) => r.error !== undefined).length,
    scores: meanScores(results.map((r) => r.scores)),
    medianLatencyMs: round(median(answered)),
    p95LatencyMs: round(answered.length > 0 ? percentile(answered, 95) : Number.NaN),
    meanTokens: ok.length === 0 ? 0 : Math.round(ok.reduce((n, r) => n + r.tokens, 0) / ok.length),
  };
}

function groupBy(results: readonly EntryResult[], key: (r: EntryResult) => string): Record<string, GroupSummary> {
  const groups = new Map<string, EntryResult[]>();
  for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, summarizeGroup(groups.get(k) ?? [])]));
}

export function aggregate(results: readonly EntryResult[]): Aggregates {
  return {
    overall: summarizeGroup(results),
    byLibrary: groupBy(results, (r) => r.library),
    byIntent: groupBy(results, (r) => r.intent),
  };
}

/**
 * The questions to look at first: every one with MRR 0 (up to `maxMisses`), and at least
 * `atLeast` in all, filled up with the lowest MRR, then the lowest nDCG@10. Perfect answers
 * (MRR 1 and nDCG@10 1) are never listed.
 */
export function selectWorst(results: readonly EntryResult[], atLeast = 10, maxMisses = 25): EntryResult[] {
  const sorted = results
    .filter((r) => r.scores.mrr < 1 || r.scores.ndcg[10] < 1)
    .sort((a, b) => a.scores.mrr - b.scores.mrr || a.scores.ndcg[10] - b.scores.ndcg[10] || a.index - b.index);
  const misses = sorted.filter((r) => r.scores.mrr === 0).length;
  return sorted.slice(0, Math.max(Math.min(misses, maxMisses), Math.min(atLeast, sorted.length)));
}
