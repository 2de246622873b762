import test from 'ava';
import { assertAdmin, assertCanAddPrivateRepo, assertCredentialsChanged, canSeeLibrary, canSeeTeam } from './authorize';
import { authorize } from './permissions';
import type { Principal, UserPrincipal } from './principal';
import { ForbiddenError } from '../errors';

const user = (over: Partial<UserPrincipal> = {}): UserPrincipal => ({
  kind: 'user',
  userId: 'usr_1',
  username: 'u',
  role: 'member',
  teamIds: ['team_a'],
  defaultTeamId: 'team_a',
  via: 'api_key',
  ownerOf: [],
  ...over,
});
const anonymous: Principal = { kind: 'anonymous', clientId: '1.2.3.4' };
const service: Principal = { kind: 'service' };
const team = (plan: string) => ({ _id: 'team_a', plan });

test('private repos: a plan without private repositories is 403 forbidden naming the plan', (t) => {
  for (const who of [user({ ownerOf: ['team_a'] }), user({ role: 'admin' }), service]) {
    const e = t.throws(() => assertCanAddPrivateRepo(who, team('free')), { instanceOf: ForbiddenError });
    t.is(e?.status, 403);
    t.is(e?.code, 'forbidden');
    t.regex(e?.message ?? '', /plan.*does not include private repositories/);
  }
});

test('private repos: members who are not owner or admin are 403 forbidden', (t) => {
  const e = t.throws(() => assertCanAddPrivateRepo(user(), team('pro')), { instanceOf: ForbiddenError });
  t.regex(e?.message ?? '', /team owner or admin/);
  t.throws(() => assertCanAddPrivateRepo(user({ ownerOf: ['team_b'] }), team('enterprise')), { instanceOf: ForbiddenError });
  t.throws(() => assertCanAddPrivateRepo(anonymous, team('pro')), { instanceOf: ForbiddenError });
});

test('private repos: owners and admins on pro/enterprise pass; no team is forbidden', (t) => {
  t.notThrows(() => assertCanAddPrivateRepo(user({ ownerOf: ['team_a'] }), team('pro')));
  t.notThrows(() => assertCanAddPrivateRepo(user({ role: 'admin' }), team('enterprise')));
  t.notThrows(() => assertCanAddPrivateRepo(service, team('pro')));
  t.throws(() => assertCanAddPrivateRepo(user({ role: 'admin' }), null), { instanceOf: ForbiddenError, message: /not a member of any team/ });
});

test('assertAdmin: admins and the service key pass, others are forbidden', (t) => {
  t.notThrows(() => assertAdmin(user({ role: 'admin' })));
  t.notThrows(() => assertAdmin(service));
  t.throws(() => assertAdmin(user()), { instanceOf: ForbiddenError });
  t.throws(() => assertAdmin(anonymous), { instanceOf: ForbiddenError });
});

test('team-owner rules of the permissions table, and canSeeTeam', (t) => {
  t.notThrows(() => authorize(user({ ownerOf: ['team_a'] }), 'policies.update', { teamId: 'team_a' }));
  t.throws(() => authorize(user(), 'policies.update', { teamId: 'team_a' }), { instanceOf: ForbiddenError });
  t.notThrows(() => authorize(user({ role: 'admin' }), 'policies.update', { teamId: 'team_b' }));
  t.true(canSeeTeam(user(), 'team_a'));
  t.false(canSeeTeam(user(), 'team_b'));
  t.true(canSeeTeam(user({ role: 'admin' }), 'team_b'));
  t.false(canSeeTeam(anonymous, 'team_a'));
});

test('assertCredentialsChanged refuses the default credentials with a message saying how', (t) => {
  t.notThrows(() => assertCredentialsChanged({ mustChangePassword: false }));
  const e = t.throws(() => assertCredentialsChanged({ mustChangePassword: true }), { instanceOf: ForbiddenError });
  t.regex(e?.message ?? '', /default administrator credentials must be changed first.*PUT \/v2\/auth\/password/);
});

test('canSeeLibrary: private libraries only for their team, admins and the service key', (t) => {
  const pub = { private: false, teamId: null };
  const priv = { private: true, teamId: 'team_a' };
  t.true(canSeeLibrary(anonymous, pub));
  t.false(canSeeLibrary(anonymous, priv));
  t.true(canSeeLibrary(user(), priv));
  t.false(canSeeLibrary(user({ teamIds: ['team_b'] }), priv));
  t.true(canSeeLibrary(user({ role: 'admin', teamIds: [] }), priv));
  t.true(canSeeLibrary(service, priv));
  t.false(canSeeLibrary(user(), { private: true, teamId: null }));
});

test('authorize: session-only operations refuse keys and the global API_KEY; account operations refuse the API_KEY', (t) => {
  const session = user({ via: 'session', role: 'admin' });
  t.notThrows(() => authorize(session, 'keys.create'));
  t.throws(() => authorize(user({ role: 'admin' }), 'keys.create'), { instanceOf: ForbiddenError, message: /dashboard session/ });
  t.throws(() => authorize(service, 'teams.delete'), { instanceOf: ForbiddenError, message: /dashboard session/ });
  t.throws(() => authorize(service, 'credentials.list'), { instanceOf: ForbiddenError, message: /user account/ });
  t.notThrows(() => authorize(service, 'users.list'), 'the API_KEY is an admin key');
  t.throws(() => authorize(user({ via: 'session' }), 'teams.delete'), { instanceOf: ForbiddenError, message: /admin role/ });
});

test('authorize: jobs are cancelled by their starter, their team owners and admins', (t) => {
  const job = { createdBy: 'usr_2', teamId: 'team_a' };
  t.throws(() => authorize(user(), 'jobs.cancel', job), { instanceOf: ForbiddenError });
  t.notThrows(() => authorize(user({ userId: 'usr_2' }), 'jobs.cancel', job));
  t.notThrows(() => authorize(user({ ownerOf: ['team_a'] }), 'jobs.cancel', job));
  t.throws(() => authorize(user({ ownerOf: ['team_a'] }), 'jobs.cancel', { createdBy: 'usr_2', teamId: null }), { instanceOf: ForbiddenError });
  t.throws(() => authorize(anonymous, 'jobs.cancel', job), { instanceOf: ForbiddenError });
});

test('authorize: a private library is deleted by its team owners, a public one by admins only', (t) => {
  t.throws(() => authorize(user(), 'libraries.delete', { private: true, teamId: 'team_a' }), { instanceOf: ForbiddenError });
  t.notThrows(() => authorize(user({ ownerOf: ['team_a'] }), 'libraries.delete', { private: true, teamId: 'team_a' }));
  t.throws(() => authorize(user({ ownerOf: ['team_a'] }), 'libraries.delete', { private: false, teamId: null }), { instanceOf: ForbiddenError });
  t.notThrows(() => authorize(user({ role: 'admin' }), 'libraries.delete', { private: false, teamId: null }));
});
