/**
 * Multi-statement writes, bounded so that no traffic can wedge FerretDB.
 *
 * FerretDB 1.24's `update` command keeps one SQLite connection per statement until the
 * whole command ends (a `defer` inside its statement loop), and each database's pool holds
 * 100 connections: one update command of 100 statements, or concurrent ones adding up to
 * that, waits forever for connection 101, and from then on every query of that database
 * hangs while `ping` still answers (measured: 99 statements pass, 100 wedge; 20 concurrent
 * commands of 16 statements wedge). Inserts and deletes do not hold connections per
 * document (500-document commands measured fine).
 *
 * So every multi-statement write goes through this module: updates in commands of at most
 * {@link MAX_UPDATE_STATEMENTS} statements, one multi-statement command at a time per
 * process (the bulk lane), inserts in commands of at most {@link MAX_INSERT_DOCUMENTS}.
 * A deadlock needs the statements held by concurrent commands to reach the pool's 100;
 * with one command per process in flight, that takes 100 / (8 − 1) = 14 processes flushing
 * at the same instant. `boundedWritesPlugin` refuses larger bulks made through mongoose
 * models, and {@link BoundedCollection} (what `rawCollection` returns) has no unbounded
 * bulk methods, so an unbounded bulk cannot be written by accident.
 */
import type { Schema, mongo } from 'mongoose';

/** Statements per `update` command (FerretDB holds a connection for each until it ends). */
export const MAX_UPDATE_STATEMENTS = 8;
/** Documents per `insert` command. */
export const MAX_INSERT_DOCUMENTS = 500;

/** The largest update command any traffic can send (for the health figures and the docs). */
export const LARGEST_WRITE = { updateStatements: MAX_UPDATE_STATEMENTS, insertDocuments: MAX_INSERT_DOCUMENTS } as const;

export class UnboundedWriteError extends Error {
  constructor(what: string, size: number, max: number) {
    super(`${what} of ${size} statements refused: at most ${max} per command (FerretDB wedges on large update commands); use store/bulk.ts`);
  }
}

/** A document with a string `_id`, as counters and other hand-keyed records have. */
export interface IdDocument extends mongo.Document {
  _id: string;
}

/**
 * The driver's collection without its unbounded bulk methods: writes of many documents go
 * through {@link bulkUpdate} and {@link insertDocuments}.
 */
export type BoundedCollection<T extends mongo.Document = IdDocument> = Omit<
  mongo.Collection<T>,
  'bulkWrite' | 'insertMany' | 'initializeOrderedBulkOp' | 'initializeUnorderedBulkOp'
>;

/** One multi-statement command at a time per process. */
let lane: Promise<unknown> = Promise.resolve();
function inLane<R>(fn: () => Promise<R>): Promise<R> {
  const run = lane.then(fn, fn);
  lane = run.catch(() => undefined);
  return run;
}

/** Splits `items` into consecutive chunks of at most `size`. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface BulkUpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
}

/**
 * Writes update statements (`updateOne`/`updateMany`) in commands of at most
 * {@link MAX_UPDATE_STATEMENTS}, one command after another, in the process's bulk lane.
 * Statements are applied in order; a failure stops at its command (earlier commands stay).
 */
export async function bulkUpdate<T extends mongo.Document>(
  collection: BoundedCollection<T>,
  statements: ReadonlyArray<mongo.AnyBulkWriteOperation<T>>,
): Promise<BulkUpdateResult> {
  const result: BulkUpdateResult = { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
  const full = collection as mongo.Collection<T>;
  for (const chunk of chunked(statements, MAX_UPDATE_STATEMENTS)) {
    const r = chunk.length === 1 ? await singleUpdate(full, chunk[0]!) : await inLane(() => full.bulkWrite(chunk, { ordered: true }));
    result.matchedCount += r.matchedCount;
    result.modifiedCount += r.modifiedCount;
    result.upsertedCount += r.upsertedCount;
  }
  return result;
}

async function singleUpdate<T extends mongo.Document>(collection: mongo.Collection<T>, op: mongo.AnyBulkWriteOperation<T>): Promise<BulkUpdateResult> {
  if ('updateOne' in op) {
    const { filter, update, upsert } = op.updateOne;
    const r = await collection.updateOne(filter, update as mongo.UpdateFilter<T>, { upsert });
    return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedCount: r.upsertedCount };
  }
  return inLane(() => collection.bulkWrite([op], { ordered: true }));
}

/** Inserts documents in commands of at most {@link MAX_INSERT_DOCUMENTS}, in order. */
export async function insertDocuments<T extends mongo.Document>(
  collection: BoundedCollection<T>,
  docs: ReadonlyArray<mongo.OptionalUnlessRequiredId<T>>,
): Promise<number> {
  let inserted = 0;
  const full = collection as mongo.Collection<T>;
  for (const chunk of chunked(docs, MAX_INSERT_DOCUMENTS)) {
    inserted += (await full.insertMany(chunk, { ordered: true })).insertedCount;
  }
  return inserted;
}

/** True for a duplicate-key error (E11000) of MongoDB or FerretDB, single or bulk. */
export function isDuplicate(error: unknown): boolean {
  return error instanceof Error && /E11000/.test(error.message);
}

/**
 * Inserts documents that may exist already (by `_id`), in commands of at most
 * {@link MAX_INSERT_DOCUMENTS}: unordered, so an existing one does not stop the others, and
 * its duplicate-key error is what "already there" means (the one atomic write on FerretDB).
 */
export async function insertAbsent<T extends mongo.Document>(
  collection: BoundedCollection<T>,
  docs: ReadonlyArray<mongo.OptionalUnlessRequiredId<T>>,
): Promise<void> {
  const full = collection as mongo.Collection<T>;
  for (const chunk of chunked(docs, MAX_INSERT_DOCUMENTS)) {
    await full.insertMany(chunk, { ordered: false }).catch((error: unknown) => {
      if (!isDuplicate(error)) throw error;
    });
  }
}

/** The driver's collection under a model, for writes that need no casting or validation. */
export function rawCollection<T extends mongo.Document = IdDocument>(model: { collection: unknown }): BoundedCollection<T> {
  return model.collection as BoundedCollection<T>;
}

function countUpdates(ops: unknown): number {
  if (!Array.isArray(ops)) return 0;
  return ops.filter((op) => op && typeof op === 'object' && ('updateOne' in op || 'updateMany' in op || 'replaceOne' in op)).length;
}

/**
 * A mongoose plugin (installed on every connection by `connectMongo`) that refuses
 * `Model.bulkWrite` with more than {@link MAX_UPDATE_STATEMENTS} update statements and
 * `Model.insertMany` with more than {@link MAX_INSERT_DOCUMENTS} documents.
 */
export function boundedWritesPlugin(schema: Schema): void {
  schema.pre('bulkWrite', function refuseUnboundedBulk(ops: unknown) {
    const n = countUpdates(ops);
    if (n > MAX_UPDATE_STATEMENTS) throw new UnboundedWriteError('a bulk write', n, MAX_UPDATE_STATEMENTS);
  });
  schema.pre('insertMany', function refuseUnboundedInsert(docs: unknown) {
    const n = Array.isArray(docs) ? docs.length : 1;
    if (n > MAX_INSERT_DOCUMENTS) throw new UnboundedWriteError('an insert', n, MAX_INSERT_DOCUMENTS);
  });
}
