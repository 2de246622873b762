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
