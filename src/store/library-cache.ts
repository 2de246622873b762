/**
 * The per-id cache of library records that every context request reads, invalidated by the
 * catalogue's generation instead of by age: every write of a library record (on any
 * instance) sets a new generation in MongoDB (`CatalogGeneration.bump`), and a cached record
 * is served for as long as the generation it was read under is the current one. The current
 * generation is read at most once per `checkMs`, in the background while cached records are
 * served (one small read a second under traffic, none at rest), so a busy instance never
 * waits for MongoDB and sees another instance's write within about `checkMs`. A record older
 * than `maxAgeMs` is read again whatever the generation says (a writer that died between its
 * write and its bump).
 */
import crypto from 'node:crypto';
import type { Connection } from 'mongoose';
import type { LibraryRecord } from './models/library';
import { rawCollection, type BoundedCollection } from './bulk';

/** Where the catalogue's generation lives. */
export interface GenerationSource {
  read(): Promise<string>;
  /** Sets a new generation; returns it. */
  bump(): Promise<string>;
}

interface GenerationDocument {
  _id: string;
  generation: string;
  at: Date;
}

/** The generation in MongoDB: one document, replaced by each bump (any new value invalidates, so FerretDB's unisolated updates cannot lose one). */
export class CatalogGeneration implements GenerationSource {
  private readonly collection: BoundedCollection<GenerationDocument>;

  constructor(mongo: Connection) {
    this.collection = rawCollection<GenerationDocument>({ collection: mongo.collection('catalogstate') });
  }

  async read(): Promise<string> {
    return (await this.collection.findOne({ _id: 'libraries' }))?.generation ?? '';
  }

  async bump(): Promise<string> {
    const generation = `${Date.now().toString(36)}-${crypto.randomBytes(6).toString('hex')}`;
    await this.collection.updateOne({ _id: 'libraries' }, { $set: { generation, at: new Date() } }, { upsert: true });
    return generation;
  }
}

export interface LibraryCacheOptions {
  /** How often the generation is read while the cache is used (ms). */
  checkMs?: number;
  /** A record older than this is read again whatever the generation (ms). */
  maxAgeMs?: number;
  /** Records kept at most (the cache empties when full; a library record is a few KB). */
  capacity?: number;
}

interface Entry {
  generation: string;
  at: number;
  record: LibraryRecord | null;
}

export class LibraryCache {
  private readonly entries = new Map<string, Entry>();
  /** Reads in flight per id (one at a time). */
  private readonly loading = new Map<string, Promise<LibraryRecord | null>>();
  private generation = '';
  private checkedAt = 0;
  private checking: Promise<void> | undefined;
  /** Bumped by every local write, so a read that started before it does not refill the cache. */
  private epoch = 0;
  private readonly checkMs: number;
  private readonly maxAgeMs: number;
  private readonly capacity: number;

  constructor(
    private readonly read: (id: string) => Promise<LibraryRecord | null>,
    private readonly source: GenerationSource,
    options: LibraryCacheOptions = {},
  ) {
    this.checkMs = options.checkMs ?? 1000;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.capacity = options.capacity ?? 20_000;
  }

  async get(id: string, options: { fresh?: boolean } = {}): Promise<LibraryRecord | null> {
    if (options.fresh) return this.load(id, true);
    await this.current();
    const hit = this.entries.get(id);
    if (hit && hit.generation === this.generation && Date.now() - hit.at < this.maxAgeMs) return hit.record;
    return this.load(id);
  }

  /**
   * The catalogue's generation as this instance knows it: read at most once per `checkMs`,
   * in the background while the last one is served (what answers cached elsewhere are keyed by).
   */
  async current(): Promise<string> {
    if (this.checkedAt === 0) await this.check();
    else if (Date.now() - this.checkedAt >= this.checkMs) void this.check();
    return this.generation;
  }

  /** Drops what this instance remembers of `id` after a local write, and tells the other instances. */
  async changed(ids: readonly string[]): Promise<void> {
    this.epoch++;
    for (const id of ids) this.entries.delete(id);
    try {
      // The others see the change at their next check. Our own cache starts over too: another
      // instance may have bumped just before us, and one value cannot tell the two apart.
      this.generation = await this.source.bump();
      this.checkedAt = Date.now();
      this.entries.clear();
    } catch {
      // The write is done; the other instances read the record again within maxAgeMs.
    }
  }

  /** Reads the current generation (one read at a time); a change drops every cached record. */
  private check(): Promise<void> {
    if (this.checking !== undefined) return this.checking;
    const run = this.source
      .read()
      .then((generation) => {
        this.checkedAt = Date.now();
        if (generation !== this.generation) {
          this.generation = generation;
          this.epoch++;
          this.entries.clear();
        }
      })
      .catch(() => {
        // The store is down: cached records keep serving (up to maxAgeMs); try again next time.
        this.checkedAt = Date.now();
      })
      .finally(() => {
        if (this.checking === run) this.checking = undefined;
      });
    this.checking = run;
    return run;
  }

  private load(id: string, fresh = false): Promise<LibraryRecord | null> {
    const pending = fresh ? undefined : this.loading.get(id);
    if (pending) return pending;
    const epoch = this.epoch;
    const generation = this.generation;
    const read = this.read(id)
      .then((record) => {
        if (this.epoch === epoch && this.generation === generation) {
          if (this.entries.size >= this.capacity) this.entries.clear();
          this.entries.set(id, { generation, at: Date.now(), record });
        }
        return record;
      })
      .finally(() => {
        if (this.loading.get(id) === read) this.loading.delete(id);
      });
    if (!fresh) this.loading.set(id, read);
    return read;
  }
}
