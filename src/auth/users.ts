/**
 * Users: accounts with a global role, a password (argon2id) and team memberships. The only
 * code that touches the User model.
 */
import type { MembershipRecord, Role, TeamRole, UserModel, UserRecord } from '../store/models/user';
import { ConflictError, UserNotFoundError, ValidationError } from '../errors';
import { hashPassword } from './passwords';
import { newId } from './crypto';
import type { UserPrincipal } from './principal';
import { isDuplicate } from '../store/mongo';
import { writeRevision, type LockStore } from '../store/locks';

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{1,63}$/;
export const USERNAME_RULE = 'must be 2-64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit';

export interface NewUser {
  /** A fixed id (the default administrator is `usr_admin`); random when omitted. */
  id?: string;
  username: string;
  password: string;
  role: Role;
  mustChangePassword?: boolean;
  memberships?: MembershipRecord[];
}

export class UserService {
  private readonly authCache = new Map<string, { at: number; user: UserRecord | null }>();

  constructor(
    private readonly User: UserModel,
    private readonly locks: LockStore,
    private readonly authCacheMs = 1000,
  ) {}

  count(): Promise<number> {
    return this.User.countDocuments({});
  }

  async create(input: NewUser): Promise<UserRecord> {
    if (!USERNAME_PATTERN.test(input.username)) throw new ValidationError(`username ${USERNAME_RULE}.`, 'username');
    const memberships = input.memberships ?? [];
    const doc = {
      _id: input.id ?? newId('usr'),
      username: input.username,
      usernameKey: input.username.toLowerCase(),
      passwordHash: await hashPassword(input.password),
      role: input.role,
      mustChangePassword: input.mustChangePassword ?? false,
      memberships,
      defaultTeamId: memberships[0]?.teamId ?? null,
      rev: 0,
    };
    try {
      await this.User.create(doc);
    } catch (error) {
      if (isDuplicate(error)) throw new ConflictError(`The username "${input.username}" is taken.`);
      throw error;
    }
    return this.require(doc._id);
  }

  get(id: string): Promise<UserRecord | null> {
    return this.User.findById(id).lean<UserRecord>();
  }

  /**
   * The user as authentication needs it. Every request with a key or session asks, so the
   * answer is kept for `authCacheMs` (1 s) per instance, like policies and library records;
   * this instance's own changes to a user drop it at once. Keys and sessions themselves are
   * never cached: deleting either (or the user, which deletes its keys) takes effect on the
   * very next request everywhere.
   */
  async getForAuth(id: string): Promise<UserRecord | null> {
    const hit = this.authCache.get(id);
    if (hit && Date.now() - hit.at < this.authCacheMs) return hit.user;
    const user = (await this.User.collection.findOne({ _id: id } as never)) as unknown as UserRecord | null;
    if (this.authCache.size >= 10_000) this.authCache.clear();
    this.authCache.set(id, { at: Date.now(), user });
    return user;
  }

  private forget(id: string): void {
    this.authCache.delete(id);
  }

  async require(id: string): Promise<UserRecord> {
    const user = await this.get(id);
    if (!user) throw new UserNotFoundError(id);
    return user;
  }

  findByUsername(username: string): Promise<UserRecord | null> {
    return this.User.findOne({ usernameKey: username.toLowerCase() }).lean<UserRecord>();
  }

  list(): Promise<UserRecord[]> {
    return this.User.find({}).sort({ usernameKey: 1 }).lean<UserRecord[]>();
  }

  membersOf(teamId: string): Promise<UserRecord[]> {
    return this.User.find({ 'memberships.teamId': teamId }).sort({ usernameKey: 1 }).lean<UserRecord[]>();
  }

  countAdmins(): Promise<number> {
    return this.User.countDocuments({ role: 'admin' });
  }

  async anyMustChangePassword(): Promise<boolean> {
    return (await this.User.countDocuments({ mustChangePassword: true })) > 0;
  }

  async update(id: string, change: { role?: Role; defaultTeamId?: string | null }): Promise<UserRecord> {
    const res = await this.User.updateOne({ _id: id }, { $set: change });
    this.forget(id);
    if (res.matchedCount === 0) throw new UserNotFoundError(id);
    return this.require(id);
  }

  /** Sets a new password (and username); clears `mustChangePassword`. */
  async setCredentials(id: string, change: { password: string; username?: string }): Promise<UserRecord> {
    const $set: Record<string, unknown> = { passwordHash: await hashPassword(change.password), mustChangePassword: false };
    if (change.username !== undefined) {
      if (!USERNAME_PATTERN.test(change.username)) throw new ValidationError(`username ${USERNAME_RULE}.`, 'username');
      $set.username = change.username;
      $set.usernameKey = change.username.toLowerCase();
    }
    try {
      const res = await this.User.updateOne({ _id: id }, { $set });
      this.forget(id);
      if (res.matchedCount === 0) throw new UserNotFoundError(id);
    } catch (error) {
      if (isDuplicate(error)) throw new ConflictError(`The username "${change.username}" is taken.`);
      throw error;
    }
    return this.require(id);
  }

  async delete(id: string): Promise<boolean> {
    const deleted = (await this.User.deleteOne({ _id: id })).deletedCount > 0;
    this.forget(id);
    await this.locks.releaseAll(`user:${id}@`);
    return deleted;
  }

  /**
   * Rewrites a user's memberships as a new revision (no transactions on FerretDB, and
   * `$pull` with a condition is not supported there; the revision's writer is decided by a
   * lock: store/locks.ts), retrying on a concurrent change.
   */
  async changeMemberships(id: string, change: (current: MembershipRecord[]) => MembershipRecord[]): Promise<UserRecord> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const user = await this.require(id);
      const memberships = change(user.memberships.map((m) => ({ teamId: m.teamId, role: m.role })));
      const teamIds = memberships.map((m) => m.teamId);
      const defaultTeamId = user.defaultTeamId && teamIds.includes(user.defaultTeamId) ? user.defaultTeamId : (teamIds[0] ?? null);
      const written = await writeRevision(this.locks, this.User, 'user', user, { memberships, defaultTeamId });
      this.forget(id);
      if (written) return this.require(id);
      await new Promise((r) => setTimeout(r, 10 + Math.random() * 40));
    }
    throw new ConflictError('The user was changed concurrently; try again.');
  }

  setTeamRole(id: string, teamId: string, role: TeamRole | null): Promise<UserRecord> {
    return this.changeMemberships(id, (current) => {
      const others = current.filter((m) => m.teamId !== teamId);
      return role ? [...others, { teamId, role }] : others;
    });
  }
}

/** The principal a user acts as. */
export function userPrincipal(user: UserRecord, via: 'api_key' | 'session', keyId?: string): UserPrincipal {
  const teamIds = user.memberships.map((m) => m.teamId);
  const defaultTeamId = user.defaultTeamId && teamIds.includes(user.defaultTeamId) ? user.defaultTeamId : (teamIds[0] ?? null);
  return {
    kind: 'user',
    userId: user._id,
    username: user.username,
    role: user.role,
    teamIds,
    defaultTeamId,
    via,
    ...(keyId ? { keyId } : {}),
    ownerOf: user.memberships.filter((m) => m.role === 'owner').map((m) => m.teamId),
  };
}
