/** Auth records → JSON, field by field (never a password hash, key hash or token). */
import type { UserRecord } from '../../../store/models/user';
import type { TeamRecord } from '../../../store/models/team';
import type { ApiKeyRecord } from '../../../store/models/api-key';
import type { TeamMember } from '../../../auth/teams';
import { planIncludesPrivateRepos } from '../../../auth/plans';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function presentUser(u: UserRecord) {
  return {
    id: u._id,
    username: u.username,
    role: u.role,
    mustChangePassword: u.mustChangePassword,
    defaultTeamId: u.defaultTeamId,
    teams: u.memberships.map((m) => ({ teamId: m.teamId, role: m.role })),
    createdAt: iso(u.createdAt),
    updatedAt: iso(u.updatedAt),
  };
}

export function presentTeam(t: TeamRecord, extra: { members?: TeamMember[]; myRole?: string | null } = {}) {
  return {
    id: t._id,
    name: t.name,
    plan: t.plan,
    privateRepositories: planIncludesPrivateRepos(t.plan),
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
    ...(extra.myRole !== undefined ? { myRole: extra.myRole } : {}),
    ...(extra.members ? { members: extra.members.map((m) => ({ userId: m.userId, username: m.username, role: m.role })) } : {}),
  };
}

export function presentKey(k: Pick<ApiKeyRecord, '_id' | 'name' | 'prefix' | 'createdAt' | 'lastUsedAt' | 'projectId'>) {
  return { id: k._id, name: k.name, prefix: k.prefix, createdAt: iso(k.createdAt), lastUsedAt: iso(k.lastUsedAt), projectId: k.projectId ?? null };
}
