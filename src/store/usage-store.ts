/**
 * The usage counters' reads and writes (store/models/usage.ts), for auth/usage.ts, which
 * keeps the counting, the turns on the store and the sums. Writes are `$inc` upserts of one
 * writer's own documents in bounded bulks (store/bulk.ts); reads return stored rows only.
 *
 * Query counters live in one collection per UTC month (`usage_queries_2026_11`): FerretDB
 * (1.x, SQLite) reads a whole collection for any filter but one `_id`, so a read of the last
 * 30 days scanned all 400 days kept (630 ms at 13,000 documents); it now reads the months
 * asked, and the purge drops whole months. The collection of earlier releases
 * (`usage_queries`) is moved into the months by the hourly purge, a bounded batch at a time,
 * then dropped: each document is inserted into its month under `<_id>|moved` (an insert of
 * an existing `_id` fails: moving twice, from a crash or two instances, moves once), then
 * deleted; a read meanwhile counts a document found in both places once.
 */
import type { mongo } from 'mongoose';
import { bulkUpdate, chunked, insertAbsent, MAX_INSERT_DOCUMENTS, rawCollection, type BoundedCollection, type IdDocument } from './bulk';
import type { UsageDailyModel, UsageDailyRecord, UsageQueryModel, UsageQueryRecord } from './models/usage';

/** One counter document's increment: created with `setOnInsert` when absent. */
export interface UsageIncrement {
  _id: string;
  inc: Record<string, number>;
  setOnInsert: Record<string, unknown>;
}

/** The name of the query counters' collection of a day's month (`2026-11-28` → `usage_queries_2026_11`). */
export function queryPartition(date: string): string {
  return `${QUERY_PARTITION_PREFIX}${date.slice(0, 4)}_${date.slice(5, 7)}`;
}
const QUERY_PARTITION_PREFIX = 'usage_queries_';
const PARTITION_RE = /^usage_queries_(\d{4})_(\d{2})$/;

/** The suffix of a document moved from earlier releases' collection into its month. */
const MOVED = '|moved';
/** Documents of earlier releases' collection moved at most per purge (a few seconds of FerretDB). */
const MOVED_PER_PURGE = 5_000;

/** A collection another instance's purge dropped first is gone all the same (MongoDB's NamespaceNotFound). */
function unlessGone(error: unknown): void {
  if ((error as { code?: number }).code !== 26) throw error;
}

export class UsageStore {
  /** Months whose collection this process has indexed (their first write creates it). */
  private readonly indexed = new Set<string>();
  /** False once the collection of earlier releases is known to be gone. */
  private legacy = true;

  constructor(
    private readonly Daily: UsageDailyModel,
    private readonly Query: UsageQueryModel,
  ) {}

  /** One bulk of increments of day rows or query rows (at most MAX_UPDATE_STATEMENTS). */
  async increment(kind: 'day' | 'query', increments: readonly UsageIncrement[]): Promise<void> {
    const ops = (list: readonly UsageIncrement[]) =>
      list.map(
        (i): mongo.AnyBulkWriteOperation<IdDocument> => ({
          updateOne: { filter: { _id: i._id }, update: { $inc: i.inc, $setOnInsert: i.setOnInsert }, upsert: true },
        }),
      );
    if (kind === 'day') {
      await bulkUpdate(rawCollection(this.Daily), ops(increments));
      return;
    }
    const byMonth = new Map<string, UsageIncrement[]>();
    for (const i of increments) {
      const name = queryPartition(String(i.setOnInsert.date));
      byMonth.set(name, [...(byMonth.get(name) ?? []), i]);
    }
    for (const [name, list] of byMonth) {
      const collection = this.collection(name);
      if (!this.indexed.has(name)) {
        await collection.createIndex({ libraryId: 1, date: 1 });
        this.indexed.add(name);
      }
      await bulkUpdate(collection, ops(list));
    }
  }

  /** Day rows of one row key (a library id, `*`, or a caller row) since `from`. */
  days(libraryId: string, from: string): Promise<UsageDailyRecord[]> {
    return this.Daily.find({ libraryId, date: { $gte: from } })
      .lean<UsageDailyRecord[]>()
      .exec();
  }

  /** One library's stored query counts since `from`. */
  queries(libraryId: string, from: string): Promise<UsageQueryRecord[]> {
    return this.queryRows(from, { libraryId }, { query: 1, count: 1 });
  }

  /** Stored requests per library (libraries only: not `*`, not caller rows) since `from`. */
  requestsPerLibrary(from: string): Promise<Array<{ _id: string; requests: number }>> {
    // FerretDB 1.x computes only the first accumulator of a $group, so one $sum per query.
    return this.Daily.aggregate<{ _id: string; requests: number }>([
      { $match: { date: { $gte: from }, libraryId: { $regex: '^/' } } },
      { $group: { _id: '$libraryId', requests: { $sum: '$requests' } } },
    ]).exec();
  }

  /** The token counts of some libraries' day rows since `from`. */
  tokensOf(libraryIds: readonly string[], from: string): Promise<UsageDailyRecord[]> {
    if (libraryIds.length === 0) return Promise.resolve([]);
    return this.Daily.find({ libraryId: { $in: [...libraryIds] }, date: { $gte: from } }, { libraryId: 1, tokens: 1 })
      .lean<UsageDailyRecord[]>()
      .exec();
  }

  /** Caller rows (by key, by team: ids beginning `@`) since `from`. */
  callerDays(from: string): Promise<UsageDailyRecord[]> {
    return this.Daily.find({ libraryId: { $regex: '^@' }, date: { $gte: from } })
      .lean<UsageDailyRecord[]>()
      .exec();
  }

  /** Queries that found nothing at least once since `from`. */
  zeroResultQueries(from: string): Promise<UsageQueryRecord[]> {
    return this.queryRows(from, { zero: { $gt: 0 } }, { libraryId: 1, query: 1, zero: 1 });
  }

  /** Queries with a recorded search score since `from`. */
  scoredQueries(from: string): Promise<UsageQueryRecord[]> {
    return this.queryRows(from, { scored: { $gt: 0 } }, { libraryId: 1, query: 1, count: 1, scoreSum: 1, scored: 1 });
  }

  /** Drops the rows of days before `cutoff`: whole months of query counters, then the rest by date. */
  async purgeBefore(cutoff: string): Promise<void> {
    await this.Daily.deleteMany({ date: { $lt: cutoff } });
    const first = queryPartition(cutoff);
    for (const name of await this.partitions()) {
      if (name < first) await this.collection(name).drop().catch(unlessGone);
      else if (name === first) await this.collection(name).deleteMany({ date: { $lt: cutoff } });
    }
    this.indexed.clear();
    if (!this.legacy) return;
    await this.Query.deleteMany({ date: { $lt: cutoff } });
    await this.moveLegacy(MOVED_PER_PURGE);
    if ((await this.Query.estimatedDocumentCount()) === 0) {
      await rawCollection(this.Query).drop().catch(unlessGone);
      this.legacy = false;
    }
  }

  /** Moves up to `most` documents of earlier releases' collection into their months (see the module's comment). */
  async moveLegacy(most: number): Promise<number> {
    const legacy = rawCollection(this.Query);
    const docs = await legacy.find({}, { limit: most }).toArray();
    for (const chunk of chunked(docs, MAX_INSERT_DOCUMENTS)) {
      const byMonth = new Map<string, IdDocument[]>();
      for (const d of chunk) {
        const name = queryPartition(String(d.date));
        byMonth.set(name, [...(byMonth.get(name) ?? []), { ...d, _id: `${d._id}${MOVED}` }]);
      }
      // A document moved before (E11000) does not stop the others.
      for (const [name, moved] of byMonth) await insertAbsent(this.collection(name), moved);
      await legacy.deleteMany({ _id: { $in: chunk.map((d) => d._id) } });
    }
    return docs.length;
  }

  /** The query counter rows of the months from `from`'s on (and of the collection of earlier releases) matching `filter`. */
  private async queryRows(from: string, filter: mongo.Filter<IdDocument>, projection: mongo.Document): Promise<UsageQueryRecord[]> {
    const where = { ...filter, date: { $gte: from } };
    // The old collection first: a document moved meanwhile is then in its month (listed and read after).
    const old = this.legacy ? await rawCollection(this.Query).find(where, { projection }).toArray() : [];
    const first = queryPartition(from);
    const names = (await this.partitions()).filter((name) => name >= first);
    const rows = (await Promise.all(names.map((name) => this.collection(name).find(where, { projection }).toArray()))).flat();
    // A document being moved (in its month already, not yet deleted from the old collection) counts once.
    const moved = new Set(rows.filter((r) => r._id.endsWith(MOVED)).map((r) => r._id.slice(0, -MOVED.length)));
    return [...rows, ...old.filter((r) => !moved.has(r._id))] as unknown as UsageQueryRecord[];
  }

  /** The months' collections there are, by name (their names sort by month). */
  private async partitions(): Promise<string[]> {
    const listed = await this.Query.db.db!.listCollections({}, { nameOnly: true }).toArray();
    return listed
      .map((c) => c.name)
      .filter((name) => PARTITION_RE.test(name))
      .sort();
  }

  private collection(name: string): BoundedCollection {
    return this.Query.db.db!.collection<IdDocument>(name) as BoundedCollection;
  }
}
