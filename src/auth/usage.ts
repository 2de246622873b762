/**
 * Usage metrics: requests per library, UTC day and channel, tokens served, and the top
 * queries. `record` never waits and never throws: events are summed in memory and written
 * about every 5 seconds by one flush at a time (`$inc` upserts in bounded bulks). Reads
 * take a turn between two write commands and add this instance's counts not yet written, so
 * they are exact without writing anything first (a read that flushed first waited for every
 * query asked since the last minute's write). Each instance writes only its own
 * documents (`<libraryId>|<date>|<writer>`), which reads sum, so counts are exact across
 * instances on FerretDB too. The store's side (the queries and bulk writes) is
 * store/usage-store.ts.
 */
import crypto from 'node:crypto';
import type { UsageChannel } from '../store/models/usage';
import type { Logger } from '../logger';
import { chunked, MAX_UPDATE_STATEMENTS } from '../store/bulk';
import type { UsageIncrement, UsageStore } from '../store/usage-store';
import { lowScoreQueries, normaliseQueries, rankZeroResultQueries, type AskedQuery, type LowScoreQuery } from './usage-queries';
import {
  ALL_LIBRARIES,
  BY_KEY,
  BY_TEAM,
  callerUsage,
  dailyTotals,
  emptyCounts,
  fillDays,
  hourIncrements,
  fillHours,
  isLibraryRow,
  lastDays,
  lastHours,
  totalsOf,
  utcDate,
  type CallerUsage,
  type DayUsage,
  type HourUsage,
  type PendingDay,
  type UsageTotals,
} from './usage-days';

export { normaliseQuery, queryHash } from './usage-queries';

export type { UsageChannel };
export { ALL_LIBRARIES, lastDays, utcDate, type CallerUsage, type DayUsage, type HourUsage } from './usage-days';

export interface UsageEvent {
  libraryId: string;
  channel: UsageChannel;
  tokens: number;
  query?: string;
  teamId?: string | null;
  /** The API key the request came with (usage by key). */
  keyId?: string | null;
  /** The caller's team (usage by team; `teamId` is the library's). */
  callerTeamId?: string | null;
  /** The question found nothing: only the query is counted (as a zero-result query), not a request. */
  noResults?: boolean;
  /** The answer's top search score per query term (low-score questions; see lowScoreQueries). */
  score?: number;
}

/** Requests and tokens of one API key or team over a window. */
export interface UsageBreakdown {
  byKey: CallerUsage[];
  byTeam: CallerUsage[];
  /** Questions that found nothing, most frequent first, with their library. */
  zeroResultQueries: Array<{ libraryId: string; query: string; count: number }>;
  /** Questions answered weakly for their library (see lowScoreQueries), weakest first. */
  lowScoreQueries: LowScoreQuery[];
}

/** Charts' buckets: `hour` covers the last `days` × 24 hours (days ≤ 7), `day` the last `days` dates. */
export type UsageBucket = 'hour' | 'day';

export interface LibraryMetrics {
  libraryId: string;
  days: number;
  perDay: DayUsage[];
  /** With hourly buckets: one row per UTC hour of the window. */
  perHour?: HourUsage[];
  totals: UsageTotals;
  topQueries: Array<{ query: string; count: number }>;
}

export interface UsageSummary {
  days: number;
  perDay: DayUsage[];
  perHour?: HourUsage[];
  totals: UsageTotals;
  topLibraries: Array<{ libraryId: string; requests: number; tokens: number }>;
}

/** Distinct queries kept per library and day. */
export const MAX_QUERIES_PER_DAY = 50;
export const TOP_QUERIES = 10;
const CHANNELS: readonly UsageChannel[] = ['api', 'txt', 'mcp', 'playground'];

/** One counter document's increment that a flush took out of memory and has not written. */
type Unwritten = { kind: 'day'; day: PendingDay } | { kind: 'query'; key: string; query: AskedQuery };

/** What this instance counted and the store does not have yet, as a read sees it. */
interface Pending {
  /** Per library-day, and the all-libraries totals (`ALL_LIBRARIES`) per day. */
  days: PendingDay[];
  /** Normalised queries that will be stored (within the per-day bound). */
  queries: AskedQuery[];
}

export class UsageService {
  private days = new Map<string, PendingDay>();
  /** Per library-day and query as asked (normalised when written): `<libraryId>|<date>|<query>`. */
  private queries = new Map<string, AskedQuery>();
  private queriesWrittenAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  /** One flush at a time. */
  private flushing: Promise<void> = Promise.resolve();
  /** Turns on the store: one write command or one read at a time, in order. */
  private io: Promise<unknown> = Promise.resolve();
  /** Increments taken out of memory by a flush and not written yet (reads count them). */
  private readonly unwritten = new Set<Unwritten>();
  private today = { until: 0, date: '' };
  /** This instance's documents are `…|<writer>`: it is their only writer. */
  private readonly writer = crypto.randomBytes(6).toString('base64url');
  /** Per library-day, the query keys this writer has stored (for the per-day bound). */
  private readonly storedQueries = new Map<string, Set<string>>();

  constructor(
    private readonly store: UsageStore,
    private readonly log: Logger,
    private readonly flushDelayMs = 5000,
    /**
     * Query counts (the top-queries list) are written at most this often by the timer: a
     * popular query asked all minute is one update, not one per 5 seconds. Reads add what is
     * not written yet, so this instance's counts are always exact.
     */
    private readonly queryFlushMs = 60_000,
  ) {}

  /** Counts one served request. Fire-and-forget: never throws, never waits. */
  record(event: UsageEvent): void {
    try {
      if (typeof event.libraryId !== 'string' || !event.libraryId || !CHANNELS.includes(event.channel)) return;
      const tokens = Number.isFinite(event.tokens) && event.tokens > 0 ? Math.round(event.tokens) : 0;
      const date = this.utcToday();
      const hour = String(new Date().getUTCHours()).padStart(2, '0');
      const dayKey = `${event.libraryId}|${date}`;
      const bump = (libraryId: string, teamId: string | null) => {
        const key = `${libraryId}|${date}`;
        let day = this.days.get(key);
        if (!day) {
          day = { libraryId, date, ...emptyCounts(), hours: {}, teamId };
          this.days.set(key, day);
        }
        const inHour = (day.hours[hour] ??= emptyCounts());
        day[event.channel] += 1;
        day.tokens += tokens;
        inHour[event.channel] += 1;
        inHour.tokens += tokens;
      };
      if (!event.noResults) {
        bump(event.libraryId, event.teamId ?? null);
        if (event.keyId) bump(`${BY_KEY}${event.keyId}`, null);
        if (event.callerTeamId) bump(`${BY_TEAM}${event.callerTeamId}`, null);
      }
      if (typeof event.query === 'string' && event.query !== '') {
        const queryKey = `${dayKey}|${event.query}`;
        const answered = event.noResults ? 0 : 1;
        const zero = event.noResults ? 1 : 0;
        const scored = !event.noResults && typeof event.score === 'number' && Number.isFinite(event.score) ? 1 : 0;
        const scoreSum = scored ? event.score! : 0;
        const pending = this.queries.get(queryKey);
        if (pending) {
          pending.count += answered;
          pending.zero = (pending.zero ?? 0) + zero;
          pending.scoreSum = (pending.scoreSum ?? 0) + scoreSum;
          pending.scored = (pending.scored ?? 0) + scored;
        } else this.queries.set(queryKey, { libraryId: event.libraryId, date, query: event.query, count: answered, zero, scoreSum, scored });
      }
      if (this.days.size + this.queries.size >= 1000) void this.flush();
      else this.schedule();
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'usage event dropped');
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush({ queries: Date.now() - this.queriesWrittenAt >= this.queryFlushMs }), this.flushDelayMs);
    this.timer.unref();
  }

  /** Today's UTC date, recomputed once a day rather than per event. */
  private utcToday(): string {
    const now = Date.now();
    if (now >= this.today.until) {
      const date = utcDate(new Date(now));
      for (const dayId of this.storedQueries.keys()) if (!dayId.endsWith(`|${date}`)) this.storedQueries.delete(dayId);
      this.today = { until: Date.parse(`${date}T00:00:00.000Z`) + 86_400_000, date };
    }
    return this.today.date;
  }

  /**
   * Writes what has been recorded so far (one flush at a time); the timer's flushes leave
   * query counts for a later one until `queryFlushMs` has passed. Never rejects.
   */
  flush(options: { queries?: boolean } = {}): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const days = this.days;
    this.days = new Map();
    let queries = new Map<string, AskedQuery>();
    if (options.queries !== false || this.queries.size >= 1000) {
      queries = this.queries;
      this.queries = new Map();
      this.queriesWrittenAt = Date.now();
    } else if (this.queries.size > 0) {
      this.schedule();
    }
    const entries = this.takeForWriting(days, normaliseQueries(queries));
    this.flushing = this.flushing
      .then(() => this.write(entries))
      .catch((error: unknown) => {
        this.log.warn({ err: (error as Error).message }, 'usage metrics could not be written; the rest of this batch is lost');
      });
    return this.flushing;
  }

  /** Runs `fn` in the next turn on the store. */
  private turn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.io.then(fn, fn);
    this.io = run.catch(() => undefined);
    return run;
  }

  /**
   * A flush's increments: per library-day, the all-libraries totals per day, and the
   * queries within this writer's per-library-day bound (the first asked are kept; the
   * writer knows which it stored, as their only writer). Reads count them until written.
   */
  private takeForWriting(days: Map<string, PendingDay>, queries: Map<string, AskedQuery>): Unwritten[] {
    const entries: Unwritten[] = [...days.values(), ...dailyTotals(days.values())].map((day) => ({ kind: 'day', day }));
    for (const [key, query] of queries) {
      if (!this.keepsQuery(key, query)) continue;
      this.storedQueries.get(`${query.libraryId}|${query.date}`)?.add(key);
      entries.push({ kind: 'query', key, query });
    }
    for (const e of entries) this.unwritten.add(e);
    return entries;
  }

  /** Whether a query is (or will be) stored: already kept, or the day's bound leaves room. */
  private keepsQuery(key: string, q: AskedQuery, extra = new Map<string, number>()): boolean {
    const dayId = `${q.libraryId}|${q.date}`;
    let stored = this.storedQueries.get(dayId);
    if (!stored) this.storedQueries.set(dayId, (stored = new Set()));
    if (stored.has(key)) return true;
    const added = extra.get(dayId) ?? 0;
    if (stored.size + added >= MAX_QUERIES_PER_DAY) return false;
    extra.set(dayId, added + 1);
    return true;
  }

  /**
   * One flush: `$inc` upserts in commands of a few statements (store/bulk.ts, so FerretDB
   * cannot wedge), each in its own turn, so a read waits for one command at most, never
   * for a whole flush. Every document written here is this writer's own (`…|<writer>`) and
   * its commands go one at a time, so no other process or command updates it concurrently:
   * counts stay exact on FerretDB too, whose concurrent `$inc`s on one document lose
   * updates. Reads sum the writers' documents.
   */
  private async write(entries: Unwritten[]): Promise<void> {
    const writer = this.writer;
    const ops = entries.map((e): [Unwritten, UsageIncrement] => {
      if (e.kind === 'day') {
        const d = e.day;
        return [
          e,
          {
            _id: `${d.libraryId}|${d.date}|${writer}`,
            inc: {
              api: d.api,
              txt: d.txt,
              mcp: d.mcp,
              playground: d.playground,
              requests: d.api + d.txt + d.mcp + d.playground,
              tokens: d.tokens,
              ...hourIncrements(d),
            },
            setOnInsert: { libraryId: d.libraryId, date: d.date, teamId: d.teamId, writer },
          },
        ];
      }
      const q = e.query;
      return [
        e,
        {
          _id: `${e.key}|${writer}`,
          inc: { count: q.count, zero: q.zero ?? 0, scoreSum: q.scoreSum ?? 0, scored: q.scored ?? 0 },
          setOnInsert: { libraryId: q.libraryId, date: q.date, query: q.query, writer },
        },
      ];
    });
    try {
      for (const kind of ['day', 'query'] as const) {
        for (const chunk of chunked(
          ops.filter(([e]) => e.kind === kind),
          MAX_UPDATE_STATEMENTS,
        )) {
          await this.turn(async () => {
            await this.store.increment(
              kind,
              chunk.map(([, op]) => op),
            );
            for (const [e] of chunk) this.unwritten.delete(e);
          });
        }
      }
    } finally {
      // A failed command stops the flush: what is left is lost (the flush logs it).
      for (const e of entries) this.unwritten.delete(e);
    }
  }

  /**
   * Runs a read in a turn of its own: no command is half-done while it reads, and what
   * this instance counted but the store does not have is exactly the unwritten increments
   * plus the counts in memory, which `read` adds to what it finds stored.
   */
  private inTurn<T>(read: (pending: Pending) => Promise<T>): Promise<T> {
    return this.turn(() => {
      const days: PendingDay[] = [];
      const queries: AskedQuery[] = [];
      for (const e of this.unwritten) {
        if (e.kind === 'day') days.push(e.day);
        else queries.push(e.query);
      }
      days.push(...this.days.values(), ...dailyTotals(this.days.values()));
      const extra = new Map<string, number>();
      for (const [key, q] of normaliseQueries(this.queries)) if (this.keepsQuery(key, q, extra)) queries.push(q);
      return read({ days, queries });
    });
  }

  /** Per-day counts, totals and top queries of one library over the last `days` UTC days. */
  metrics(libraryId: string, days: number, now = new Date(), bucket: UsageBucket = 'day'): Promise<LibraryMetrics> {
    const dates = lastDays(days, now);
    // Hourly buckets of the last days × 24 hours reach into the day before the first date.
    const rowsFrom = bucket === 'hour' ? lastDays(days + 1, now)[0] : dates[0];
    return this.inTurn(async (pending) => {
      const [daily, queries] = await Promise.all([this.store.days(libraryId, rowsFrom), this.store.queries(libraryId, dates[0])]);
      const rows = [...daily, ...pending.days.filter((d) => d.libraryId === libraryId)];
      const perDay = fillDays(dates, rows);
      const perHour = bucket === 'hour' ? fillHours(lastHours(days * 24, now), rows) : undefined;
      const counted = new Map<string, number>();
      for (const q of queries) counted.set(q.query, (counted.get(q.query) ?? 0) + q.count);
      for (const q of pending.queries) if (q.libraryId === libraryId && q.date >= dates[0]) counted.set(q.query, (counted.get(q.query) ?? 0) + q.count);
      const topQueries = [...counted]
        .filter(([, count]) => count > 0) // a query that only ever found nothing was not served
        .map(([query, count]) => ({ query, count }))
        .sort((a, b) => b.count - a.count || a.query.localeCompare(b.query))
        .slice(0, TOP_QUERIES);
      return { libraryId, days, perDay, ...(perHour ? { perHour } : {}), totals: totalsOf(perDay), topQueries };
    });
  }

  /** The answer for a library nobody has used (or the caller may not see). */
  empty(libraryId: string, days: number, now = new Date(), bucket: UsageBucket = 'day'): LibraryMetrics {
    const perDay = fillDays(lastDays(days, now), []);
    return {
      libraryId,
      days,
      perDay,
      ...(bucket === 'hour' ? { perHour: fillHours(lastHours(days * 24, now), []) } : {}),
      totals: totalsOf(perDay),
      topQueries: [],
    };
  }

  /** Requests and tokens per day over all libraries, and the most used libraries. */
  summary(days: number, now = new Date(), bucket: UsageBucket = 'day'): Promise<UsageSummary> {
    const dates = lastDays(days, now);
    return this.inTurn(async (pending) => {
      const unwritten = pending.days.filter((d) => d.date >= dates[0] && isLibraryRow(d.libraryId));
      // Hourly buckets of the last days × 24 hours reach into the day before the first date.
      const all = await this.store.days(ALL_LIBRARIES, bucket === 'hour' ? lastDays(days + 1, now)[0] : dates[0]);
      const rows = [...all, ...pending.days.filter((d) => d.libraryId === ALL_LIBRARIES)];
      const perDay = fillDays(dates, rows);
      const perHour = bucket === 'hour' ? fillHours(lastHours(days * 24, now), rows) : undefined;
      // Every library's sum (not only the stored top ten): unwritten counts can reorder them.
      const stored = await this.store.requestsPerLibrary(dates[0]);
      const requests = new Map(stored.map((r) => [r._id, r.requests]));
      const tokens = new Map<string, number>();
      for (const d of unwritten) {
        requests.set(d.libraryId, (requests.get(d.libraryId) ?? 0) + d.api + d.txt + d.mcp + d.playground);
        tokens.set(d.libraryId, (tokens.get(d.libraryId) ?? 0) + d.tokens);
      }
      const top = [...requests].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, 10);
      const tokenDocs = await this.store.tokensOf(
        top.map(([id]) => id),
        dates[0],
      );
      for (const d of tokenDocs) tokens.set(d.libraryId, (tokens.get(d.libraryId) ?? 0) + (d.tokens ?? 0));
      const topLibraries = top.map(([libraryId, n]) => ({ libraryId, requests: n, tokens: tokens.get(libraryId) ?? 0 }));
      return { days, perDay, ...(perHour ? { perHour } : {}), totals: totalsOf(perDay), topLibraries };
    });
  }

  /**
   * Usage by API key and by team (the caller's), and the questions that found nothing, over
   * the last `days` UTC days: stored counts plus this instance's unwritten ones, as above.
   */
  breakdown(days: number, now = new Date()): Promise<UsageBreakdown> {
    const dates = lastDays(days, now);
    return this.inTurn(async (pending) => {
      const [rows, zeros, scored] = await Promise.all([
        this.store.callerDays(dates[0]),
        this.store.zeroResultQueries(dates[0]),
        this.store.scoredQueries(dates[0]),
      ]);
      const callers = callerUsage([...rows, ...pending.days.filter((p) => p.date >= dates[0] && !isLibraryRow(p.libraryId) && p.libraryId !== ALL_LIBRARIES)]);
      const unwrittenZeros = pending.queries.filter((q) => q.date >= dates[0] && (q.zero ?? 0) > 0);
      const zeroResultQueries = rankZeroResultQueries([...zeros, ...unwrittenZeros]);
      const unwritten = pending.queries.filter((q) => q.date >= dates[0] && (q.scored ?? 0) > 0);
      return { byKey: callers(BY_KEY), byTeam: callers(BY_TEAM), zeroResultQueries, lowScoreQueries: lowScoreQueries([...scored, ...unwritten]) };
    });
  }

  /** Drops usage older than `days` days. */
  async purgeOlderThan(days: number, now = new Date()): Promise<void> {
    const cutoff = lastDays(days, now)[0];
    await this.store.purgeBefore(cutoff);
  }

  async stop(): Promise<void> {
    await this.flush();
  }
}
