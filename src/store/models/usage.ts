import { Schema, type Connection, type Model } from 'mongoose';

/** `playground`: the dashboard's own playground (a signed-in session), labelled apart from API traffic. */
export type UsageChannel = 'api' | 'txt' | 'mcp' | 'playground';

/** One UTC hour's counts inside a day row (`h.<HH>`), for charts with hourly buckets. */
export interface HourCounts {
  api?: number;
  txt?: number;
  mcp?: number;
  playground?: number;
  tokens?: number;
}

/**
 * Requests and tokens served for one library on one UTC day by one writer (a server
 * instance): `_id` = `<libraryId>|<date>|<writer>`; readers sum the writers' documents.
 * The library id `*` holds the totals over all libraries.
 */
export interface UsageDailyRecord {
  _id: string;
  libraryId: string;
  date: string;
  api: number;
  txt: number;
  mcp: number;
  playground?: number;
  requests: number;
  tokens: number;
  /** Per UTC hour ("00"…"23"); missing on rows written before hourly counts. */
  h?: Record<string, HourCounts>;
  teamId: string | null;
  writer: string;
}

/** How often one normalised query was asked of a library on a day (per writer, as above). */
export interface UsageQueryRecord {
  _id: string;
  libraryId: string;
  date: string;
  query: string;
  count: number;
  /** Times the query found nothing. */
  zero?: number;
  /** Sum of the answers' top scores per query term, and how many answers it sums (low-score questions). */
  scoreSum?: number;
  scored?: number;
  writer: string;
}

const usageDailySchema = new Schema<UsageDailyRecord>(
  {
    _id: { type: String, required: true },
    libraryId: { type: String, required: true },
    date: { type: String, required: true },
    api: { type: Number, default: 0 },
    txt: { type: Number, default: 0 },
    mcp: { type: Number, default: 0 },
    playground: { type: Number, default: 0 },
    requests: { type: Number, default: 0 },
    tokens: { type: Number, default: 0 },
    h: { type: Schema.Types.Mixed, default: undefined },
    teamId: { type: String, default: null },
    writer: { type: String, default: '' },
  },
  { collection: 'usage_daily', versionKey: false },
);
usageDailySchema.index({ libraryId: 1, date: 1 });
usageDailySchema.index({ date: 1 });

const usageQuerySchema = new Schema<UsageQueryRecord>(
  {
    _id: { type: String, required: true },
    libraryId: { type: String, required: true },
    date: { type: String, required: true },
    query: { type: String, required: true },
    count: { type: Number, default: 0 },
    zero: { type: Number, default: 0 },
    scoreSum: { type: Number, default: 0 },
    scored: { type: Number, default: 0 },
    writer: { type: String, default: '' },
  },
  // Earlier releases' collection: read until purged empty. Counters are written to one
  // collection per month (store/usage-store.ts), each indexed on its first write.
  { collection: 'usage_queries', versionKey: false },
);

export type UsageDailyModel = Model<UsageDailyRecord>;
export type UsageQueryModel = Model<UsageQueryRecord>;

export function usageDailyModel(conn: Connection): UsageDailyModel {
  return (conn.models.UsageDaily as UsageDailyModel | undefined) ?? conn.model<UsageDailyRecord>('UsageDaily', usageDailySchema);
}

export function usageQueryModel(conn: Connection): UsageQueryModel {
  return (conn.models.UsageQuery as UsageQueryModel | undefined) ?? conn.model<UsageQueryRecord>('UsageQuery', usageQuerySchema);
}
