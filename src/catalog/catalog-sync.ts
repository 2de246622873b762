/**
 * Keeps the catalogue index (search/catalog-index.ts) in step with the library records in
 * MongoDB, which stay the record of truth. The library repository tells it about every
 * write (it is the repository's `LibraryObserver`); a write the index refused (Elasticsearch
 * down) is retried from the record as it is then, with backoff, and `reconcile` at start-up
 * repairs whatever a crash between the two writes left behind, or builds the index of an
 * installation that had none.
 */
import type { Logger } from '../logger';
import type { LibraryRecord } from '../store/models/library';
import type { LibraryObserver } from '../store/libraries';
import { currentForm, type CatalogIndex } from '../search/catalog-index';
import { catalogDocument } from '../search/catalog-document';
import { catalogEntryOf } from './catalog-entry';

/** The records the sync reads again: by key, and all of them in key order. */
export interface CatalogRecords {
  get(key: string, options: { fresh: true }): Promise<LibraryRecord | null>;
  scan(): AsyncIterable<LibraryRecord[]>;
}

const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 60_000;

export class CatalogSync implements LibraryObserver {
  /** Keys whose last index write failed: written again from their records. */
  private readonly pending = new Set<string>();
  /** Keys a retry is writing now (still owed until it succeeds). */
  private readonly retrying = new Set<string>();
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private records: CatalogRecords | undefined;

  constructor(
    private readonly index: CatalogIndex,
    private readonly log: Logger,
    /** Whether Elasticsearch is known to be down (the store monitor): writes then go straight to the retries. */
    private readonly isDown: () => boolean = () => false,
  ) {}

  /** Where failed writes are read back from (the repository, once it exists). */
  attach(records: CatalogRecords): void {
    this.records = records;
  }

  async changed(records: readonly LibraryRecord[], options: { refresh?: boolean } = {}): Promise<void> {
    if (this.isDown())
      return this.later(
        records.map((r) => r._id),
        new Error('Elasticsearch is down'),
      );
    try {
      await this.index.put(
        records.map((r) => catalogDocument(catalogEntryOf(r))),
        options,
      );
    } catch (error) {
      this.later(
        records.map((r) => r._id),
        error,
      );
    }
  }

  async removed(keys: readonly string[]): Promise<void> {
    if (this.isDown()) return this.later(keys, new Error('Elasticsearch is down'));
    try {
      await this.index.remove(keys);
    } catch (error) {
      this.later(keys, error);
    }
  }

  /** Keys still waiting for a write the index refused. */
  get backlog(): number {
    return this.pending.size + this.retrying.size;
  }

  private later(keys: readonly string[], error: unknown): void {
    if (this.pending.size === 0) this.log.warn({ err: (error as Error).message }, 'the catalogue index refused a write; retrying from the library records');
    for (const key of keys) this.pending.add(key);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.pending.size === 0) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.retry();
    }, this.retryMs);
    this.retryTimer.unref();
  }

  /** Writes the pending keys again from their current records (a missing record: removed). */
  async retry(): Promise<void> {
    const records = this.records;
    if (!records) return;
    const keys = [...this.pending];
    this.pending.clear();
    for (const key of keys) this.retrying.add(key);
    try {
      const found = await Promise.all(keys.map((key) => records.get(key, { fresh: true })));
      const present = found.filter((r): r is LibraryRecord => r !== null);
      const gone = keys.filter((_, i) => found[i] === null);
      if (present.length > 0) await this.index.put(present.map((r) => catalogDocument(catalogEntryOf(r))));
      if (gone.length > 0) await this.index.remove(gone);
      this.retryMs = RETRY_MIN_MS;
      this.log.info({ libraries: keys.length }, 'the catalogue index caught up');
    } catch {
      for (const key of keys) this.pending.add(key);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      this.scheduleRetry();
    } finally {
      for (const key of keys) this.retrying.delete(key);
    }
  }

  /**
   * Makes the index match the records: writes every record whose document is missing, older
   * or of an older form, removes documents of records that are gone. The index's stamps are read before
   * the records, so a library added meanwhile is never removed; an older record never
   * replaces a newer document (external versions). Returns what it changed.
   */
  async reconcile(): Promise<{ written: number; removed: number; libraries: number }> {
    const records = this.records;
    if (!records) throw new Error('CatalogSync.reconcile before attach');
    // A document of an older form counts as missing: it is written again whole.
    const indexed = new Map<string, number>();
    for await (const page of this.index.stamps()) for (const s of page) indexed.set(s.key, currentForm(s) ? s.changedAt : -1);
    let written = 0;
    let libraries = 0;
    for await (const page of records.scan()) {
      libraries += page.length;
      const stale = page.map(catalogEntryOf).filter((e) => indexed.get(e.key) !== e.changedAt);
      for (const e of page) indexed.delete(e._id);
      if (stale.length > 0) await this.index.put(stale.map(catalogDocument), { refresh: false });
      written += stale.length;
    }
    const gone = [...indexed.keys()];
    if (gone.length > 0) await this.index.remove(gone, { refresh: false });
    if (written + gone.length > 0) await this.index.refresh();
    return { written, removed: gone.length, libraries };
  }

  stop(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}
