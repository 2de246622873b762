/**
 * Locks under a unique `_id`: the one write that is atomic on FerretDB as on MongoDB.
 *
 * FerretDB 1.x applies every update as read → modify in Go → write back the whole
 * document, without isolation between connections: two `updateOne({_id, rev: n})` both
 * match and both write (measured: 67 "winners" over 10 rounds of 20 racing writers, where
 * MongoDB gives 10), `$inc`s are lost and `findOneAndUpdate` can hand one job to two
 * workers. Its unique indexes are enforced by SQLite (or PostgreSQL), so an insert of an
 * existing `_id` fails with E11000 on every backend. Whatever must happen once — a job
 * claimed by one worker, a job ended once, a document revision written by one writer — is
 * therefore decided by inserting a lock document, and only the winner writes.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicate } from './mongo';

/** This process, as the holder of the locks it takes. */
export const INSTANCE_ID = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;

export interface LockRecord {
  _id: string;
  /** Who took it (a worker id, an instance id, a user). */
  holder: string;
  at: Date;
  /** What the lock decided (a job's outcome, for example). */
  data: Record<string, unknown>;
}

const lockSchema = new Schema<LockRecord>(
  {
    _id: { type: String, required: true },
    holder: { type: String, required: true },
    at: { type: Date, required: true },
    data: { type: Schema.Types.Mixed, default: {} },
  },
  { collection: 'locks', versionKey: false, minimize: false },
);
lockSchema.index({ at: 1 });

export type LockModel = Model<LockRecord>;

export function lockModel(conn: Connection): LockModel {
  return (conn.models.Lock as LockModel | undefined) ?? conn.model<LockRecord>('Lock', lockSchema);
}

export class LockStore {
  constructor(private readonly Lock: LockModel) {}

  /** Takes the lock `key`; false when it exists already (whoever holds it, for how long). */
  async acquire(key: string, holder: string, data: Record<string, unknown> = {}): Promise<boolean> {
    try {
      await this.Lock.create({ _id: key, holder, at: new Date(), data });
      return true;
    } catch (error) {
      if (isDuplicate(error)) return false;
      throw error;
    }
  }

  get(key: string): Promise<LockRecord | null> {
    return this.Lock.findById(key).lean<LockRecord>();
  }

  /** Locks whose key starts with `prefix`, oldest first. */
  list(prefix: string): Promise<LockRecord[]> {
    return this.Lock.find({ _id: { $regex: `^${escapeRegex(prefix)}` } })
      .sort({ at: 1 })
      .lean<LockRecord[]>();
  }

  async release(key: string): Promise<void> {
    await this.Lock.deleteOne({ _id: key });
  }

  /** Releases `key` only if `holder` holds it. */
  async releaseIf(key: string, holder: string): Promise<void> {
    await this.Lock.deleteOne({ _id: key, holder });
  }

  /** Removes every lock whose key starts with `prefix` (a job's locks once it is deleted). */
  async releaseAll(prefix: string): Promise<void> {
    await this.Lock.deleteMany({ _id: { $regex: `^${escapeRegex(prefix)}` } });
  }

  /** Removes the locks under `prefix` taken before `before` (decisions long past). */
  async releaseOlderThan(prefix: string, before: Date): Promise<void> {
    await this.Lock.deleteMany({ _id: { $regex: `^${escapeRegex(prefix)}` }, at: { $lt: before } });
  }

  /**
   * Breaks a lock its holder abandoned (it crashed between taking it and finishing): deletes
   * it only if it is the same lock (same `at`) and older than `staleMs`. Several breakers
   * may delete it; the next `acquire` still has one winner.
   */
  async breakIfStale(lock: LockRecord, staleMs: number, now = Date.now()): Promise<boolean> {
    if (now - new Date(lock.at).getTime() < staleMs) return false;
    await this.Lock.deleteOne({ _id: lock._id, at: lock.at });
    return true;
  }
}

/** A lock older than this is abandoned: no single write of ours takes that long. */
export const REVISION_LOCK_STALE_MS = 120_000;

/**
 * Compare-and-set of a document with a `rev` counter that holds on FerretDB: the writer of
 * revision `rev + 1` is whoever inserts the lock `<scope>:<id>@<rev + 1>`; only it writes.
 * Resolves false when another writer has (or had) that revision: re-read and try again.
 * A writer that died between the lock and the write blocks the document for
 * {@link REVISION_LOCK_STALE_MS}, then its lock is broken.
 */
export async function writeRevision(
  locks: LockStore,
  model: { updateOne(filter: Record<string, unknown>, update: Record<string, unknown>): PromiseLike<{ matchedCount: number }> },
  scope: string,
  current: { _id: string; rev: number },
  set: Record<string, unknown>,
  holder = INSTANCE_ID,
): Promise<boolean> {
  const key = `${scope}:${current._id}@${current.rev + 1}`;
  if (!(await locks.acquire(key, holder))) {
    const held = await locks.get(key);
    if (held) await locks.breakIfStale(held, REVISION_LOCK_STALE_MS);
    return false;
  }
  const r = await model.updateOne({ _id: current._id, rev: current.rev }, { $set: { ...set, rev: current.rev + 1 } });
  // The previous revision's lock is no longer needed (the current one guards the next write).
  void locks.release(`${scope}:${current._id}@${current.rev}`).catch(() => undefined);
  return r.matchedCount === 1;
}

/** `s` as a literal in a `$regex`. */
export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
