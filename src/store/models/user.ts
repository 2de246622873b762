import { Schema, type Connection, type Model } from 'mongoose';

export type Role = 'admin' | 'member';
export type TeamRole = 'owner' | 'member';

export interface MembershipRecord {
  teamId: string;
  role: TeamRole;
}

/**
 * A user. Team memberships live here (not on the team) so that authenticating a request
 * needs one read for the user and none for teams.
 */
export interface UserRecord {
  _id: string;
  username: string;
  /** Lowercased username: the unique lookup key. */
  usernameKey: string;
  passwordHash: string;
  role: Role;
  /** The default administrator's credentials are still the shipped ones. */
  mustChangePassword: boolean;
  memberships: MembershipRecord[];
  /** The team acted for by default (policies, private repositories). */
  defaultTeamId: string | null;
  /** Optimistic-concurrency revision for membership changes. */
  rev: number;
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<UserRecord>(
  {
    _id: { type: String, required: true },
    username: { type: String, required: true },
    usernameKey: { type: String, required: true },
    passwordHash: { type: String, required: true },
    role: { type: String, required: true },
    mustChangePassword: { type: Boolean, default: false },
    memberships: { type: [{ teamId: String, role: String, _id: false }], default: [] },
    defaultTeamId: { type: String, default: null },
    rev: { type: Number, default: 0 },
  },
  { collection: 'users', timestamps: true, versionKey: false, minimize: false },
);
userSchema.index({ usernameKey: 1 }, { unique: true });
userSchema.index({ 'memberships.teamId': 1 });

export type UserModel = Model<UserRecord>;

export function userModel(conn: Connection): UserModel {
  return (conn.models.User as UserModel | undefined) ?? conn.model<UserRecord>('User', userSchema);
}
