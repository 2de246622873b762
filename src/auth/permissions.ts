/**
 * Who may do what: one table, read by the routes' guard (authentication and rate limit)
 * and by `authorize`, the one-line check in every handler. Every route is named after its
 * operation, and a test fails when a route's operation is missing from the table.
 *
 * Roles: anonymous (when the operation is public, or the dashboard's permission settings
 * allow it), member, team owner (of the resource's team), admin (and the global API_KEY,
 * which acts as an admin key). Managing API keys, users, teams, passwords, hosting
 * credentials and permission settings needs a dashboard session: the spec has keys made
 * in the dashboard with no per-key scopes, so a key (leaked, or held by an automated
 * client) cannot mint keys that outlive it, lock its owner out, or delete teams.
 */
import { ForbiddenError } from '../errors';
import type { AnonymousOperation } from '../store/models/settings';
import { isAdminLike, type Principal, type UserPrincipal } from './principal';

/** What a resource-dependent rule looks at. */
export interface Resource {
  /** The team the resource belongs to (a private library's, a job's, the team itself). */
  teamId?: string | null;
  /** Whether the resource is a private library (public ones are admins' to manage). */
  private?: boolean;
  /** The user who started a job. */
  createdBy?: string | null;
  /** The user a membership change is about. */
  userId?: string;
}

export interface Rule {
  /** Who may call the route at all. */
  audience: 'anyone' | 'user' | 'admin';
  /** Among them, who may act on this resource (admins always may). */
  resource?: (principal: UserPrincipal, resource: Resource) => boolean;
  /** A dashboard session is required; API keys (and the global API_KEY) are refused. */
  sessionOnly?: boolean;
  /** About the caller's own account: the global API_KEY, which has none, is refused. */
  account?: boolean;
  /** Anonymous callers pass when this permission setting is on. */
  anonymous?: AnonymousOperation;
  /** Allowed before the default administrator's credentials are changed. */
  beforeCredentialsChange?: boolean;
  /** What the rule says, for errors and the documentation. */
  says: string;
}

const ownsTeam = (p: UserPrincipal, r: Resource) => r.teamId != null && p.ownerOf?.includes(r.teamId) === true;

export const PERMISSIONS = {
  'health.read': { audience: 'anyone', says: 'anyone' },
  'openapi.read': { audience: 'anyone', says: 'anyone' },
  'mcp.call': { audience: 'anyone', says: 'anyone (the MCP route authenticates and limits itself)' },
  'libraries.search': { audience: 'anyone', says: 'anyone (a key when API_KEY is set)' },
  'context.read': { audience: 'anyone', says: 'anyone (a key when API_KEY is set)' },
  'libraries.add': { audience: 'user', anonymous: 'add', says: 'signed-in users; private repositories: team owners and admins' },
  'libraries.upload': { audience: 'user', anonymous: 'upload', says: 'signed-in users with a team' },
  'libraries.refresh': { audience: 'user', anonymous: 'refresh', says: 'signed-in users who can see the library' },
  'libraries.list': { audience: 'user', says: 'signed-in users (private libraries of their teams only)' },
  'libraries.read': { audience: 'user', says: 'signed-in users who can see the library' },
  'libraries.update': {
    audience: 'user',
    resource: (p, r) => r.private === true && ownsTeam(p, r),
    says: "admins; a team's private copy: also its team's owners (its source settings and webhook)",
  },
  'libraries.export': { audience: 'user', says: 'signed-in users who can see the library' },
  'libraries.import': { audience: 'admin', says: 'admins' },
  'libraries.delete': { audience: 'user', resource: (p, r) => r.private === true && ownsTeam(p, r), says: "admins; a private library: also its team's owners" },
  'webhooks.receive': { audience: 'anyone', says: "anyone holding the hook's secret (each delivery is signed; no key is needed)" },
  'jobs.list': { audience: 'user', anonymous: 'jobs', says: 'signed-in users (jobs of their teams and public libraries)' },
  'jobs.read': { audience: 'user', anonymous: 'jobs', says: 'signed-in users (jobs of their teams and public libraries)' },
  'jobs.cancel': {
    audience: 'user',
    resource: (p, r) => r.createdBy === p.userId || ownsTeam(p, r),
    says: "the user who started the job, its team's owners and admins (an ended job's record is removed)",
  },
  'policies.read': { audience: 'user', anonymous: 'policies', says: 'members of the team' },
  'policies.update': { audience: 'user', resource: ownsTeam, says: "the team's owners and admins" },
  'metrics.read': { audience: 'user', anonymous: 'metrics', says: 'signed-in users (zeros for libraries they cannot see)' },
  'auth.login': { audience: 'anyone', says: 'anyone' },
  'auth.logout': { audience: 'anyone', beforeCredentialsChange: true, says: 'anyone' },
  'auth.me.read': { audience: 'user', beforeCredentialsChange: true, says: 'signed-in users' },
  'auth.me.update': { audience: 'user', account: true, says: 'signed-in users' },
  'auth.password': { audience: 'user', account: true, sessionOnly: true, beforeCredentialsChange: true, says: 'signed-in users, in a dashboard session' },
  'keys.list': { audience: 'user', account: true, sessionOnly: true, says: 'signed-in users (their own keys), in a dashboard session' },
  'keys.create': { audience: 'user', account: true, sessionOnly: true, says: 'signed-in users, in a dashboard session' },
  'keys.delete': { audience: 'user', account: true, sessionOnly: true, says: 'signed-in users (their own keys), in a dashboard session' },
  'credentials.list': { audience: 'user', account: true, says: 'signed-in users (their own; tokens are never shown)' },
  'credentials.put': { audience: 'user', account: true, sessionOnly: true, says: 'signed-in users, in a dashboard session' },
  'credentials.delete': { audience: 'user', account: true, sessionOnly: true, says: 'signed-in users, in a dashboard session' },
  'users.list': { audience: 'admin', says: 'admins' },
  'users.read': { audience: 'admin', says: 'admins' },
  'users.create': { audience: 'admin', sessionOnly: true, says: 'admins, in a dashboard session' },
  'users.update': { audience: 'admin', sessionOnly: true, says: 'admins, in a dashboard session' },
  'users.delete': { audience: 'admin', sessionOnly: true, says: 'admins, in a dashboard session' },
  'teams.list': { audience: 'user', says: 'signed-in users (their teams; admins all)' },
  'teams.read': { audience: 'user', says: 'members of the team and admins' },
  'teams.create': { audience: 'admin', sessionOnly: true, says: 'admins, in a dashboard session' },
  'teams.update': { audience: 'user', sessionOnly: true, resource: ownsTeam, says: "the team's owners (name) and admins (name, plan), in a dashboard session" },
  'teams.delete': { audience: 'admin', sessionOnly: true, says: 'admins, in a dashboard session' },
  'teams.members.add': { audience: 'user', sessionOnly: true, resource: ownsTeam, says: "the team's owners and admins, in a dashboard session" },
  'teams.members.update': { audience: 'user', sessionOnly: true, resource: ownsTeam, says: "the team's owners and admins, in a dashboard session" },
  'teams.members.remove': {
    audience: 'user',
    sessionOnly: true,
    resource: (p, r) => r.userId === p.userId || ownsTeam(p, r),
    says: "the team's owners and admins, or members leaving, in a dashboard session",
  },
  'plans.read': { audience: 'user', says: 'signed-in users' },
  'permissions.read': { audience: 'admin', says: 'admins' },
  'permissions.update': { audience: 'admin', sessionOnly: true, says: 'admins, in a dashboard session' },
  'usage.read': { audience: 'admin', says: 'admins' },
  'connect.read': { audience: 'user', says: 'signed-in users' },
  'projects.list': { audience: 'user', says: 'signed-in users (projects of their teams and their own; admins all)' },
  'projects.read': { audience: 'user', says: "members of the project's team, its creator and admins" },
  'projects.create': { audience: 'user', account: true, says: 'signed-in users (for a team they belong to, or for themselves)' },
  'projects.upload': { audience: 'user', says: "members of the project's team, its creator and admins" },
  'projects.refresh': { audience: 'user', says: "members of the project's team, its creator and admins" },
  'projects.webhook': { audience: 'user', says: "members of the project's team, its creator and admins" },
  'projects.remap': { audience: 'user', says: "members of the project's team, its creator and admins" },
  'projects.delete': { audience: 'user', says: "the project's creator, its team's owners and admins" },
} as const satisfies Record<string, Rule>;

export type Operation = keyof typeof PERMISSIONS;

export function ruleOf(operation: Operation): Rule {
  return PERMISSIONS[operation];
}

/** Whether `name` is an operation of the table (for the route-table test). */
export function isOperation(name: string): name is Operation {
  return Object.hasOwn(PERMISSIONS, name);
}

const SESSION_ONLY =
  'This action needs a dashboard session: sign in at /dashboard. API keys cannot manage keys, users, teams, passwords, credentials or permission settings.';

/**
 * Asserts that `principal` may perform `operation` (on `resource`, for rules that depend on
 * one). Throws 403 `forbidden`; anonymous callers never reach here for non-public
 * operations (the guard answered 401), unless a permission setting let them in.
 */
export function authorize(principal: Principal, operation: Operation, resource?: Resource): void {
  const rule: Rule = PERMISSIONS[operation];
  if (rule.audience === 'anyone') return;
  if (principal.kind === 'anonymous') {
    if (rule.anonymous && !rule.resource) return; // the guard checked the permission setting
    throw new ForbiddenError(`This action needs a signed-in user: ${rule.says}.`);
  }
  if (rule.account && principal.kind !== 'user')
    throw new ForbiddenError('This action is about a user account; the global API_KEY has none (use a personal API key or sign in).');
  if (rule.sessionOnly && !(principal.kind === 'user' && principal.via === 'session')) throw new ForbiddenError(SESSION_ONLY);
  if (isAdminLike(principal)) return;
  if (principal.kind !== 'user' || rule.audience === 'admin') throw new ForbiddenError(`This action requires the admin role (${rule.says}).`);
  if (rule.resource) {
    if (!resource) return; // the handler checks the resource once it has it
    if (!rule.resource(principal, resource)) throw new ForbiddenError(`Not allowed: ${rule.says}.`);
  }
}
