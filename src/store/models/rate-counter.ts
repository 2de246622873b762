import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A rate-limit record. With the `$inc` strategy one document per class, identity and
 * window holds `count` (request numbers reserved so far); with the slot strategy
 * (FerretDB) one document per reserved block, `_id` = `<window key>:<block>`. Either way
 * `expiresAt` drives the purge. See auth/rate-limiter.ts.
 */
export interface RateCounterRecord {
  _id: string;
  count?: number;
  expiresAt: Date;
}

const rateCounterSchema = new Schema<RateCounterRecord>(
  {
    _id: { type: String, required: true },
    count: { type: Number },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'rate_counters', versionKey: false },
);
rateCounterSchema.index({ expiresAt: 1 });

export type RateCounterModel = Model<RateCounterRecord>;

export function rateCounterModel(conn: Connection): RateCounterModel {
  return (conn.models.RateCounter as RateCounterModel | undefined) ?? conn.model<RateCounterRecord>('RateCounter', rateCounterSchema);
}
