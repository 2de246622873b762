import { Schema, type Connection, type Model } from 'mongoose';

/** Operations that the permission settings may open to anonymous callers. */
export const ANONYMOUS_OPERATIONS = ['add', 'refresh', 'upload', 'policies', 'metrics', 'jobs'] as const;
export type AnonymousOperation = (typeof ANONYMOUS_OPERATIONS)[number];

/** The singleton settings document (`_id: 'global'`). */
export interface SettingsRecord {
  _id: 'global';
  anonymous: Record<AnonymousOperation, boolean>;
  updatedAt: Date;
}

const settingsSchema = new Schema<SettingsRecord>(
  {
    _id: { type: String, required: true },
    anonymous: {
      add: { type: Boolean, default: false },
      refresh: { type: Boolean, default: false },
      upload: { type: Boolean, default: false },
      policies: { type: Boolean, default: false },
      metrics: { type: Boolean, default: false },
      jobs: { type: Boolean, default: false },
    },
    updatedAt: { type: Date, default: () => new Date() },
  },
  { collection: 'settings', versionKey: false, minimize: false },
);

export type SettingsModel = Model<SettingsRecord>;

export function settingsModel(conn: Connection): SettingsModel {
  return (conn.models.Settings as SettingsModel | undefined) ?? conn.model<SettingsRecord>('Settings', settingsSchema);
}
