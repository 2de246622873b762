/**
 * Authorization helpers beside the permissions table (auth/permissions.ts, whose
 * `authorize` the routes call): visibility (`canSeeLibrary`, `canSeeTeam`), the spec's
 * private-repository rules, and asserts that narrow the principal's type.
 */
import { ForbiddenError } from '../errors';
import { planIncludesPrivateRepos } from './plans';
import { isAdminLike, type Principal, type ServicePrincipal, type UserPrincipal } from './principal';

/** The message of every action refused while the default administrator login is unchanged. */
export const DEFAULT_CREDENTIALS_MESSAGE =
  'The default administrator credentials must be changed first: PUT /v2/auth/password with {"currentPassword", "newPassword"} (or use the dashboard\'s credentials page).';

/** Admins and the global API_KEY pass; everyone else gets 403 forbidden. */
export function assertAdmin(principal: Principal): asserts principal is ServicePrincipal | (UserPrincipal & { role: 'admin' }) {
  if (principal.kind === 'service') return;
  if (principal.kind === 'user' && principal.role === 'admin') return;
  throw new ForbiddenError('This action requires the admin role.');
}

/** A signed-in user (session or key); the service principal and anonymous callers are refused. */
export function assertUser(principal: Principal): asserts principal is UserPrincipal {
  if (principal.kind !== 'user') throw new ForbiddenError('This action needs a user account (sign in or use a personal API key).');
}

/**
 * Spec §4.1 rules 2 and 3: a private repository needs a team whose plan includes private
 * repositories, and the caller must own that team or be an admin.
 */
export function assertCanAddPrivateRepo(principal: Principal, team: { _id: string; plan: string } | null): void {
  if (!team) throw new ForbiddenError('Adding a private repository needs a team: you are not a member of any team.');
  if (!planIncludesPrivateRepos(team.plan)) {
    throw new ForbiddenError(
      `Your team's plan (${team.plan}) does not include private repositories; an admin can move the team to the pro or enterprise plan.`,
    );
  }
  if (principal.kind === 'service') return;
  if (principal.kind === 'user' && (principal.role === 'admin' || isTeamOwner(principal, team._id))) return;
  throw new ForbiddenError('Adding a private repository requires the team owner or admin role.');
}

/** Whether the principal holds the team `owner` role in `teamId`. */
export function isTeamOwner(principal: Principal, teamId: string): boolean {
  return principal.kind === 'user' && principal.ownerOf?.includes(teamId) === true;
}

/** Whether the principal belongs to `teamId` (admins and the service key see every team). */
export function canSeeTeam(principal: Principal, teamId: string): boolean {
  return isAdminLike(principal) || (principal.kind === 'user' && principal.teamIds.includes(teamId));
}

/** Refuses everything but changing the default administrator's credentials. */
export function assertCredentialsChanged(user: { mustChangePassword: boolean }): void {
  if (user.mustChangePassword) throw new ForbiddenError(DEFAULT_CREDENTIALS_MESSAGE);
}

/** Private libraries are visible only to members of their team, admins and the service key. */
export function canSeeLibrary(principal: Principal, library: { private: boolean; teamId: string | null }): boolean {
  if (!library.private) return true;
  if (principal.kind === 'service') return true;
  if (principal.kind !== 'user') return false;
  if (principal.role === 'admin') return true;
  return library.teamId !== null && principal.teamIds.includes(library.teamId);
}
