/**
 * The library catalogue in MongoDB: the only code that touches the Library model.
 * Every change is a revision (`rev`) written by one writer: FerretDB has no transactions
 * and no isolated conditional updates, so the writer of each revision is decided by a lock
 * (store/locks.ts `writeRevision`).
 *
 * Copies and scopes. A client id (`/acme/internal`) can name several copies: one public copy
 * and one private copy per team, each its own record under its own stored key: the public copy
 * at the client id itself, a team's private copy at `<client id>~<teamId>` (`~` cannot occur in
 * a client id, so a caller can never name a key). Private libraries made before scoping keep
 * the client id as their key and count as their team's copy; a public copy made while such a
 * record holds the client id goes to `<client id>~public`. Everything keyed by library (snippets
 * in Elasticsearch, manifests, jobs, usage) uses the stored key, so copies never mix.
 * `resolve` is the one place a client id becomes a copy: the caller's teams' private copies
 * first (default team first), else the public copy; another team's copy is never returned,
 * so its existence is not revealed.
 */
import type { LibraryModel, LibraryRecord, LibraryVersionRecord } from './models/library';
import { TagNotFoundError } from '../errors';
import { writeRevision, type LockStore } from './locks';
import { nearestVersion } from '../libraries/version-rule';

export type NewLibrary = Pick<LibraryRecord, '_id' | 'source' | 'title' | 'description' | 'repoUrl' | 'cloneUrl' | 'branch' | 'private' | 'teamId' | 'trustScore' | 'options'> &
  Partial<Pick<LibraryRecord, 'aliases' | 'nameKeys' | 'sourceParams'>>;

/** Separates a client id from the scope of a copy in stored keys; client ids cannot contain it. */
const SCOPE_SEPARATOR = '~';

/** The stored key of a team's private copy of `clientId`. */
export function privateLibraryKey(clientId: string, teamId: string): string {
  return `${clientId}${SCOPE_SEPARATOR}${teamId}`;
}

/** The client-facing id of a stored key: `/acme/internal~team_1` → `/acme/internal`. */
export function clientLibraryId(key: string): string {
  const at = key.indexOf(SCOPE_SEPARATOR);
  return at === -1 ? key : key.slice(0, at);
}

/** The team of a stored key's private copy (null for a public copy). */
export function teamOfLibraryKey(key: string): string | null {
  const at = key.indexOf(SCOPE_SEPARATOR);
  const team = at === -1 ? null : key.slice(at + 1);
  return team === 'public' ? null : team;
}

/** A scope: a team's id (its private copies), or null (the public copies). */
export type LibraryScope = string | null;

/** The keys the copy of `clientId` in `scope` may be stored under, in the order they are tried. */
function keysInScope(clientId: string, scope: LibraryScope): string[] {
  return scope === null ? [clientId, `${clientId}${SCOPE_SEPARATOR}public`] : [privateLibraryKey(clientId, scope), clientId];
}

function inScope(record: Pick<LibraryRecord, 'private' | 'teamId'>, scope: LibraryScope): boolean {
  return scope === null ? !record.private : record.private && record.teamId === scope;
}

/**
 * Where a copy ranks for a caller in `teamIds` (preferred first): its team's position, the
 * public copy after every team's; -1 for another team's copy (never addressed by client id).
 */
export function scopeRank(record: Pick<LibraryRecord, 'private' | 'teamId'>, teamIds: readonly string[]): number {
  if (!record.private) return teamIds.length;
  return record.teamId === null ? -1 : teamIds.indexOf(record.teamId);
}

/**
 * Of a list of records, the copy each client id resolves to for a caller in `teamIds` (the
 * same choice as `LibraryRepository.resolve`), in the list's order.
 */
export function preferredCopies<T extends Pick<LibraryRecord, '_id' | 'private' | 'teamId'>>(records: readonly T[], teamIds: readonly string[]): T[] {
  const best = new Map<string, { record: T; rank: number }>();
  for (const record of records) {
    const rank = scopeRank(record, teamIds);
    if (rank < 0) continue;
    const id = clientLibraryId(record._id);
    const seen = best.get(id);
    if (!seen || rank < seen.rank) best.set(id, { record, rank });
  }
  const chosen = new Set([...best.values()].map((b) => b.record));
  return records.filter((r) => chosen.has(r));
}

/** A cached read older than `cacheMs` but younger than this many times it is served while a refresh runs. */
const STALE_FACTOR = 5;

export class LibraryRepository {
  private readonly cache = new Map<string, { at: number; record: LibraryRecord | null }>();
  private all: { at: number; records: LibraryRecord[] } | undefined;
  /** Reads in flight per id (one at a time) and the catalogue's. */
  private readonly loading = new Map<string, Promise<LibraryRecord | null>>();
  private loadingAll: Promise<LibraryRecord[]> | undefined;
  /** Bumped by every local write, so a read that started before it does not refill the cache. */
  private epoch = 0;

  constructor(
    private readonly Library: LibraryModel,
    private readonly locks: LockStore,
    /**
     * How long a read is served from memory (hot path of context requests). Up to
     * STALE_FACTOR times that, the cached record is still served while one background read
     * refreshes it, so busy libraries never wait for MongoDB and a burst makes one read.
     */
    private readonly cacheMs = 1000,
  ) {}

  async get(id: string, options: { fresh?: boolean } = {}): Promise<LibraryRecord | null> {
    if (options.fresh) return this.load(id, true);
    const hit = this.cache.get(id);
    if (hit) {
      const age = Date.now() - hit.at;
      if (age < this.cacheMs) return hit.record;
      if (age < this.cacheMs * STALE_FACTOR) {
        this.load(id).catch(() => undefined); // served stale meanwhile; the next caller gets the fresh one
        return hit.record;
      }
    }
    return this.load(id);
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

  private load(id: string, fresh = false): Promise<LibraryRecord | null> {
    const pending = fresh ? undefined : this.loading.get(id);
    if (pending) return pending;
    const epoch = this.epoch;
    const read = this.Library.findById(id)
      .lean<LibraryRecord>()
      .then((record) => {
        if (this.epoch === epoch) {
          if (this.cache.size >= 5000) this.cache.clear();
          this.cache.set(id, { at: Date.now(), record });
        }
        return record;
      })
      .finally(() => {
        if (this.loading.get(id) === read) this.loading.delete(id);
      });
    if (!fresh) this.loading.set(id, read);
    return read;
  }

  /** The whole catalogue, from memory like `get` (catalogue searches are hot). */
  async listCached(): Promise<LibraryRecord[]> {
    const all = this.all;
    if (all) {
      const age = Date.now() - all.at;
      if (age < this.cacheMs) return all.records;
      if (age < this.cacheMs * STALE_FACTOR) {
        this.loadAll().catch(() => undefined);
        return all.records;
      }
    }
    return this.loadAll();
  }

  private loadAll(): Promise<LibraryRecord[]> {
    if (this.loadingAll) return this.loadingAll;
    const epoch = this.epoch;
    const read = this.list()
      .then((records) => {
        if (this.epoch === epoch) this.all = { at: Date.now(), records };
        return records;
      })
      .finally(() => {
        if (this.loadingAll === read) this.loadingAll = undefined;
      });
    this.loadingAll = read;
    return read;
  }

  /** Drops what this instance remembers of `id` after a local write, or one by another process (a job's). */
  forget(id: string): void {
    this.epoch++;
    this.cache.delete(id);
    this.all = undefined;
  }

  async list(filter: { ids?: string[] } = {}): Promise<LibraryRecord[]> {
    const q = filter.ids ? { _id: { $in: filter.ids } } : {};
    return this.Library.find(q).sort({ _id: 1 }).lean<LibraryRecord[]>();
  }

  /** Creates the record if missing; returns the stored one. */
  async ensure(lib: NewLibrary): Promise<LibraryRecord> {
    const existing = await this.Library.findById(lib._id).lean<LibraryRecord>();
    if (existing) return existing;
    try {
      await this.Library.create({ ...lib, state: 'queued', versions: [], rev: 0 });
    } catch (error) {
      if (!/E11000/.test((error as Error).message)) throw error;
    }
    const created = await this.Library.findById(lib._id).lean<LibraryRecord>();
    if (!created) throw new Error(`library ${lib._id} vanished while being created`);
    this.forget(lib._id);
    return created;
  }

  /** Applies `change` to the current record with a revision check, retrying on races. */
  async modify(id: string, change: (lib: LibraryRecord) => Partial<LibraryRecord> | null): Promise<LibraryRecord | null> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const lib = await this.Library.findById(id).lean<LibraryRecord>();
      if (!lib) return null;
      const fields = change(lib);
      if (!fields) return lib;
      const written = await writeRevision(this.locks, this.Library, 'library', lib, { ...fields, updatedAt: new Date() });
      this.forget(id);
      if (written) return { ...lib, ...fields, rev: lib.rev + 1 };
      await new Promise((r2) => setTimeout(r2, 10 + Math.random() * 40));
    }
    throw new Error(`could not update library ${id}: too many concurrent writers`);
  }

  /**
   * Switches a version to a new generation (the one step that makes a build visible), unless
   * the version already serves a newer generation (then the record is returned unchanged).
   */
  async publishVersion(id: string, version: LibraryVersionRecord, meta: Partial<Pick<LibraryRecord, 'title' | 'description' | 'branch'>>): Promise<LibraryRecord | null> {
    return this.publishVersions(id, [version], meta);
  }

  /**
   * Switches several versions at once, in one revision (an imported bundle): all of them or,
   * when any already serves a newer generation, none (the record is returned unchanged).
   */
  async publishVersions(id: string, published: LibraryVersionRecord[], meta: Partial<Pick<LibraryRecord, 'title' | 'description' | 'branch'>>): Promise<LibraryRecord | null> {
    return this.modify(id, (lib) => {
      if (published.some((p) => lib.versions.some((v) => v.version === p.version && v.generation > p.generation))) return null;
      const names = new Set(published.map((p) => p.version));
      const versions = [...lib.versions.filter((v) => !names.has(v.version)), ...published];
      versions.sort((a, b) => (a.version === 'latest' ? -1 : b.version === 'latest' ? 1 : b.version.localeCompare(a.version, undefined, { numeric: true })));
      // A title or description an admin set stays; the build's own applies otherwise.
      const { title, description, ...rest } = meta;
      return { ...rest, ...(title !== undefined && !lib.titleSetByAdmin ? { title } : {}), ...(description !== undefined && !lib.descriptionSetByAdmin ? { description } : {}), versions, state: 'finalized' };
    });
  }

  async setState(id: string, state: LibraryRecord['state']): Promise<void> {
    await this.modify(id, (lib) => (lib.state === state ? null : { state }));
  }

  /** How many libraries (any team's copy) build from the uploaded archive with this hash. */
  async countArchiveUsers(sha256: string): Promise<number> {
    return this.Library.countDocuments({ 'sourceParams.source': 'archive', 'sourceParams.sha256': sha256 });
  }

  async delete(id: string): Promise<boolean> {
    const r = await this.Library.deleteOne({ _id: id });
    this.forget(id);
    // A library made again under this id starts at revision 0: its old revision locks go.
    await this.locks.releaseAll(`library:${id}@`);
    return r.deletedCount === 1;
  }
}

/** Every name a version can be addressed by. */
export function versionNames(lib: Pick<LibraryRecord, 'versions'>): string[] {
  const names = new Set<string>();
  for (const v of lib.versions) {
    if (v.version !== 'latest') names.add(v.version);
    for (const t of v.tags ?? []) names.add(t);
  }
  return [...names].sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
}

/**
 * The version record a request addresses: latest when none is named; a tag matches its
 * own version or a version whose commit it points at (a leading "v" is optional). Never
 * substitutes another version: an unknown tag is a 404 listing the available ones.
 */
export function resolveVersion(lib: Pick<LibraryRecord, '_id' | 'versions'>, requested: string | undefined): LibraryVersionRecord | undefined {
  const ready = lib.versions.filter((v) => v.generation > 0);
  if (requested === undefined) return ready.find((v) => v.version === 'latest') ?? undefined;
  const norm = (s: string) => s.replace(/^v(?=\d)/, '');
  const want = norm(requested);
  const match =
    ready.find((v) => v.version === requested) ??
    ready.find((v) => (v.tags ?? []).includes(requested)) ??
    ready.find((v) => norm(v.version) === want || (v.tags ?? []).some((t) => norm(t) === want));
  if (!match) {
    const available = versionNames({ versions: ready });
    throw new TagNotFoundError(clientLibraryId(lib._id), requested, available, nearestVersion(requested, available));
  }
  return match;
}
