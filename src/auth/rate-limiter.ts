/**
 * Fixed one-minute rate-limit windows counted in MongoDB, so every instance shares them.
 *
 * Each window's requests are numbered 1, 2, 3, … across all instances; request n is
 * admitted while n ≤ limit. An instance does not write per request: it reserves a *block*
 * of consecutive numbers in the store (`blockSize(limit)`, 1 for small limits, 1/20 of the
 * limit for large ones, at most 1,000) and hands them out from memory, reserving the next
 * block when it runs out. Several instances never admit more than the limit together, since
 * blocks never overlap; each may leave part of its last block unused, so a busy window can
 * admit up to (instances × (block − 1)) fewer requests than the limit, never more. Once an
 * instance has seen a window exhausted it refuses locally until the window ends.
 *
 * Two ways to reserve, chosen at start-up:
 * - `increment` (MongoDB): one document per class, identity and window;
 *   `findOneAndUpdate({_id}, {$inc: {count: size}}, {upsert, returnDocument: 'after'})`.
 * - `slots` (FerretDB): FerretDB 1.x applies `$inc` as read-modify-write and loses
 *   concurrent increments (measured: 50 parallel `$inc`s over a 20-connection pool left
 *   the counter at 8). Its unique `_id` index is atomic, so block b is reserved by
 *   inserting `<window key>:<b>`; a taken block (E11000) moves on to b+1. Each instance
 *   remembers its next block per window, so a lone instance writes once per block.
 */
import type { RateCounterModel } from '../store/models/rate-counter';
import { isDuplicate } from '../store/mongo';

export type RateClass = 'standard' | 'expensive';
export type RateTier = 'key' | 'anonymous';

export const WINDOW_MS = 60_000;
const MAX_BLOCK = 1000;

/** How many request numbers an instance reserves at once for a limit. */
export function blockSize(limit: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(limit / 20)));
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the window ends. */
  reset: number;
  /** Seconds until then (at least 1). */
  retryAfter: number;
}

export interface CounterStrategy {
  readonly name: 'increment' | 'slots';
  /**
   * Reserves `size` consecutive request numbers of the window `key`; returns the first
   * (it may exceed `limit`: the window is then exhausted).
   */
  reserve(key: string, size: number, windowStart: number, expiresAt: Date, limit: number): Promise<number>;
}

export class IncrementCounter implements CounterStrategy {
  readonly name = 'increment';
  constructor(private readonly Counter: RateCounterModel) {}

  async reserve(key: string, size: number, _windowStart: number, expiresAt: Date): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.Counter.findOneAndUpdate(
          { _id: key },
          { $inc: { count: size }, $setOnInsert: { expiresAt } },
          { upsert: true, returnDocument: 'after' },
        ).lean();
        return (doc?.count ?? size) - size + 1;
      } catch (error) {
        // Two first hits racing to create the document: the loser retries as an update.
        if (!isDuplicate(error) || attempt >= 2) throw error;
      }
    }
  }
}

export class SlotCounter implements CounterStrategy {
  readonly name = 'slots';
  /** windowStart → key → next block to try. Blocks below it are known to be taken. */
  private readonly nextBlock = new Map<number, Map<string, number>>();

  constructor(private readonly Counter: RateCounterModel) {}

  async reserve(key: string, size: number, windowStart: number, expiresAt: Date, limit: number): Promise<number> {
    const blocks = windowMap(this.nextBlock, windowStart);
    for (;;) {
      const block = blocks.get(key) ?? 0;
      const first = block * size + 1;
      if (first > limit) return first;
      blocks.set(key, block + 1);
      try {
        await this.Counter.create({ _id: `${key}:${block}`, expiresAt });
        return first;
      } catch (error) {
        if (isDuplicate(error)) continue;
        // The store did not answer: the block is not known to be taken, so it is tried again
        // (burning one per failed request during an outage left clients refused for the rest
        // of the minute once the store was back).
        if (blocks.get(key) === block + 1) blocks.set(key, block);
        throw error;
      }
    }
  }
}

/** The per-window map of `maps`, dropping the maps of earlier windows. */
function windowMap<T>(maps: Map<number, Map<string, T>>, windowStart: number): Map<string, T> {
  let map = maps.get(windowStart);
  if (!map) {
    for (const start of maps.keys()) if (start < windowStart) maps.delete(start);
    map = new Map();
    maps.set(windowStart, map);
  }
  return map;
}

/** This instance's reserved numbers for one window key. */
interface Reservation {
  next: number;
  end: number;
  pending?: Promise<void>;
}

export interface RateLimits {
  anonPerMinute: number;
  keyPerMinute: number;
  expensivePerMinute: number;
}

export class RateLimiter {
  /** windowStart → window key → this instance's reserved request numbers. */
  private readonly reservations = new Map<number, Map<string, Reservation>>();

  constructor(
    private readonly Counter: RateCounterModel,
    readonly strategy: CounterStrategy,
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  limitFor(cls: RateClass, tier: RateTier): number {
    if (cls === 'expensive') return this.limits.expensivePerMinute;
    return tier === 'key' ? this.limits.keyPerMinute : this.limits.anonPerMinute;
  }

  /** Counts one request of `identity` in `cls` and decides whether it may proceed. */
  async hit(cls: RateClass, identity: string, tier: RateTier): Promise<RateDecision> {
    const now = this.now();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const windowEnd = windowStart + WINDOW_MS;
    const limit = this.limitFor(cls, tier);
    const count = await this.take(`${cls}:${identity}:${windowStart}`, windowStart, new Date(windowEnd + WINDOW_MS), limit);
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      reset: Math.ceil(windowEnd / 1000),
      retryAfter: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
    };
  }

  /** The next request number of the window: from this instance's block, reserving one when needed. */
  private async take(key: string, windowStart: number, expiresAt: Date, limit: number): Promise<number> {
    const reservations = windowMap(this.reservations, windowStart);
    for (;;) {
      let r = reservations.get(key);
      if (r && r.next <= r.end) return r.next++;
      if (r && r.next > limit) return r.next; // exhausted: refuse without asking the store
      if (r?.pending) {
        await r.pending;
        continue;
      }
      const size = blockSize(limit);
      if (!r) {
        r = { next: 1, end: 0 };
        reservations.set(key, r);
      }
      const reservation = r;
      reservation.pending = this.strategy.reserve(key, size, windowStart, expiresAt, limit).then(
        (first) => {
          reservation.next = first;
          reservation.end = first + size - 1;
          reservation.pending = undefined;
        },
        (error: unknown) => {
          reservation.pending = undefined;
          throw error;
        },
      );
      await reservation.pending;
    }
  }

  /** Deletes the records of windows that have ended. */
  async purge(): Promise<number> {
    return (await this.Counter.deleteMany({ expiresAt: { $lt: new Date(this.now()) } })).deletedCount;
  }
}
