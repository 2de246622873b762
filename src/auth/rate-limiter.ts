/**
 * Fixed one-minute rate-limit windows counted in MongoDB, so every instance shares them.
 *
 * Two ways to count, chosen at start-up:
 * - `increment` (MongoDB): one document per class, identity and window;
 *   `findOneAndUpdate({_id}, {$inc: {count: 1}}, {upsert, returnDocument: 'after'})`.
 * - `slots` (FerretDB): FerretDB 1.x applies `$inc` as read-modify-write and loses
 *   concurrent increments (measured: 50 parallel `$inc`s over a 20-connection pool left
 *   the counter at 8). Its unique `_id` index is atomic, so each admitted request inserts
 *   slot `<window key>:<n>`; a taken slot (E11000) moves on to n+1. Slot n is the n-th
 *   request; once the next slot would exceed the limit the request is refused without a
 *   write. Each instance remembers its next slot per window, so a lone instance writes
 *   once per request; instances that meet in a window skip each other's slots.
 */
import type { RateCounterModel } from '../store/models/rate-counter';
import { isDuplicate } from './users';

export type RateClass = 'standard' | 'expensive';
export type RateTier = 'key' | 'anonymous';

export const WINDOW_MS = 60_000;

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
  /** Counts one request under `key`; returns its position in the window (may exceed `limit`). */
  count(key: string, windowStart: number, expiresAt: Date, limit: number): Promise<number>;
}

export class IncrementCounter implements CounterStrategy {
  readonly name = 'increment';
  constructor(private readonly Counter: RateCounterModel) {}

  async count(key: string, _windowStart: number, expiresAt: Date): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.Counter.findOneAndUpdate({ _id: key }, { $inc: { count: 1 }, $setOnInsert: { expiresAt } }, { upsert: true, returnDocument: 'after' }).lean();
        return doc?.count ?? 1;
      } catch (error) {
        // Two first hits racing to create the document: the loser retries as an update.
        if (!isDuplicate(error) || attempt >= 2) throw error;
      }
    }
  }
}

export class SlotCounter implements CounterStrategy {
  readonly name = 'slots';
  /** windowStart → key → next slot to try. Slots below it are known to be taken. */
  private readonly nextSlot = new Map<number, Map<string, number>>();

  constructor(private readonly Counter: RateCounterModel) {}

  async count(key: string, windowStart: number, expiresAt: Date, limit: number): Promise<number> {
    const slots = this.windowSlots(windowStart);
    for (;;) {
      const slot = slots.get(key) ?? 1;
      if (slot > limit) return slot;
      slots.set(key, slot + 1);
      try {
        await this.Counter.create({ _id: `${key}:${slot}`, expiresAt });
        return slot;
      } catch (error) {
        if (!isDuplicate(error)) throw error;
      }
    }
  }

  private windowSlots(windowStart: number): Map<string, number> {
    let slots = this.nextSlot.get(windowStart);
    if (!slots) {
      for (const start of this.nextSlot.keys()) if (start < windowStart) this.nextSlot.delete(start);
      slots = new Map();
      this.nextSlot.set(windowStart, slots);
    }
    return slots;
  }
}

export interface RateLimits {
  anonPerMinute: number;
  keyPerMinute: number;
  expensivePerMinute: number;
}

export class RateLimiter {
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
    const count = await this.strategy.count(`${cls}:${identity}:${windowStart}`, windowStart, new Date(windowEnd + WINDOW_MS), limit);
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      reset: Math.ceil(windowEnd / 1000),
      retryAfter: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
    };
  }

  /** Deletes the records of windows that have ended. */
  async purge(): Promise<number> {
    return (await this.Counter.deleteMany({ expiresAt: { $lt: new Date(this.now()) } })).deletedCount;
  }
}
