import { Schema, type Connection, type Model } from 'mongoose';

/** A dashboard session; its id is the JWT's `jti`. Deleting it logs the session out. */
export interface SessionRecord {
  _id: string;
  userId: string;
  expiresAt: Date;
  createdAt: Date;
}

const sessionSchema = new Schema<SessionRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'sessions', versionKey: false },
);
// No TTL index (FerretDB has none): expired sessions are purged by a timed deleteMany.
sessionSchema.index({ expiresAt: 1 });
sessionSchema.index({ userId: 1 });

export type SessionModel = Model<SessionRecord>;

export function sessionModel(conn: Connection): SessionModel {
  return (conn.models.Session as SessionModel | undefined) ?? conn.model<SessionRecord>('Session', sessionSchema);
}
