/**
 * The library catalogue in MongoDB: the only code that touches the Library model.
 * Every change is a revision (`rev`) written by one writer: FerretDB has no transactions
 * and no isolated conditional updates, so the writer of each revision is decided by a lock
 * (store/locks.ts `writeRevision`).
 *
 * Copies and scopes (domain/library-keys.ts): a public copy at the client id, a team's private
 * copy at `<client id>~<teamId>`. Everything keyed by library (snippets in Elasticsearch,
 * manifests, jobs, usage) uses the stored key, so copies never mix.
 * `resolve` is the one place a client id becomes a copy: the caller's teams' private copies
 * first (default team first), else the public copy; another team's copy is never returned,
 * so its existence is not revealed.
 */
import type { LibraryModel, LibraryRecord, LibraryVersionRecord } from './models/library';
import { writeRevision, type LockStore } from './locks';
import { insertDocuments, rawCollection } from './bulk';
import { isDuplicate } from './mongo';
import { LibraryCache, type GenerationSource, type LibraryCacheOptions } from './library-cache';
import { inScope, keysInScope, privateLibraryKey, SCOPE_SEPARATOR, type LibraryScope } from '../domain/library-keys';

// The key rules moved to the domain layer (domain/library-keys.ts); re-exported for code that still imports them here.
export {
  clientLibraryId,
  teamOfLibraryKey,
  privateLibraryKey,
  scopeRank,
  preferredCopies,
  versionNames,
  resolveVersion,
  type LibraryScope,
} from '../domain/library-keys';

export type NewLibrary = Pick<
  LibraryRecord,
  '_id' | 'source' | 'title' | 'description' | 'repoUrl' | 'cloneUrl' | 'branch' | 'private' | 'teamId' | 'trustScore' | 'options'
> &
  Partial<Pick<LibraryRecord, 'aliases' | 'nameKeys' | 'sourceParams'>>;

/** Told after every write of a library record (the catalogue index follows them: catalog/catalog-sync.ts). */
export interface LibraryObserver {
  changed(records: readonly LibraryRecord[]): Promise<void>;
  removed(keys: readonly string[]): Promise<void>;
}

export interface LibraryRepositoryOptions extends LibraryCacheOptions {
  observer?: LibraryObserver;
}

export class LibraryRepository {
  private readonly cache: LibraryCache;
  private readonly observer: LibraryObserver | undefined;

  constructor(
    private readonly Library: LibraryModel,
    private readonly locks: LockStore,
    private readonly generationSource: GenerationSource,
    options: LibraryRepositoryOptions = {},
  ) {
    this.cache = new LibraryCache((id) => this.Library.findById(id).lean<LibraryRecord>().exec(), generationSource, options);
    this.observer = options.observer;
  }

  /** The catalogue's generation now: it changes with every write of a library record (store/library-cache.ts). */
  generation(): Promise<string> {
    return this.generationSource.read();
  }

  /** The generation as the per-id cache knows it (at most a second old; no read while it is fresh). */
  cachedGeneration(): Promise<string> {
    return this.cache.current();
  }

  /** A record from the per-id cache (store/library-cache.ts), or read now with `fresh`. */
  get(id: string, options: { fresh?: boolean } = {}): Promise<LibraryRecord | null> {
    return this.cache.get(id, options);
  }

  /**
   * The copy of client id `clientId` a caller in `teamIds` (preferred first) addresses: its
   * teams' private copies in that order, else the public copy; null when there is none.
   * Another team's private copy is never returned. The one place client ids are resolved.
   */
  async resolve(clientId: string, teamIds: readonly string[], options: { fresh?: boolean } = {}): Promise<LibraryRecord | null> {
    return this.firstInScopes(clientId, [...new Set(teamIds), null], options);
  }

  /** The copy of `clientId` in one scope (a team's private copy, or null: the public copy). */
  async findCopy(clientId: string, scope: LibraryScope, options: { fresh?: boolean } = {}): Promise<LibraryRecord | null> {
    return this.firstInScopes(clientId, [scope], options);
  }

  private async firstInScopes(clientId: string, scopes: readonly LibraryScope[], options: { fresh?: boolean }): Promise<LibraryRecord | null> {
    const keys = [...new Set(scopes.flatMap((s) => keysInScope(clientId, s)))];
    const records = new Map(await Promise.all(keys.map(async (key) => [key, await this.get(key, options)] as const)));
    for (const scope of scopes) {
      for (const key of keysInScope(clientId, scope)) {
        const record = records.get(key);
        if (record && inScope(record, scope)) return record;
      }
    }
    return null;
  }

  /**
   * The key a new copy of `clientId` in `scope` is stored under: a team's `<id>~<teamId>`; the
   * public copy at the id itself, unless a private record made before scoping holds it.
   */
  async keyForNewCopy(clientId: string, scope: LibraryScope): Promise<string> {
    if (scope !== null) return privateLibraryKey(clientId, scope);
    const holder = await this.get(clientId, { fresh: true });
    return holder && holder.private ? `${clientId}${SCOPE_SEPARATOR}public` : clientId;
  }

  /**
   * After another process wrote `id` (a job run in its own process): this instance's cache and
   * the other instances' forget it, and the catalogue index is written from the record as it is now.
   */
  async forget(id: string): Promise<void> {
    const record = await this.Library.findById(id).lean<LibraryRecord>().exec();
    await this.wrote(record ? [record] : [], record ? [] : [id]);
  }

  /** After a local write: this instance's cache, the other instances' (the generation), the catalogue index. */
  private async wrote(records: readonly LibraryRecord[], removed: readonly string[] = []): Promise<void> {
    await this.cache.changed([...records.map((r) => r._id), ...removed]);
    if (records.length > 0) await this.observer?.changed(records);
    if (removed.length > 0) await this.observer?.removed(removed);
  }

  async list(filter: { ids?: string[] } = {}): Promise<LibraryRecord[]> {
    const q = filter.ids ? { _id: { $in: filter.ids } } : {};
    return this.Library.find(q).sort({ _id: 1 }).lean<LibraryRecord[]>();
  }

  /** Whether the catalogue holds any library (one read, whatever its size). */
  async any(): Promise<boolean> {
    return (await this.Library.findOne({}).select({ _id: 1 }).lean()) !== null;
  }

  /** Every record, in pages, through one cursor (reconciling the catalogue index). */
  async *scan(pageSize = 500): AsyncGenerator<LibraryRecord[]> {
    let page: LibraryRecord[] = [];
    for await (const record of this.Library.find({}).lean<LibraryRecord>().cursor({ batchSize: pageSize })) {
      page.push(record as LibraryRecord);
      if (page.length >= pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }

  /** Creates the record if missing; returns the stored one. */
  async ensure(lib: NewLibrary): Promise<LibraryRecord> {
    const existing = await this.Library.findById(lib._id).lean<LibraryRecord>();
    if (existing) return existing;
    try {
      await this.Library.create({ ...lib, state: 'queued', versions: [], rev: firstRevision() });
    } catch (error) {
      if (!/E11000/.test((error as Error).message)) throw error;
    }
    const created = await this.Library.findById(lib._id).lean<LibraryRecord>();
    if (!created) throw new Error(`library ${lib._id} vanished while being created`);
    await this.wrote([created]);
    return created;
  }

  /**
   * Inserts records built elsewhere (a bulk import of new libraries) in bounded commands,
   * then tells the caches and the catalogue index once. A key that exists already is not
   * overwritten: it is returned in `taken`, for the caller to import the slow way.
   */
  async insertBuilt(records: readonly LibraryRecord[]): Promise<{ inserted: LibraryRecord[]; taken: string[] }> {
    if (records.length === 0) return { inserted: [], taken: [] };
    let failed = false;
    try {
      await insertDocuments(rawCollection<LibraryRecord>(this.Library), records as LibraryRecord[]);
    } catch (error) {
      if (!isDuplicate(error)) throw error;
      failed = true;
    }
    let inserted = [...records];
    if (failed) {
      // Which ones landed: FerretDB's duplicate-key error does not say reliably, so each is read back.
      const stored = await Promise.all(
        records.map((r) => this.Library.findById(r._id).select({ rev: 1, createdAt: 1 }).lean<Pick<LibraryRecord, 'rev' | 'createdAt'>>()),
      );
      inserted = records.filter((r, i) => stored[i]?.rev === r.rev && new Date(stored[i]?.createdAt ?? 0).getTime() === new Date(r.createdAt).getTime());
      // A record of ours whose command failed after an earlier duplicate: not inserted, so not taken either.
      const landed = new Set(inserted.map((r) => r._id));
      const missing = records.filter((r, i) => !landed.has(r._id) && stored[i] === null);
      if (missing.length > 0) {
        const retry = await this.insertBuilt(missing);
        inserted.push(...retry.inserted);
      }
    }
    const landed = new Set(inserted.map((r) => r._id));
    if (inserted.length > 0) await this.wrote(inserted);
    return { inserted, taken: records.filter((r) => !landed.has(r._id)).map((r) => r._id) };
  }

  /** Applies `change` to the current record with a revision check, retrying on races. */
  async modify(id: string, change: (lib: LibraryRecord) => Partial<LibraryRecord> | null): Promise<LibraryRecord | null> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const lib = await this.Library.findById(id).lean<LibraryRecord>();
      if (!lib) return null;
      const fields = change(lib);
      if (!fields) return lib;
      const set = { ...fields, updatedAt: new Date() };
      if (await writeRevision(this.locks, this.Library, 'library', lib, set)) {
        const record = { ...lib, ...set, rev: lib.rev + 1 };
        await this.wrote([record]);
        return record;
      }
      await new Promise((r2) => setTimeout(r2, 10 + Math.random() * 40));
    }
    throw new Error(`could not update library ${id}: too many concurrent writers`);
  }

  /**
   * Switches a version to a new generation (the one step that makes a build visible), unless
   * the version already serves a newer generation (then the record is returned unchanged).
   */
  async publishVersion(
    id: string,
    version: LibraryVersionRecord,
    meta: Partial<Pick<LibraryRecord, 'title' | 'description' | 'branch'>>,
  ): Promise<LibraryRecord | null> {
    return this.publishVersions(id, [version], meta);
  }

  /**
   * Switches several versions at once, in one revision (an imported bundle): all of them or,
   * when any already serves a newer generation, none (the record is returned unchanged).
   */
  async publishVersions(
    id: string,
    published: LibraryVersionRecord[],
    meta: Partial<Pick<LibraryRecord, 'title' | 'description' | 'branch'>>,
  ): Promise<LibraryRecord | null> {
    return this.modify(id, (lib) => {
      if (published.some((p) => lib.versions.some((v) => v.version === p.version && v.generation > p.generation))) return null;
      const names = new Set(published.map((p) => p.version));
      const versions = [...lib.versions.filter((v) => !names.has(v.version)), ...published];
      versions.sort((a, b) => (a.version === 'latest' ? -1 : b.version === 'latest' ? 1 : b.version.localeCompare(a.version, undefined, { numeric: true })));
      // A title or description an admin set stays; the build's own applies otherwise.
      const { title, description, ...rest } = meta;
      return {
        ...rest,
        ...(title !== undefined && !lib.titleSetByAdmin ? { title } : {}),
        ...(description !== undefined && !lib.descriptionSetByAdmin ? { description } : {}),
        versions,
        state: 'finalized',
      };
    });
  }

  async setState(id: string, state: LibraryRecord['state']): Promise<void> {
    await this.modify(id, (lib) => (lib.state === state ? null : { state }));
  }

  /** How many libraries (any team's copy) build from the uploaded archive with this hash. */
  async countArchiveUsers(sha256: string): Promise<number> {
    return this.Library.countDocuments({ 'sourceParams.source': 'archive', 'sourceParams.sha256': sha256 });
  }

  /**
   * Deletes the record, in bounded work: its current revision's lock goes by its exact key
   * (each write releases the one before); a library made again under this id starts at a new,
   * time-based revision, so a revision lock left behind by a crash can never block it.
   */
  async delete(id: string): Promise<boolean> {
    const current = await this.Library.findById(id).select({ rev: 1 }).lean<Pick<LibraryRecord, 'rev'>>();
    const r = await this.Library.deleteOne({ _id: id });
    await this.wrote([], [id]);
    if (current) await this.locks.release(`library:${id}@${current.rev}`);
    return r.deletedCount === 1;
  }
}

/**
 * A new record's first revision: time-based (microseconds), so revision locks of a deleted
 * record under the same id (`library:<id>@<rev>`) are never in the new record's way.
 */
export function firstRevision(now = Date.now()): number {
  return now * 1000;
}
