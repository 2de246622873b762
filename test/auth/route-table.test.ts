/**
 * The authorization table (src/auth/permissions.ts), route by route: every route is named
 * after an operation of the table, every operation has a route, and each role — anonymous,
 * member, team owner, admin, each with a key and with a dashboard session, and the global
 * API_KEY — is let in or refused exactly as the table says.
 */
import test from 'ava';
import type { Response } from 'supertest';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, ADMIN_ID, ADMIN_PASSWORD, login, makeUser, type TestUser } from './fixtures';
import { testJobParams, testLibrary } from '../helpers';
import { appRouters } from '../../src/http/app';
import { isOperation, PERMISSIONS, ruleOf, type Operation, type Resource } from '../../src/auth/permissions';
import type { UserPrincipal } from '../../src/auth/principal';
import { createWebhook } from '../../src/catalog/webhooks';
import { signBody } from '../../src/catalog/webhook-deliveries';

const API_KEY = 'global-service-key-for-route-table-test';
const LIMITS = {
  RATE_LIMIT_ANON_PER_MINUTE: '100000',
  RATE_LIMIT_KEY_PER_MINUTE: '100000',
  RATE_LIMIT_EXPENSIVE_PER_MINUTE: '100000',
  WORKER_MODE: 'off',
  ADD_WAIT_SECONDS: '0',
};

type RoleName = 'anonymous' | 'member-key' | 'member-session' | 'owner-key' | 'owner-session' | 'admin-key' | 'admin-session' | 'service';
interface Role {
  name: RoleName;
  app: () => TestApp;
  headers: Record<string, string>;
  /** The principal the table's resource rules see (null: anonymous or the service key). */
  user: Pick<UserPrincipal, 'userId' | 'ownerOf'> | null;
  admin: boolean;
  session: boolean;
}

let app: TestApp;
let locked: TestApp;
let member: TestUser;
let owner: TestUser;
let teamId: string;
const roles: Role[] = [];

test.before(async () => {
  [app, locked] = await Promise.all([createTestApp(LIMITS), createTestApp({ ...LIMITS, API_KEY })]);
  const admin = await adminKey(app);
  owner = await makeUser(app, { plan: 'pro', teamRole: 'owner' });
  teamId = owner.teamId!;
  member = await makeUser(app);
  await app.services.users.setTeamRole(member.userId, teamId, 'member');
  const session = async (username: string, password: string) => {
    const s = await login(app, username, password);
    return { Cookie: s.cookie, 'X-CSRF-Token': s.csrf };
  };
  const adminName = (await app.services.users.require(ADMIN_ID)).username;
  roles.push(
    { name: 'anonymous', app: () => app, headers: {}, user: null, admin: false, session: false },
    {
      name: 'member-key',
      app: () => app,
      headers: { Authorization: `Bearer ${member.key}` },
      user: { userId: member.userId, ownerOf: [] },
      admin: false,
      session: false,
    },
    {
      name: 'member-session',
      app: () => app,
      headers: await session(member.username, member.password),
      user: { userId: member.userId, ownerOf: [] },
      admin: false,
      session: true,
    },
    {
      name: 'owner-key',
      app: () => app,
      headers: { Authorization: `Bearer ${owner.key}` },
      user: { userId: owner.userId, ownerOf: [teamId] },
      admin: false,
      session: false,
    },
    {
      name: 'owner-session',
      app: () => app,
      headers: await session(owner.username, owner.password),
      user: { userId: owner.userId, ownerOf: [teamId] },
      admin: false,
      session: true,
    },
    { name: 'admin-key', app: () => app, headers: { Authorization: `Bearer ${admin}` }, user: { userId: ADMIN_ID, ownerOf: [] }, admin: true, session: false },
    {
      name: 'admin-session',
      app: () => app,
      headers: await session(adminName, ADMIN_PASSWORD),
      user: { userId: ADMIN_ID, ownerOf: [] },
      admin: true,
      session: true,
    },
    { name: 'service', app: () => locked, headers: { Authorization: `Bearer ${API_KEY}` }, user: null, admin: true, session: false },
  );
});
test.after.always(async () => {
  await Promise.all([app?.close(), locked?.close()]);
});

/** What the table says of `role` for `operation` on `resource`. */
function expected(role: Role, operation: Operation, resource?: Resource): 'allowed' | 'refused' {
  const rule = ruleOf(operation);
  if (rule.audience === 'anyone') return 'allowed';
  if (role.name === 'anonymous') return 'refused'; // every anonymous permission setting is off
  if (rule.account && role.name === 'service') return 'refused';
  if (rule.sessionOnly && !role.session) return 'refused';
  if (role.admin) return 'allowed';
  if (rule.audience === 'admin') return 'refused';
  if (rule.resource && resource && role.user)
    return rule.resource({ kind: 'user', username: '', role: 'member', teamIds: [teamId], defaultTeamId: teamId, via: 'api_key', ...role.user }, resource)
      ? 'allowed'
      : 'refused';
  return 'allowed';
}

const privateLibrary = async (a: TestApp): Promise<string> => {
  const id = `/acme/private-${Math.random().toString(36).slice(2, 8)}`;
  await a.services.libraries.ensure(testLibrary(id, { title: 'p', branch: '', private: true, teamId, trustScore: 5 }));
  return id;
};
/** A library with a push webhook and a delivery signed with its secret (a push to a branch it does not track: nothing is queued). */
const signedDelivery = async (role: Role) => {
  const a = role.app();
  const id = `/acme/hooked-${Math.random().toString(36).slice(2, 8)}`;
  const lib = await a.services.libraries.ensure(testLibrary(id, { title: 'h', trustScore: 5 }));
  const hook = await createWebhook(a.services, lib, 'github');
  const body = JSON.stringify({ ref: 'refs/heads/elsewhere' });
  return a.request.post(hook.path).set(role.headers).set('content-type', 'application/json').set('x-hub-signature-256', signBody(hook.secret, body)).send(body);
};
const job = async (a: TestApp, createdBy: string | null, team: string | null) =>
  (await a.services.jobs.enqueue({ kind: 'refresh', libraryId: '/acme/public', version: 'latest', params: testJobParams(), teamId: team, createdBy }))._id;

const GO_MOD = 'module example.com/app\n\ngo 1.22\n\nrequire github.com/gin-gonic/gin v1.10.0\n';

interface Case {
  operation: Operation;
  send(role: Role): Promise<Response>;
  /** The resource the request acts on (for rules that depend on one). */
  resource?: Resource;
}

/** One request per route (fresh resources where an allowed request would change them). */
function cases(): Case[] {
  const req = (role: Role) => role.app().request;
  const set = (r: ReturnType<ReturnType<TestApp['request']['get']>['set']>, role: Role) => r.set(role.headers);
  const get = (path: string) => (role: Role) => set(req(role).get(path), role);
  const send =
    (method: 'post' | 'put' | 'patch' | 'delete', path: string, body: object = {}) =>
    (role: Role) =>
      set(req(role)[method](path), role).send(body);
  return [
    { operation: 'health.read', send: get('/healthz') },
    { operation: 'openapi.read', send: get('/v2/openapi.json') },
    {
      operation: 'mcp.call',
      send: (role) =>
        set(req(role).post('/mcp'), role).set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    },
    { operation: 'libraries.search', send: get('/v2/libs/search?libraryName=nothing') },
    { operation: 'context.read', send: get('/v2/context?libraryId=/no/such&query=x') },
    { operation: 'libraries.add', send: send('post', '/v2/add/repo/github', {}) },
    { operation: 'libraries.upload', send: send('post', '/v2/add/openapi-upload', {}) },
    { operation: 'libraries.refresh', send: send('post', '/v2/refresh', {}) },
    { operation: 'libraries.list', send: get('/v2/libraries') },
    { operation: 'libraries.read', send: get('/v2/libraries/no/such') },
    { operation: 'libraries.export', send: get('/v2/libraries/no/such/export') },
    { operation: 'libraries.import', send: send('post', '/v2/libraries/import', {}) },
    { operation: 'libraries.update', send: send('patch', '/v2/libraries/no/such', { trustScore: 5 }) },
    {
      operation: 'libraries.delete',
      resource: { private: true, teamId },
      send: async (role) => send('delete', `/v2/libraries${await privateLibrary(role.app())}`)(role),
    },
    { operation: 'webhooks.receive', send: signedDelivery },
    { operation: 'jobs.list', send: get('/v2/jobs') },
    { operation: 'jobs.read', send: get('/v2/jobs/job_missing') },
    {
      operation: 'jobs.cancel',
      resource: { createdBy: ADMIN_ID, teamId: null },
      send: async (role) => send('delete', `/v2/jobs/${await job(role.app(), ADMIN_ID, null)}`)(role),
    },
    { operation: 'policies.read', send: (role) => get(`/v2/policies?teamId=${role.name === 'service' ? 'team_default' : teamId}`)(role) },
    {
      operation: 'policies.update',
      resource: { teamId: 'TEAM' },
      send: (role) => send('patch', `/v2/policies?teamId=${role.name === 'service' ? 'team_default' : teamId}`, {})(role),
    },
    { operation: 'metrics.read', send: get('/v2/libs/metrics?libraryId=/no/such') },
    { operation: 'auth.login', send: send('post', '/v2/auth/login', { username: 'nobody' }) },
    { operation: 'auth.logout', send: (role) => (role.session ? Promise.resolve({ status: 200 } as Response) : send('post', '/v2/auth/logout')(role)) },
    { operation: 'auth.me.read', send: get('/v2/auth/me') },
    { operation: 'auth.me.update', send: send('patch', '/v2/auth/me', { defaultTeamId: 'team_nope' }) },
    { operation: 'auth.password', send: send('put', '/v2/auth/password', { currentPassword: 'wrong-password', newPassword: 'another-password-1' }) },
    { operation: 'keys.list', send: get('/v2/admin/keys') },
    { operation: 'keys.create', send: send('post', '/v2/admin/keys', { name: 'made in the route table test' }) },
    { operation: 'keys.delete', send: send('delete', '/v2/admin/keys/key_missing') },
    { operation: 'credentials.list', send: get('/v2/admin/credentials') },
    { operation: 'credentials.put', send: send('put', '/v2/admin/credentials/gitlab', { token: 'glpat-route-table-test-token' }) },
    { operation: 'credentials.delete', send: send('delete', '/v2/admin/credentials/bitbucket') },
    { operation: 'users.list', send: get('/v2/admin/users') },
    { operation: 'users.read', send: get('/v2/admin/users/usr_missing') },
    {
      operation: 'users.create',
      send: send('post', '/v2/admin/users', { username: `rt${Math.random().toString(36).slice(2, 8)}`, password: 'long-enough-password' }),
    },
    { operation: 'users.update', send: send('patch', '/v2/admin/users/usr_missing', { role: 'member' }) },
    { operation: 'users.delete', send: send('delete', '/v2/admin/users/usr_missing') },
    { operation: 'teams.list', send: get('/v2/admin/teams') },
    { operation: 'teams.read', send: (role) => get(`/v2/admin/teams/${role.name === 'service' ? 'team_default' : teamId}`)(role) },
    { operation: 'teams.create', send: send('post', '/v2/admin/teams', { name: 'route table team' }) },
    {
      operation: 'teams.update',
      resource: { teamId: 'TEAM' },
      send: (role) => send('patch', `/v2/admin/teams/${role.name === 'service' ? 'team_default' : teamId}`, { name: 'renamed by the route table test' })(role),
    },
    { operation: 'teams.delete', send: send('delete', '/v2/admin/teams/team_missing') },
    {
      operation: 'teams.members.add',
      resource: { teamId: 'TEAM' },
      send: (role) => send('post', `/v2/admin/teams/${role.name === 'service' ? 'team_default' : teamId}/members`, { userId: 'usr_missing' })(role),
    },
    {
      operation: 'teams.members.update',
      resource: { teamId: 'TEAM' },
      send: (role) => send('patch', `/v2/admin/teams/${role.name === 'service' ? 'team_default' : teamId}/members/usr_missing`, { role: 'member' })(role),
    },
    {
      operation: 'teams.members.remove',
      resource: { teamId: 'TEAM', userId: 'usr_missing' },
      send: (role) => send('delete', `/v2/admin/teams/${role.name === 'service' ? 'team_default' : teamId}/members/usr_missing`)(role),
    },
    { operation: 'plans.read', send: get('/v2/admin/plans') },
    { operation: 'permissions.read', send: get('/v2/admin/permissions') },
    { operation: 'permissions.update', send: send('put', '/v2/admin/permissions', { anonymous: { add: false } }) },
    { operation: 'usage.read', send: get('/v2/admin/usage') },
    { operation: 'connect.read', send: get('/v2/connect') },
    { operation: 'projects.list', send: get('/v2/projects') },
    { operation: 'projects.read', send: get('/v2/projects/prj_0000000000000000') },
    { operation: 'projects.create', send: (role) => set(req(role).post('/v2/projects'), role).attach('lockfile', Buffer.from(GO_MOD), 'go.mod') },
    {
      operation: 'projects.upload',
      send: (role) => set(req(role).put('/v2/projects/prj_0000000000000000/lockfile'), role).attach('lockfile', Buffer.from(GO_MOD), 'go.mod'),
    },
    { operation: 'projects.refresh', send: send('post', '/v2/projects/prj_0000000000000000/refresh') },
    { operation: 'projects.webhook', send: send('post', '/v2/projects/prj_0000000000000000/webhook') },
    { operation: 'projects.remap', send: send('post', '/v2/projects/prj_0000000000000000/remap') },
    { operation: 'projects.delete', send: send('delete', '/v2/projects/prj_0000000000000000') },
  ];
}

test('every route is named after an operation of the table, and every operation has a route', (t) => {
  const routers = appRouters(app.services, app.lifecycle);
  const named = new Set<string>();
  const unnamed: string[] = [];
  for (const router of [routers.mcp, routers.health, ...routers.api]) {
    for (const layer of router.stack) {
      if (layer.methods.length === 0) continue;
      if (!layer.name || !isOperation(layer.name)) unnamed.push(`${layer.methods.join(',')} ${layer.path} (${layer.name ?? 'no name'})`);
      else named.add(layer.name);
    }
  }
  t.deepEqual(unnamed, [], 'routes outside the permissions table');
  t.deepEqual(
    Object.keys(PERMISSIONS).filter((op) => !named.has(op)),
    [],
    'operations without a route',
  );
  t.deepEqual(
    Object.keys(PERMISSIONS).filter((op) => !cases().some((c) => c.operation === op)),
    [],
    'operations this test does not try',
  );
});

test('each role is let in or refused as the table says, route by route', async (t) => {
  const mismatches: string[] = [];
  for (const c of cases()) {
    for (const role of roles) {
      const resource = c.resource ? { ...c.resource, teamId: c.resource.teamId === 'TEAM' ? teamId : c.resource.teamId } : undefined;
      const want = expected(role, c.operation, resource);
      const res = await c.send(role);
      const got = res.status === 401 || res.status === 403 ? 'refused' : 'allowed';
      if (got !== want) mismatches.push(`${c.operation} as ${role.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)} (the table says ${want})`);
      if (res.status >= 500) mismatches.push(`${c.operation} as ${role.name}: ${res.status} server error`);
      if (got === 'refused' && want === 'refused' && role.name !== 'anonymous' && role.name !== 'service')
        t.is(res.status, 403, `${c.operation} as ${role.name}`);
    }
  }
  t.deepEqual(mismatches, []);
});

test("a key cannot mint keys, delete teams or change its owner's password; the same user in a session can", async (t) => {
  const adminRole = roles.find((r) => r.name === 'admin-key')!;
  const byKey = await app.request.post('/v2/admin/keys').set(adminRole.headers).send({ name: 'minted by a key' });
  t.is(byKey.status, 403);
  t.is(byKey.body.error, 'forbidden');
  t.regex(byKey.body.message, /dashboard session/);
  t.is((await app.request.delete(`/v2/admin/teams/${teamId}`).set(adminRole.headers)).status, 403);
  t.truthy(await app.services.teams.get('team_default'), 'the default team is still there');
  const sessionRole = roles.find((r) => r.name === 'admin-session')!;
  const bySession = await app.request.post('/v2/admin/keys').set(sessionRole.headers).send({ name: 'minted in a session' });
  t.is(bySession.status, 201);
});
