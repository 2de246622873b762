/** Fixtures for the auth tests: users, keys and sessions made through the real services. */
import crypto from 'node:crypto';
import type { Response } from 'supertest';
import type { TestApp } from '../harness';
import { ADMIN_ID, ADMIN_PASSWORD, adminKey } from '../helpers';
import type { PlanId } from '../../src/store/models/team';
import type { Role, TeamRole } from '../../src/store/models/user';

export { ADMIN_ID, ADMIN_PASSWORD, adminKey } from '../helpers';

export interface TestUser {
  userId: string;
  username: string;
  password: string;
  key: string;
  teamId?: string;
}

/** A user with a key; with `plan`, also a new team in which the user has `teamRole` (owner by default). */
export async function makeUser(app: TestApp, options: { role?: Role; plan?: PlanId; teamRole?: TeamRole } = {}): Promise<TestUser> {
  const username = `u${crypto.randomBytes(4).toString('hex')}`;
  const password = 'password-123';
  const user = await app.services.users.create({ username, password, role: options.role ?? 'member' });
  let teamId: string | undefined;
  if (options.plan) {
    const team = await app.services.teams.create({ name: `team ${username}`, plan: options.plan });
    teamId = team._id;
    await app.services.users.setTeamRole(user._id, team._id, options.teamRole ?? 'owner');
  }
  const { value } = await app.services.keys.create(user._id, 'test key');
  return { userId: user._id, username, password, key: value, teamId };
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Parses Set-Cookie into name → { value, attributes }. */
export function setCookies(res: Response): Map<string, { value: string; attrs: string }> {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const out = new Map<string, { value: string; attrs: string }>();
  for (const line of raw ?? []) {
    const [pair, ...attrs] = line.split(';');
    const i = pair.indexOf('=');
    out.set(pair.slice(0, i).trim(), { value: pair.slice(i + 1), attrs: attrs.join(';').toLowerCase() });
  }
  return out;
}

export interface LoggedIn {
  cookie: string;
  csrf: string;
  res: Response;
}

/** Logs in through the API; returns the Cookie header to send back and the CSRF token. */
export async function login(app: TestApp, username: string, password: string): Promise<LoggedIn> {
  const res = await app.request.post('/v2/auth/login').send({ username, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookies = setCookies(res);
  const session = cookies.get('shelfmark_session')?.value ?? '';
  const csrf = cookies.get('shelfmark_csrf')?.value ?? '';
  return { cookie: `shelfmark_session=${session}; shelfmark_csrf=${csrf}`, csrf, res };
}

/** The headers of a dashboard session (cookie + CSRF echo) for `.set(...)`. */
export async function sessionHeaders(app: TestApp, username: string, password: string): Promise<Record<string, string>> {
  const s = await login(app, username, password);
  return { Cookie: s.cookie, 'X-CSRF-Token': s.csrf };
}

/** A session of the default administrator (its credentials changed first, as adminKey does). */
export async function adminSession(app: TestApp): Promise<Record<string, string>> {
  await adminKey(app);
  const admin = await app.services.users.require(ADMIN_ID);
  return sessionHeaders(app, admin.username, ADMIN_PASSWORD);
}
