/**
 * Usage metrics: requests per library, UTC day and channel, tokens served, and the top
 * queries. `record` never waits and never throws: events are summed in memory and written
 * about every 5 seconds by one flush at a time (`$inc` upserts; a busy server writes one
 * update per library and distinct query per flush, not per request; the metrics endpoints
 * flush this instance's events first). Writing sequentially from
 * each process also keeps FerretDB, whose concurrent `$inc`s can lose updates, exact for
 * a single instance. The only code that touches the usage models.
 */
import crypto from 'node:crypto';
import type { UsageChannel, UsageDailyModel, UsageDailyRecord, UsageQueryModel, UsageQueryRecord } from '../store/models/usage';
import { scrubSecrets, type Logger } from '../logger';

export type { UsageChannel };

export interface UsageEvent {
  libraryId: string;
  channel: UsageChannel;
  tokens: number;
  query?: string;
  teamId?: string | null;
}

export interface DayUsage {
  date: string;
  api: number;
  txt: number;
  mcp: number;
  tokens: number;
}

export interface LibraryMetrics {
  libraryId: string;
  days: number;
  perDay: DayUsage[];
  totals: { requests: number; tokens: number; byChannel: { api: number; txt: number; mcp: number } };
  topQueries: Array<{ query: string; count: number }>;
}

export interface UsageSummary {
  days: number;
  perDay: DayUsage[];
  totals: { requests: number; tokens: number; byChannel: { api: number; txt: number; mcp: number } };
  topLibraries: Array<{ libraryId: string; requests: number; tokens: number }>;
}

/** Distinct queries kept per library and day. */
export const MAX_QUERIES_PER_DAY = 50;
export const TOP_QUERIES = 10;
/** The pseudo library id of the all-libraries totals. */
export const ALL_LIBRARIES = '*';
const CHANNELS: readonly UsageChannel[] = ['api', 'txt', 'mcp'];

interface PendingDay {
  libraryId: string;
  date: string;
  api: number;
  txt: number;
  mcp: number;
  tokens: number;
  teamId: string | null;
}

interface PendingQuery {
  libraryId: string;
  date: string;
  query: string;
  count: number;
}

export class UsageService {
  private days = new Map<string, PendingDay>();
  private queries = new Map<string, PendingQuery>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly Daily: UsageDailyModel,
    private readonly Query: UsageQueryModel,
    private readonly log: Logger,
    private readonly flushDelayMs = 5000,
  ) {}

  /** Counts one served request. Fire-and-forget: never throws, never waits. */
  record(event: UsageEvent): void {
    try {
      if (typeof event.libraryId !== 'string' || !event.libraryId || !CHANNELS.includes(event.channel)) return;
      const tokens = Number.isFinite(event.tokens) && event.tokens > 0 ? Math.round(event.tokens) : 0;
      const date = utcDate(new Date());
      const dayKey = `${event.libraryId}|${date}`;
      let day = this.days.get(dayKey);
      if (!day) {
        day = { libraryId: event.libraryId, date, api: 0, txt: 0, mcp: 0, tokens: 0, teamId: event.teamId ?? null };
        this.days.set(dayKey, day);
      }
      day[event.channel] += 1;
      day.tokens += tokens;
      const query = event.query === undefined ? null : normaliseQuery(event.query);
      if (query) {
        const queryKey = `${dayKey}|${queryHash(query)}`;
        const pending = this.queries.get(queryKey);
        if (pending) pending.count += 1;
        else this.queries.set(queryKey, { libraryId: event.libraryId, date, query, count: 1 });
      }
      if (this.days.size + this.queries.size >= 1000) void this.flush();
      else if (!this.timer) {
        this.timer = setTimeout(() => void this.flush(), this.flushDelayMs);
        this.timer.unref();
      }
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'usage event dropped');
    }
  }

  /** Writes what has been recorded so far (one flush at a time). Never rejects. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const days = this.days;
    const queries = this.queries;
    this.days = new Map();
    this.queries = new Map();
    this.flushing = this.flushing.then(() => this.write(days, queries)).catch((error: unknown) => {
      this.log.warn({ err: (error as Error).message }, 'usage metrics could not be written; this batch is lost');
    });
    return this.flushing;
  }

  private async write(days: Map<string, PendingDay>, queries: Map<string, PendingQuery>): Promise<void> {
    if (days.size === 0 && queries.size === 0) return;
    const totals = new Map<string, PendingDay>();
    for (const d of days.values()) {
      const t = totals.get(d.date) ?? { libraryId: ALL_LIBRARIES, date: d.date, api: 0, txt: 0, mcp: 0, tokens: 0, teamId: null };
      t.api += d.api;
      t.txt += d.txt;
      t.mcp += d.mcp;
      t.tokens += d.tokens;
      totals.set(d.date, t);
    }
    for (const d of [...days.values(), ...totals.values()]) {
      await upsert(() =>
        this.Daily.updateOne(
          { _id: `${d.libraryId}|${d.date}` },
          { $inc: { api: d.api, txt: d.txt, mcp: d.mcp, requests: d.api + d.txt + d.mcp, tokens: d.tokens }, $setOnInsert: { libraryId: d.libraryId, date: d.date, teamId: d.teamId, queries: 0 } },
          { upsert: true },
        ),
      );
    }
    for (const [key, q] of queries) {
      const existing = await this.Query.updateOne({ _id: key }, { $inc: { count: q.count } });
      if (existing.matchedCount > 0) continue;
      const day = await this.Daily.findById(`${q.libraryId}|${q.date}`, { queries: 1 }).lean<Pick<UsageDailyRecord, 'queries'>>();
      if ((day?.queries ?? 0) >= MAX_QUERIES_PER_DAY) continue;
      await upsert(() =>
        this.Query.updateOne({ _id: key }, { $inc: { count: q.count }, $setOnInsert: { libraryId: q.libraryId, date: q.date, query: q.query } }, { upsert: true }),
      );
      await this.Daily.updateOne({ _id: `${q.libraryId}|${q.date}` }, { $inc: { queries: 1 } });
    }
  }

  /** Per-day counts, totals and top queries of one library over the last `days` UTC days. */
  async metrics(libraryId: string, days: number, now = new Date()): Promise<LibraryMetrics> {
    await this.flush();
    const dates = lastDays(days, now);
    const [daily, queries] = await Promise.all([
      this.Daily.find({ libraryId, date: { $gte: dates[0] } }).lean<UsageDailyRecord[]>(),
      this.Query.find({ libraryId, date: { $gte: dates[0] } }, { query: 1, count: 1 }).lean<UsageQueryRecord[]>(),
    ]);
    const perDay = fillDays(dates, daily);
    const counted = new Map<string, number>();
    for (const q of queries) counted.set(q.query, (counted.get(q.query) ?? 0) + q.count);
    const topQueries = [...counted]
      .map(([query, count]) => ({ query, count }))
      .sort((a, b) => b.count - a.count || a.query.localeCompare(b.query))
      .slice(0, TOP_QUERIES);
    return { libraryId, days, perDay, totals: totalsOf(perDay), topQueries };
  }

  /** The answer for a library nobody has used (or the caller may not see). */
  empty(libraryId: string, days: number, now = new Date()): LibraryMetrics {
    const perDay = fillDays(lastDays(days, now), []);
    return { libraryId, days, perDay, totals: totalsOf(perDay), topQueries: [] };
  }

  /** Requests and tokens per day over all libraries, and the most used libraries. */
  async summary(days: number, now = new Date()): Promise<UsageSummary> {
    await this.flush();
    const dates = lastDays(days, now);
    const all = await this.Daily.find({ libraryId: ALL_LIBRARIES, date: { $gte: dates[0] } }).lean<UsageDailyRecord[]>();
    const perDay = fillDays(dates, all);
    // FerretDB 1.x computes only the first accumulator of a $group, so one $sum per query.
    const top = await this.Daily.aggregate<{ _id: string; requests: number }>([
      { $match: { date: { $gte: dates[0] }, libraryId: { $ne: ALL_LIBRARIES } } },
      { $group: { _id: '$libraryId', requests: { $sum: '$requests' } } },
      { $sort: { requests: -1, _id: 1 } },
      { $limit: 10 },
    ]);
    const tokenDocs = top.length
      ? await this.Daily.find({ libraryId: { $in: top.map((t) => t._id) }, date: { $gte: dates[0] } }, { libraryId: 1, tokens: 1 }).lean<UsageDailyRecord[]>()
      : [];
    const tokens = new Map<string, number>();
    for (const d of tokenDocs) tokens.set(d.libraryId, (tokens.get(d.libraryId) ?? 0) + (d.tokens ?? 0));
    const topLibraries = top.map((t) => ({ libraryId: t._id, requests: t.requests, tokens: tokens.get(t._id) ?? 0 }));
    return { days, perDay, totals: totalsOf(perDay), topLibraries };
  }

  /** Drops usage older than `days` days. */
  async purgeOlderThan(days: number, now = new Date()): Promise<void> {
    const cutoff = lastDays(days, now)[0];
    await this.Daily.deleteMany({ date: { $lt: cutoff } });
    await this.Query.deleteMany({ date: { $lt: cutoff } });
  }

  async stop(): Promise<void> {
    await this.flush();
  }
}

async function upsert(op: () => Promise<unknown>): Promise<void> {
  try {
    await op();
  } catch (error) {
    // Another instance created the document between our find and insert: update it now.
    if (!/E11000/.test((error as Error).message)) throw error;
    await op();
  }
}

export function utcDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The last `days` UTC dates, oldest first, ending with today's. */
export function lastDays(days: number, now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => utcDate(new Date(today - (days - 1 - i) * 86_400_000)));
}

function fillDays(dates: string[], docs: UsageDailyRecord[]): DayUsage[] {
  const byDate = new Map(docs.map((d) => [d.date, d]));
  return dates.map((date) => {
    const d = byDate.get(date);
    return { date, api: d?.api ?? 0, txt: d?.txt ?? 0, mcp: d?.mcp ?? 0, tokens: d?.tokens ?? 0 };
  });
}

function totalsOf(perDay: DayUsage[]): LibraryMetrics['totals'] {
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
