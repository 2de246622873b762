/**
 * Dashboard sign-in: `POST /auth/login` (session cookie + CSRF cookie), `POST /auth/logout`,
 * `GET /auth/me`, `PATCH /auth/me` (default team) and `PUT /auth/password` (also the forced
 * change of the default administrator's credentials, the one thing that login may do).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Ports } from '../../../ports';
import type { IssuedSession } from '../../../auth/sessions';
import type { UserRecord } from '../../../store/models/user';
import { guard, CSRF_COOKIE, SESSION_COOKIE } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { assertUser } from '../../../auth/authorize';
import { TeamNotFoundError } from '../../../errors';
import { presentTeam } from '../admin/presenters';
import { validate } from '../../validate';
import { authSchemas as s } from './schema';

/** What `authRoutes` reaches (ports.ts). */
export type AuthRoutesPorts = Pick<Ports, 'authenticator' | 'config' | 'rateLimiter' | 'settings' | 'teams' | 'trustedProxy' | 'users'>;

export function authRoutes(services: AuthRoutesPorts): Router {
  const router = new Router();
  const standard = rateLimit(services, { class: 'standard' });
  // Password checks are slow on purpose; they are limited like expensive operations.
  const guarded = rateLimit(services, { class: 'expensive' });

  router.post('auth.login', '/auth/login', guarded, validate(s['auth.login']), async (ctx) => {
    const { body } = ctx.state.input;
    const { user, session } = await services.authenticator.login(body.username, body.password);
    setSessionCookies(services, ctx, session);
    ctx.body = await presentMe(services, user, 'session');
  });

  router.post('auth.logout', '/auth/logout', guard(services), validate(s['auth.logout']), async (ctx) => {
    const { sessionId } = ctx.state;
    if (sessionId) await services.authenticator.logout(sessionId);
    clearSessionCookies(ctx);
    ctx.body = { message: 'Signed out.' };
  });

  router.get('auth.me.read', '/auth/me', guard(services), standard, validate(s['auth.me.read']), async (ctx) => {
    const { principal } = ctx.state;
    if (principal.kind !== 'user') {
      ctx.body = { id: null, username: 'API_KEY', role: 'admin', service: true, mustChangePassword: false, defaultTeamId: null, teams: [], via: 'api_key' };
      return;
    }
    ctx.body = await presentMe(services, await services.users.require(principal.userId), principal.via);
  });

  router.patch('auth.me.update', '/auth/me', guard(services), standard, validate(s['auth.me.update']), async (ctx) => {
    const { principal } = ctx.state;
    assertUser(principal);
    const { body } = ctx.state.input;
    if (!principal.teamIds.includes(body.defaultTeamId)) throw new TeamNotFoundError(body.defaultTeamId);
    const user = await services.users.update(principal.userId, { defaultTeamId: body.defaultTeamId });
    ctx.body = await presentMe(services, user, principal.via);
  });

  router.put('auth.password', '/auth/password', guard(services), guarded, validate(s['auth.password']), async (ctx) => {
    const { principal } = ctx.state;
    assertUser(principal);
    const { body } = ctx.state.input;
    const user = await services.authenticator.changeCredentials(principal.userId, body, ctx.state.sessionId);
    ctx.body = { ...(await presentMe(services, user, principal.via)), message: 'Your credentials were changed.' };
  });

  return router;
}

async function presentMe(services: Pick<Ports, 'teams'>, user: UserRecord, via: 'session' | 'api_key') {
  const teams = await services.teams.list(user.memberships.map((m) => m.teamId));
  const roles = new Map(user.memberships.map((m) => [m.teamId, m.role]));
  return {
    id: user._id,
    username: user.username,
    role: user.role,
    mustChangePassword: user.mustChangePassword,
    defaultTeamId: user.defaultTeamId,
    teams: teams.map((t) => presentTeam(t, { myRole: roles.get(t._id) ?? null })),
    via,
  };
}

/** Cookies are Secure when the request came over https (directly, or via a trusted proxy). */
function isHttps(services: Pick<Ports, 'trustedProxy'>, ctx: Context): boolean {
  if (ctx.secure) return true;
  const peer = ctx.req.socket.remoteAddress ?? '';
  return services.trustedProxy(peer) && ctx.get('x-forwarded-proto').split(',')[0].trim() === 'https';
}

function setSessionCookies(services: Pick<Ports, 'trustedProxy'>, ctx: Context, session: IssuedSession): void {
  const secure = isHttps(services, ctx);
  if (secure) ctx.cookies.secure = true;
  const common = { sameSite: 'strict' as const, secure, path: '/', expires: session.expiresAt, overwrite: true };
  ctx.cookies.set(SESSION_COOKIE, session.token, { ...common, httpOnly: true });
  // Readable by the dashboard's script, which echoes it in X-CSRF-Token (double submit).
  ctx.cookies.set(CSRF_COOKIE, session.csrf, { ...common, httpOnly: false });
}

function clearSessionCookies(ctx: Context): void {
  const common = { sameSite: 'strict' as const, path: '/', expires: new Date(0), overwrite: true };
  ctx.cookies.set(SESSION_COOKIE, '', { ...common, httpOnly: true });
  ctx.cookies.set(CSRF_COOKIE, '', { ...common, httpOnly: false });
}
