/**
 * A small cache of search answers by request body, for the hot lookups whose answer only
 * changes with the catalogue (library search's candidate and content queries). An entry is
 * served while the generation it was computed under is the current one (store/library-cache.ts:
 * every library write on any instance sets a new one, seen within about a second) and it is
 * younger than `maxAgeMs` (a bound on any race between a write, its generation and the
 * catalogue index's refresh). The least recently used go first when it is full (util/lru.ts).
 * Pure memory, no I/O.
 */
import type { AppError } from '../errors';
import type { HotHit } from './client';
import type { LibrarySummary } from './types';
import { Lru } from '../util/lru';

export class QueryCache<T> {
  private readonly entries: Lru<{ generation: string; at: number; value: T }>;

  constructor(
    private readonly capacity: number,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new Lru(capacity);
  }

  /** The answer to `key` under `generation`: remembered, or computed now and remembered. */
  async get(key: string, generation: string, compute: () => Promise<T>): Promise<T> {
    if (this.capacity <= 0) return compute();
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation && this.now() - hit.at < this.maxAgeMs) return hit.value;
    const at = this.now();
    const value = await compute();
    this.entries.set(key, { generation, at, value });
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * What library search remembers (catalog/find.ts): whole answers (and 404s) per caller scope,
 * name and question while the catalogue's generation is unchanged (at most 10 s), and the
 * content queries' answers by body for a minute (a body names each library's served
 * generation, whose snippets never change). Assistants resolve the same few names over and
 * over; a remembered answer costs no store work.
 */
export interface FindCaches {
  answers: QueryCache<{ result: { libraries: LibrarySummary[]; searchFilterApplied: boolean } } | { error: AppError }>;
  content: QueryCache<Array<HotHit<unknown>>>;
}

export function findCaches(entries: number): FindCaches {
  return { answers: new QueryCache(entries, 10_000), content: new QueryCache(entries, 60_000) };
}
