/**
 * Account administration spanning several stores, as one facade (`services.accounts`):
 * users, teams and members, and deleting a user with everything that authenticates as
 * them (keys, sessions and hosting tokens go first, so nothing they held keeps working).
 * Scripts and tests use it; the admin API uses the same calls.
 */
import type { PlanId, TeamRecord } from '../store/models/team';
import type { Role, TeamRole, UserRecord } from '../store/models/user';
import { ConflictError, UserNotFoundError } from '../errors';
import type { UserService } from './users';
import type { TeamService } from './teams';
import type { ApiKeyService } from './keys';
import type { SessionService } from './sessions';
import type { CredentialService } from './credentials';

export class AccountService {
  constructor(
    private readonly deps: { users: UserService; teams: TeamService; keys: ApiKeyService; sessions: SessionService; credentials: CredentialService },
  ) {}

  getUser(id: string): Promise<UserRecord | null> {
    return this.deps.users.get(id);
  }

  createUser(input: { username: string; password: string; role: Role; mustChangePassword?: boolean; teamIds?: string[] }): Promise<UserRecord> {
    return this.deps.users.create({ ...input, memberships: (input.teamIds ?? []).map((teamId) => ({ teamId, role: 'member' as const })) });
  }

  /** Deletes a user and everything that authenticates as them. Refuses the last admin. */
  async deleteUser(id: string): Promise<void> {
    const { users, keys, sessions, credentials } = this.deps;
    const user = await users.get(id);
    if (!user) throw new UserNotFoundError(id);
    if (user.role === 'admin' && (await users.countAdmins()) <= 1) throw new ConflictError('This is the last administrator; make another user admin first.');
    await keys.deleteAllOf(id);
    await sessions.revokeAllOf(id);
    await credentials.deleteAllOf(id);
    await users.delete(id);
  }

  getTeam(id: string): Promise<TeamRecord | null> {
    return this.deps.teams.get(id);
  }

  /** Creates a team; `ownerId` (when given) becomes its owner. */
  async createTeam(input: { name: string; plan: PlanId; ownerId?: string | null }): Promise<TeamRecord> {
    if (input.ownerId) await this.deps.users.require(input.ownerId);
    const team = await this.deps.teams.create({ name: input.name, plan: input.plan });
    if (input.ownerId) await this.deps.users.setTeamRole(input.ownerId, team._id, 'owner');
    return team;
  }

  async addMember(teamId: string, userId: string, role: TeamRole): Promise<void> {
    await this.deps.teams.setMember(teamId, userId, role);
  }

  async removeMember(teamId: string, userId: string): Promise<void> {
    if (!(await this.deps.teams.removeMember(teamId, userId))) throw new UserNotFoundError(userId);
  }
}
