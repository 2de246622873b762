/**
 * Who is calling. Set by the authenticate middleware on `ctx.state.principal` and passed
 * to use cases, which never see Koa types.
 */
import type { Role } from '../store/models/user';

export type { Role };

export interface AnonymousPrincipal {
  kind: 'anonymous';
  /** The client address the anonymous rate limit is counted against. */
  clientId: string;
}

export interface UserPrincipal {
  kind: 'user';
  userId: string;
  username: string;
  role: Role;
  teamIds: string[];
  defaultTeamId: string | null;
  via: 'api_key' | 'session';
  keyId?: string;
  /** The project the API key is bound to: its pinned versions answer when a request names none. */
  projectId?: string;
  /** Teams in which the user holds the team `owner` role (set by authenticate). */
  ownerOf?: string[];
}

/** The global `API_KEY`: an admin-equivalent service principal. */
export interface ServicePrincipal {
  kind: 'service';
}

export type Principal = AnonymousPrincipal | UserPrincipal | ServicePrincipal;

/** Admins and the service principal may do everything. */
export function isAdminLike(principal: Principal): boolean {
  return principal.kind === 'service' || (principal.kind === 'user' && principal.role === 'admin');
}
