import { Schema, type Connection, type Model } from 'mongoose';

/** A team policy's library filters (auth/policy.ts decides with them). */
export interface LibraryFilters {
  mode: 'quality' | 'select';
  blockedLibraries: string[];
  exceptedLibraries: string[];
  minTrustScore: number | null;
  allowedLibraries: string[];
  sourceTypes: string[];
}

/** A team's library policy (`_id` is the team id). Absent = the default policy. */
export interface PolicyRecord {
  _id: string;
  libraryFilters: LibraryFilters;
  updatedAt: Date;
  updatedBy: string | null;
}

const policySchema = new Schema<PolicyRecord>(
  {
    _id: { type: String, required: true },
    libraryFilters: {
      mode: { type: String, default: 'quality' },
      blockedLibraries: { type: [String], default: [] },
      exceptedLibraries: { type: [String], default: [] },
      minTrustScore: { type: Number, default: null },
      allowedLibraries: { type: [String], default: [] },
      sourceTypes: { type: [String], default: [] },
    },
    updatedAt: { type: Date, default: () => new Date() },
    updatedBy: { type: String, default: null },
  },
  { collection: 'policies', versionKey: false, minimize: false },
);

export type PolicyModel = Model<PolicyRecord>;

export function policyModel(conn: Connection): PolicyModel {
  return (conn.models.Policy as PolicyModel | undefined) ?? conn.model<PolicyRecord>('Policy', policySchema);
}
