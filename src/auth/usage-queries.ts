/**
 * The stored form of the queries usage metrics keep: secrets removed, normalised, and
 * keyed by library, day and a hash of the normalised text.
 */
import crypto from 'node:crypto';
import { scrubSecrets } from '../logger';

/** One query as asked of a library on a day, with how often. */
export interface AskedQuery {
  libraryId: string;
  date: string;
  query: string;
  /** Times it was answered. */
  count: number;
  /** Times it found no snippet at all (the library lacks what was asked). */
  zero?: number;
  /** Sum of the answers' top scores per query term, and how many answers it sums. */
  scoreSum?: number;
  scored?: number;
}

/** Queries as asked → their stored form (secrets removed, normalised), keyed by library-day and hash. */
export function normaliseQueries(asked: Map<string, AskedQuery>): Map<string, AskedQuery> {
  const out = new Map<string, AskedQuery>();
  for (const q of asked.values()) {
    const query = normaliseQuery(q.query);
    if (!query) continue;
    const key = `${q.libraryId}|${q.date}|${queryHash(query)}`;
    const pending = out.get(key);
    if (pending) {
      pending.count += q.count;
      pending.zero = (pending.zero ?? 0) + (q.zero ?? 0);
      pending.scoreSum = (pending.scoreSum ?? 0) + (q.scoreSum ?? 0);
      pending.scored = (pending.scored ?? 0) + (q.scored ?? 0);
    } else out.set(key, { ...q, query });
  }
  return out;
}

const TOKEN_PATTERNS = [
  /\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16})\b/g,
  /\b((?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)\s*[:=]\s*)\S+/gi,
  /[A-Za-z0-9+/_=-]{40,}/g,
];

/**
 * The stored form of a query: secrets removed (API keys, hosting tokens, credentials in
 * URLs, `password=…`, long opaque strings), whitespace collapsed, lowercased, at most
 * 200 characters. Null when nothing is left.
 */
export function normaliseQuery(query: string): string | null {
  let s = scrubSecrets(String(query));
  s = s.replace(TOKEN_PATTERNS[0], '***').replace(TOKEN_PATTERNS[1], '$1***').replace(TOKEN_PATTERNS[2], '***');
  s = s.replace(/\s+/g, ' ').trim().toLowerCase().slice(0, 200).trim();
  return s ? s : null;
}

export function queryHash(normalised: string): string {
  return crypto.createHash('sha256').update(normalised).digest('hex').slice(0, 16);
}

/** A question whose answers scored low for its library. */
export interface LowScoreQuery {
  libraryId: string;
  query: string;
  count: number;
  /** Its mean top score per query term, as a share of the library's median question. */
  relativeScore: number;
}

/** Distinct scored questions a library needs before "low for this library" means anything. */
export const MIN_SCORED_QUESTIONS = 5;
/** A question is low when its score is under this share of its library's median question. */
export const LOW_SCORE_SHARE = 0.5;

/**
 * The questions that were answered, but weakly: a question's score is the mean over its
 * answers of the top candidate's search score divided by the question's analysed terms
 * (BM25 sums per term, so longer questions would otherwise look better), and it is low when
 * under half the median of its own library's questions in the window. Relative to the
 * library, not a raw constant: BM25 scores depend on each index's size and term statistics,
 * so a score that is weak for a large library is strong for a small one. A library with too
 * few scored questions has no distribution yet and is left out.
 */
export function lowScoreQueries(rows: Iterable<Pick<AskedQuery, 'libraryId' | 'query' | 'count' | 'scoreSum' | 'scored'>>, limit = 20): LowScoreQuery[] {
  const byQuestion = new Map<string, { libraryId: string; query: string; count: number; sum: number; n: number }>();
  for (const r of rows) {
    if (!r.scored) continue;
    const key = `${r.libraryId}|${r.query}`;
    const q = byQuestion.get(key) ?? { libraryId: r.libraryId, query: r.query, count: 0, sum: 0, n: 0 };
    q.count += r.count;
    q.sum += r.scoreSum ?? 0;
    q.n += r.scored;
    byQuestion.set(key, q);
  }
  const byLibrary = new Map<string, Array<{ libraryId: string; query: string; count: number; score: number }>>();
  for (const q of byQuestion.values()) {
    const list = byLibrary.get(q.libraryId) ?? [];
    list.push({ libraryId: q.libraryId, query: q.query, count: q.count, score: q.sum / q.n });
    byLibrary.set(q.libraryId, list);
  }
  const out: LowScoreQuery[] = [];
  for (const list of byLibrary.values()) {
    if (list.length < MIN_SCORED_QUESTIONS) continue;
    const median = medianOf(list.map((q) => q.score));
    if (!(median > 0)) continue;
    for (const q of list)
      if (q.score < LOW_SCORE_SHARE * median)
        out.push({ libraryId: q.libraryId, query: q.query, count: q.count, relativeScore: Math.round((q.score / median) * 100) / 100 });
  }
  return out.sort((a, b) => a.relativeScore - b.relativeScore || b.count - a.count || a.query.localeCompare(b.query)).slice(0, limit);
}

function medianOf(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Questions that found nothing, summed per library and question, most frequent first. */
export function rankZeroResultQueries(
  rows: Iterable<{ libraryId: string; query: string; zero?: number }>,
  limit = 20,
): Array<{ libraryId: string; query: string; count: number }> {
  const zero = new Map<string, { libraryId: string; query: string; count: number }>();
  for (const q of rows) {
    const key = `${q.libraryId}|${q.query}`;
    const z = zero.get(key) ?? { libraryId: q.libraryId, query: q.query, count: 0 };
    z.count += q.zero ?? 0;
    zero.set(key, z);
  }
  return [...zero.values()].sort((a, b) => b.count - a.count || a.query.localeCompare(b.query)).slice(0, limit);
}
