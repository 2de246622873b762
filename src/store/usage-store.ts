/**
 * The usage counters' reads and writes (store/models/usage.ts), for auth/usage.ts, which
 * keeps the counting, the turns on the store and the sums. Writes are `$inc` upserts of one
 * writer's own documents in bounded bulks (store/bulk.ts); reads return stored rows only.
 */
import type { mongo } from 'mongoose';
import { bulkUpdate, rawCollection, type IdDocument } from './bulk';
import type { UsageDailyModel, UsageDailyRecord, UsageQueryModel, UsageQueryRecord } from './models/usage';

/** One counter document's increment: created with `setOnInsert` when absent. */
export interface UsageIncrement {
  _id: string;
  inc: Record<string, number>;
  setOnInsert: Record<string, unknown>;
}

export class UsageStore {
  constructor(
    private readonly Daily: UsageDailyModel,
    private readonly Query: UsageQueryModel,
  ) {}

  /** One bulk of increments of day rows or query rows (at most MAX_UPDATE_STATEMENTS). */
  async increment(kind: 'day' | 'query', increments: readonly UsageIncrement[]): Promise<void> {
    const ops = increments.map(
      (i): mongo.AnyBulkWriteOperation<IdDocument> => ({
        updateOne: { filter: { _id: i._id }, update: { $inc: i.inc, $setOnInsert: i.setOnInsert }, upsert: true },
      }),
    );
    await bulkUpdate(rawCollection(kind === 'day' ? this.Daily : this.Query), ops);
  }

  /** Day rows of one row key (a library id, `*`, or a caller row) since `from`. */
  days(libraryId: string, from: string): Promise<UsageDailyRecord[]> {
    return this.Daily.find({ libraryId, date: { $gte: from } })
      .lean<UsageDailyRecord[]>()
      .exec();
  }

  /** One library's stored query counts since `from`. */
  queries(libraryId: string, from: string): Promise<UsageQueryRecord[]> {
    return this.Query.find({ libraryId, date: { $gte: from } }, { query: 1, count: 1 })
      .lean<UsageQueryRecord[]>()
      .exec();
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
    return this.Query.find({ date: { $gte: from }, zero: { $gt: 0 } }, { libraryId: 1, query: 1, zero: 1 })
      .lean<UsageQueryRecord[]>()
      .exec();
  }

  /** Queries with a recorded search score since `from`. */
  scoredQueries(from: string): Promise<UsageQueryRecord[]> {
    return this.Query.find({ date: { $gte: from }, scored: { $gt: 0 } }, { libraryId: 1, query: 1, count: 1, scoreSum: 1, scored: 1 })
      .lean<UsageQueryRecord[]>()
      .exec();
  }

  /** Drops the rows of days before `cutoff`. */
  async purgeBefore(cutoff: string): Promise<void> {
    await this.Daily.deleteMany({ date: { $lt: cutoff } });
    await this.Query.deleteMany({ date: { $lt: cutoff } });
  }
}
