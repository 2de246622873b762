/**
 * Usage per UTC day: the counts of one library-day, the date arithmetic of metrics windows
 * and the sums reads make of the writers' documents (pure functions of usage.ts).
 */
import type { UsageDailyRecord } from '../store/models/usage';

/** The pseudo library id of the all-libraries totals. */
export const ALL_LIBRARIES = '*';

export interface DayUsage {
  date: string;
  api: number;
  txt: number;
  mcp: number;
  tokens: number;
}

/** Requests and tokens over a window, by channel. */
export type UsageTotals = { requests: number; tokens: number; byChannel: { api: number; txt: number; mcp: number } };

/** One library-day's counts (or, with `ALL_LIBRARIES`, one day's totals) not yet stored. */
export interface PendingDay {
  libraryId: string;
  date: string;
  api: number;
  txt: number;
  mcp: number;
  tokens: number;
  teamId: string | null;
}

/**
 * Rows of the usage-by-caller breakdown share the daily counters under pseudo library ids:
 * `@key:<keyId>` (requests made with that API key) and `@team:<teamId>` (by members of that
 * team). Library keys always start with "/", so the two never mix.
 */
export const BY_KEY = '@key:';
export const BY_TEAM = '@team:';
export const isLibraryRow = (libraryId: string): boolean => libraryId.startsWith('/');

/** The all-libraries totals per day of per-library counts (caller rows are not libraries). */
export function dailyTotals(days: Iterable<PendingDay>): PendingDay[] {
  const totals = new Map<string, PendingDay>();
  for (const d of days) {
    if (!isLibraryRow(d.libraryId)) continue;
    const t = totals.get(d.date) ?? { libraryId: ALL_LIBRARIES, date: d.date, api: 0, txt: 0, mcp: 0, tokens: 0, teamId: null };
    t.api += d.api;
    t.txt += d.txt;
    t.mcp += d.mcp;
    t.tokens += d.tokens;
    totals.set(d.date, t);
  }
  return [...totals.values()];
}

export function utcDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The last `days` UTC dates, oldest first, ending with today's. */
export function lastDays(days: number, now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => utcDate(new Date(today - (days - 1 - i) * 86_400_000)));
}

/** One row per date, summing the writers' documents of that date. */
export function fillDays(dates: string[], docs: Array<Pick<UsageDailyRecord, 'date' | 'api' | 'txt' | 'mcp' | 'tokens'>>): DayUsage[] {
  const byDate = new Map(dates.map((date) => [date, { date, api: 0, txt: 0, mcp: 0, tokens: 0 }]));
  for (const d of docs) {
    const row = byDate.get(d.date);
    if (!row) continue;
    row.api += d.api ?? 0;
    row.txt += d.txt ?? 0;
    row.mcp += d.mcp ?? 0;
    row.tokens += d.tokens ?? 0;
  }
  return [...byDate.values()];
}

export function totalsOf(perDay: DayUsage[]): UsageTotals {
  const byChannel = { api: 0, txt: 0, mcp: 0 };
  let tokens = 0;
  for (const d of perDay) {
    byChannel.api += d.api;
    byChannel.txt += d.txt;
    byChannel.mcp += d.mcp;
    tokens += d.tokens;
  }
  return { requests: byChannel.api + byChannel.txt + byChannel.mcp, tokens, byChannel };
}

export interface CallerUsage {
  id: string;
  api: number;
  txt: number;
  mcp: number;
  requests: number;
  tokens: number;
}

/**
 * Sums per caller row (`@key:<id>`, `@team:<id>`) over days; the answer lists one kind of
 * caller, named without its prefix, most requests first.
 */
export function callerUsage(rows: Iterable<Pick<UsageDailyRecord, 'libraryId'> & Partial<Pick<UsageDailyRecord, 'api' | 'txt' | 'mcp' | 'tokens'>>>): (prefix: string) => CallerUsage[] {
  const sums = new Map<string, CallerUsage>();
  for (const d of rows) {
    const s = sums.get(d.libraryId) ?? { id: d.libraryId, api: 0, txt: 0, mcp: 0, requests: 0, tokens: 0 };
    s.api += d.api ?? 0;
    s.txt += d.txt ?? 0;
    s.mcp += d.mcp ?? 0;
    s.requests += (d.api ?? 0) + (d.txt ?? 0) + (d.mcp ?? 0);
    s.tokens += d.tokens ?? 0;
    sums.set(d.libraryId, s);
  }
  return (prefix) =>
    [...sums.values()]
      .filter((s) => s.id.startsWith(prefix))
      .map((s) => ({ ...s, id: s.id.slice(prefix.length) }))
      .sort((a, b) => b.requests - a.requests || a.id.localeCompare(b.id));
}
