/**
 * Usage per UTC day: the counts of one library-day, the date arithmetic of metrics windows
 * and the sums reads make of the writers' documents (pure functions of usage.ts).
 */
import type { HourCounts, UsageDailyRecord } from '../store/models/usage';

/** The pseudo library id of the all-libraries totals. */
export const ALL_LIBRARIES = '*';

export interface DayUsage {
  date: string;
  api: number;
  txt: number;
  mcp: number;
  playground: number;
  tokens: number;
}

/** One UTC hour's counts (`hour`: ISO start of the hour, "2026-11-26T13:00:00.000Z"). */
export interface HourUsage {
  hour: string;
  api: number;
  txt: number;
  mcp: number;
  playground: number;
  tokens: number;
}

/** Requests and tokens over a window, by channel (the dashboard's playground apart). */
export type UsageTotals = { requests: number; tokens: number; byChannel: { api: number; txt: number; mcp: number; playground: number } };

/** One library-day's counts (or, with `ALL_LIBRARIES`, one day's totals) not yet stored. */
export interface PendingDay {
  libraryId: string;
  date: string;
  api: number;
  txt: number;
  mcp: number;
  playground: number;
  tokens: number;
  /** Per UTC hour ("00"…"23"). */
  hours: Record<string, Required<HourCounts>>;
  teamId: string | null;
}

const CHANNEL_FIELDS = ['api', 'txt', 'mcp', 'playground', 'tokens'] as const;

/** Adds `from`'s counts (a day's or an hour's) into `into`. */
export function addCounts(into: Required<HourCounts>, from: HourCounts | undefined): void {
  for (const f of CHANNEL_FIELDS) into[f] += from?.[f] ?? 0;
}

export const emptyCounts = (): Required<HourCounts> => ({ api: 0, txt: 0, mcp: 0, playground: 0, tokens: 0 });

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
    const t = totals.get(d.date) ?? { libraryId: ALL_LIBRARIES, date: d.date, api: 0, txt: 0, mcp: 0, playground: 0, tokens: 0, hours: {}, teamId: null };
    addCounts(t, d);
    for (const [hh, counts] of Object.entries(d.hours)) addCounts((t.hours[hh] ??= emptyCounts()), counts);
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

type CountedDay = Pick<UsageDailyRecord, 'date'> & HourCounts & { h?: Record<string, HourCounts>; hours?: Record<string, HourCounts> };

/** One row per date, summing the writers' documents of that date. */
export function fillDays(dates: string[], docs: CountedDay[]): DayUsage[] {
  const byDate = new Map(dates.map((date) => [date, { date, ...emptyCounts() }]));
  for (const d of docs) {
    const row = byDate.get(d.date);
    if (row) addCounts(row, d);
  }
  return [...byDate.values()];
}

/** The last `hours` UTC hours' starts, oldest first, ending with the current hour. */
export function lastHours(hours: number, now: Date): string[] {
  const current = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  return Array.from({ length: hours }, (_, i) => new Date(current - (hours - 1 - i) * 3_600_000).toISOString());
}

/** One row per hour, from the hourly counts inside day rows (stored `h`, or pending `hours`). */
export function fillHours(hours: string[], docs: CountedDay[]): HourUsage[] {
  const byHour = new Map(hours.map((hour) => [hour, { hour, ...emptyCounts() }]));
  for (const d of docs) {
    for (const [hh, counts] of Object.entries(d.h ?? d.hours ?? {})) {
      const row = byHour.get(`${d.date}T${hh}:00:00.000Z`);
      if (row) addCounts(row, counts);
    }
  }
  return [...byHour.values()];
}

export function totalsOf(perDay: DayUsage[]): UsageTotals {
  const sum = emptyCounts();
  for (const d of perDay) addCounts(sum, d);
  const { tokens, ...byChannel } = sum;
  return { requests: byChannel.api + byChannel.txt + byChannel.mcp + byChannel.playground, tokens, byChannel };
}

export interface CallerUsage {
  id: string;
  api: number;
  txt: number;
  mcp: number;
  playground: number;
  requests: number;
  tokens: number;
}

/**
 * Sums per caller row (`@key:<id>`, `@team:<id>`) over days; the answer lists one kind of
 * caller, named without its prefix, most requests first.
 */
export function callerUsage(rows: Iterable<Pick<UsageDailyRecord, 'libraryId'> & HourCounts>): (prefix: string) => CallerUsage[] {
  const sums = new Map<string, CallerUsage>();
  for (const d of rows) {
    const s = sums.get(d.libraryId) ?? { id: d.libraryId, ...emptyCounts(), requests: 0 };
    addCounts(s, d);
    s.requests += (d.api ?? 0) + (d.txt ?? 0) + (d.mcp ?? 0) + (d.playground ?? 0);
    sums.set(d.libraryId, s);
  }
  return (prefix) =>
    [...sums.values()]
      .filter((s) => s.id.startsWith(prefix))
      .map((s) => ({ ...s, id: s.id.slice(prefix.length) }))
      .sort((a, b) => b.requests - a.requests || a.id.localeCompare(b.id));
}

/** A day row's hourly counts as `$inc` paths (`h.13.api`): non-zero ones only. */
export function hourIncrements(day: PendingDay): Record<string, number> {
  const inc: Record<string, number> = {};
  for (const [hh, counts] of Object.entries(day.hours)) {
    for (const [field, n] of Object.entries(counts)) if (n) inc[`h.${hh}.${field}`] = n;
  }
  return inc;
}
