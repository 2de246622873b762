/**
 * The library catalogue in MongoDB: the only code that touches the Library model.
 * Version switches use optimistic concurrency (`rev`) since FerretDB has no transactions.
 */
import type { LibraryModel, LibraryRecord, LibraryVersionRecord } from './models/library';
import { TagNotFoundError } from '../errors';

export type NewLibrary = Pick<LibraryRecord, '_id' | 'source' | 'title' | 'description' | 'repoUrl' | 'cloneUrl' | 'branch' | 'private' | 'teamId' | 'trustScore' | 'options'> &
  Partial<Pick<LibraryRecord, 'aliases' | 'nameKeys'>>;

export class LibraryRepository {
  private readonly cache = new Map<string, { at: number; record: LibraryRecord | null }>();
  private all: { at: number; records: LibraryRecord[] } | undefined;

  constructor(
    private readonly Library: LibraryModel,
    /** How long a read may be served from memory (hot path of context requests). */
    private readonly cacheMs = 1000,
  ) {}

  async get(id: string, options: { fresh?: boolean } = {}): Promise<LibraryRecord | null> {
    const hit = this.cache.get(id);
    if (!options.fresh && hit && Date.now() - hit.at < this.cacheMs) return hit.record;
    const record = await this.Library.findById(id).lean<LibraryRecord>();
    this.cache.set(id, { at: Date.now(), record });
    if (this.cache.size > 5000) this.cache.clear();
    return record;
  }

  /** The whole catalogue, from memory for up to `cacheMs` (catalogue searches are hot). */
  async listCached(): Promise<LibraryRecord[]> {
    if (this.all && Date.now() - this.all.at < this.cacheMs) return this.all.records;
    const records = await this.list();
    this.all = { at: Date.now(), records };
    return records;
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
    this.cache.delete(lib._id);
    return created;
  }

  /** Applies `change` to the current record with a revision check, retrying on races. */
  async modify(id: string, change: (lib: LibraryRecord) => Partial<LibraryRecord> | null): Promise<LibraryRecord | null> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const lib = await this.Library.findById(id).lean<LibraryRecord>();
      if (!lib) return null;
      const fields = change(lib);
      if (!fields) return lib;
      const r = await this.Library.updateOne({ _id: id, rev: lib.rev }, { $set: { ...fields, updatedAt: new Date() }, $inc: { rev: 1 } });
      this.cache.delete(id);
      this.all = undefined;
      if (r.matchedCount === 1) return { ...lib, ...fields, rev: lib.rev + 1 };
      await new Promise((r2) => setTimeout(r2, 10 + Math.random() * 40));
    }
    throw new Error(`could not update library ${id}: too many concurrent writers`);
  }

  /** Switches a version to a new generation (the one step that makes a build visible). */
  async publishVersion(id: string, version: LibraryVersionRecord, meta: Partial<Pick<LibraryRecord, 'title' | 'description' | 'branch'>>): Promise<LibraryRecord | null> {
    return this.modify(id, (lib) => {
      const versions = lib.versions.filter((v) => v.version !== version.version);
      versions.push(version);
      versions.sort((a, b) => (a.version === 'latest' ? -1 : b.version === 'latest' ? 1 : b.version.localeCompare(a.version, undefined, { numeric: true })));
      return { ...meta, versions, state: 'finalized' };
    });
  }

  async setState(id: string, state: LibraryRecord['state']): Promise<void> {
    await this.modify(id, (lib) => (lib.state === state ? null : { state }));
  }

  async delete(id: string): Promise<boolean> {
    const r = await this.Library.deleteOne({ _id: id });
    this.cache.delete(id);
    this.all = undefined;
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
  if (!match) throw new TagNotFoundError(lib._id, requested, versionNames({ versions: ready }));
  return match;
}
