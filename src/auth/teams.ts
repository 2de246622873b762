/**
 * Teams: a name, a plan, and members (users whose memberships name the team, each as
 * `owner` or `member`). The only code that touches the Team model.
 */
import type { PlanId, TeamModel, TeamRecord } from '../store/models/team';
import type { TeamRole, UserRecord } from '../store/models/user';
import { ConflictError, TeamNotFoundError, ValidationError } from '../errors';
import { newId } from './crypto';
import type { UserService } from './users';
import { isDuplicate } from '../store/mongo';

export const TEAM_NAME_PATTERN = /^[^\s].{0,79}$/;

export interface TeamMember {
  userId: string;
  username: string;
  role: TeamRole;
}

export class TeamService {
  constructor(
    private readonly Team: TeamModel,
    private readonly users: UserService,
    /** Called after a team is deleted (its policy goes with it). */
    private readonly onDelete: (teamId: string) => Promise<void> = async () => undefined,
  ) {}

  async create(input: { name: string; plan: PlanId; id?: string }): Promise<TeamRecord> {
    const name = input.name.trim();
    if (!TEAM_NAME_PATTERN.test(name)) throw new ValidationError('name must be 1-80 characters.', 'name');
    const _id = input.id ?? newId('team');
    try {
      await this.Team.create({ _id, name, nameKey: name.toLowerCase(), plan: input.plan });
    } catch (error) {
      if (isDuplicate(error)) throw new ConflictError(`A team named "${name}" already exists.`);
      throw error;
    }
    return this.require(_id);
  }

  get(id: string): Promise<TeamRecord | null> {
    return this.Team.findById(id).lean<TeamRecord>();
  }

  findByName(name: string): Promise<TeamRecord | null> {
    return this.Team.findOne({ nameKey: name.trim().toLowerCase() }).lean<TeamRecord>();
  }

  async require(id: string): Promise<TeamRecord> {
    const team = await this.get(id);
    if (!team) throw new TeamNotFoundError(id);
    return team;
  }

  /** All teams, or only those with the given ids. */
  list(ids?: readonly string[]): Promise<TeamRecord[]> {
    const q = ids ? { _id: { $in: [...ids] } } : {};
    return this.Team.find(q).sort({ nameKey: 1 }).lean<TeamRecord[]>();
  }

  async update(id: string, change: { name?: string; plan?: PlanId }): Promise<TeamRecord> {
    const $set: Record<string, unknown> = {};
    if (change.plan !== undefined) $set.plan = change.plan;
    if (change.name !== undefined) {
      const name = change.name.trim();
      if (!TEAM_NAME_PATTERN.test(name)) throw new ValidationError('name must be 1-80 characters.', 'name');
      $set.name = name;
      $set.nameKey = name.toLowerCase();
    }
    try {
      const res = await this.Team.updateOne({ _id: id }, { $set });
      if (res.matchedCount === 0) throw new TeamNotFoundError(id);
    } catch (error) {
      if (isDuplicate(error)) throw new ConflictError(`A team named "${change.name}" already exists.`);
      throw error;
    }
    return this.require(id);
  }

  /** Deletes the team and removes it from its members. */
  async delete(id: string): Promise<void> {
    await this.require(id);
    for (const user of await this.users.membersOf(id)) await this.users.setTeamRole(user._id, id, null);
    await this.Team.deleteOne({ _id: id });
    await this.onDelete(id);
  }

  async members(teamId: string): Promise<TeamMember[]> {
    const users = await this.users.membersOf(teamId);
    return users.map((u) => ({ userId: u._id, username: u.username, role: roleIn(u, teamId) ?? 'member' }));
  }

  /** Adds a member or changes their team role. Refuses to demote the last owner. */
  async setMember(teamId: string, userId: string, role: TeamRole): Promise<TeamMember[]> {
    await this.require(teamId);
    const user = await this.users.require(userId);
    if (role === 'member' && roleIn(user, teamId) === 'owner') await this.assertNotLastOwner(teamId, userId);
    await this.users.setTeamRole(userId, teamId, role);
    return this.members(teamId);
  }

  /** Removes a member. Refuses to remove the last owner. Returns false if not a member. */
  async removeMember(teamId: string, userId: string): Promise<boolean> {
    await this.require(teamId);
    const user = await this.users.require(userId);
    const role = roleIn(user, teamId);
    if (!role) return false;
    if (role === 'owner') await this.assertNotLastOwner(teamId, userId);
    await this.users.setTeamRole(userId, teamId, null);
    return true;
  }

  private async assertNotLastOwner(teamId: string, userId: string): Promise<void> {
    const owners = (await this.members(teamId)).filter((m) => m.role === 'owner' && m.userId !== userId);
    if (owners.length === 0) throw new ConflictError('A team needs at least one owner: make another member owner first.');
  }
}

export function roleIn(user: UserRecord, teamId: string): TeamRole | undefined {
  return user.memberships.find((m) => m.teamId === teamId)?.role;
}
