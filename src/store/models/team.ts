import { Schema, type Connection, type Model } from 'mongoose';

export type PlanId = 'free' | 'pro' | 'enterprise';

/** A team. Its members are the users whose `memberships` name it. */
export interface TeamRecord {
  _id: string;
  name: string;
  /** Lowercased name: unique. */
  nameKey: string;
  plan: PlanId;
  createdAt: Date;
  updatedAt: Date;
}

const teamSchema = new Schema<TeamRecord>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    nameKey: { type: String, required: true },
    plan: { type: String, required: true },
  },
  { collection: 'teams', timestamps: true, versionKey: false },
);
teamSchema.index({ nameKey: 1 }, { unique: true });

export type TeamModel = Model<TeamRecord>;

export function teamModel(conn: Connection): TeamModel {
  return (conn.models.Team as TeamModel | undefined) ?? conn.model<TeamRecord>('Team', teamSchema);
}
