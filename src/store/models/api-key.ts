import { Schema, type Connection, type Model } from 'mongoose';

/** A user's API key. Only the SHA-256 of the value is stored; `prefix` is for display. */
export interface ApiKeyRecord {
  _id: string;
  userId: string;
  name: string;
  hash: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** The project the key is bound to: requests with it answer at the project's pinned versions (absent: none). */
  projectId?: string | null;
}

const apiKeySchema = new Schema<ApiKeyRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    name: { type: String, required: true },
    hash: { type: String, required: true },
    prefix: { type: String, required: true },
    createdAt: { type: Date, required: true },
    lastUsedAt: { type: Date, default: null },
    projectId: { type: String, default: null },
  },
  { collection: 'api_keys', versionKey: false },
);
apiKeySchema.index({ hash: 1 }, { unique: true });
apiKeySchema.index({ userId: 1 });

export type ApiKeyModel = Model<ApiKeyRecord>;

export function apiKeyModel(conn: Connection): ApiKeyModel {
  return (conn.models.ApiKey as ApiKeyModel | undefined) ?? conn.model<ApiKeyRecord>('ApiKey', apiKeySchema);
}
