import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { ADMIN_ID, adminKey, bearer, makeUser, type TestUser } from './fixtures';
import type { Principal } from '../../src/auth/principal';

let app: TestApp;
let admin: string;
let owner: TestUser;
test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off', ADD_WAIT_SECONDS: '0' });
  admin = await adminKey(app);
  owner = await makeUser(app, { plan: 'pro' });
});
test.after.always(async () => {
  await app?.close();
});

const DEFAULT_FILTERS = { mode: 'quality', blockedLibraries: [], exceptedLibraries: [], minTrustScore: null, allowedLibraries: [], sourceTypes: [] };

test.serial("GET /v2/policies: the caller's team policy in the Context7 shape (default at first)", async (t) => {
  const res = await app.request.get('/v2/policies').set(bearer(owner.key));
  t.is(res.status, 200);
  t.is(res.body.teamId, owner.teamId);
  t.deepEqual(res.body.libraryFilters, DEFAULT_FILTERS);
  t.false(res.body.searchFilterApplied);
});

test.serial('PATCH /v2/policies merges the given filters; forPrincipal then applies them', async (t) => {
  const res = await app.request
    .patch('/v2/policies')
    .set(bearer(owner.key))
    .send({ libraryFilters: { blockedLibraries: ['/evil/lib'], minTrustScore: 5, sourceTypes: ['github'] } });
  t.is(res.status, 200);
  t.deepEqual(res.body.libraryFilters, { ...DEFAULT_FILTERS, blockedLibraries: ['/evil/lib'], minTrustScore: 5, sourceTypes: ['github'] });
  t.true(res.body.searchFilterApplied);
  const again = await app.request
    .patch('/v2/policies')
    .set(bearer(owner.key))
    .send({ libraryFilters: { mode: 'quality' } });
  t.deepEqual(again.body.libraryFilters.blockedLibraries, ['/evil/lib'], 'fields not given are kept');

  const principal: Principal = {
    kind: 'user',
    userId: owner.userId,
    username: owner.username,
    role: 'member',
    teamIds: [owner.teamId ?? ''],
    defaultTeamId: owner.teamId ?? null,
    via: 'api_key',
  };
  const policy = await app.services.policies.forPrincipal(principal);
  t.true(policy.applied);
  t.false(policy.allows({ id: '/evil/lib', source: 'github', trustScore: 9 }));
  t.false(policy.allows({ id: '/low/trust', source: 'github', trustScore: 4 }));
  t.false(policy.allows({ id: '/openapi/x', source: 'openapi', trustScore: 9 }));
  t.true(policy.allows({ id: '/good/lib', source: 'github', trustScore: 8 }));
  const anon = await app.services.policies.forPrincipal({ kind: 'anonymous', clientId: '1.2.3.4' });
  t.false(anon.applied);
  t.true(anon.allows({ id: '/evil/lib', source: 'github', trustScore: 0 }));
  t.false((await app.services.policies.forPrincipal({ kind: 'service' })).applied);
});

test.serial('a library outside the policy is 403 access_denied when added', async (t) => {
  const res = await app.request.post('/v2/add/repo/github').set(bearer(owner.key)).send({ docsRepoUrl: 'https://github.com/evil/lib' });
  t.is(res.status, 403);
  t.is(res.body.error, 'access_denied');
  t.regex(res.body.message, /\/evil\/lib/);
});

test('PATCH bodies are validated with a 400 validation_error naming the field', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ libraryFilters: { mode: 'all' } }, 'libraryFilters.mode'],
    [{ libraryFilters: { minTrustScore: 42 } }, 'libraryFilters.minTrustScore'],
    [{ libraryFilters: { minTrustScore: '5' } }, 'libraryFilters.minTrustScore'],
    [{ libraryFilters: { blockedLibraries: 'react' } }, 'libraryFilters.blockedLibraries'],
    [{ libraryFilters: { allowedLibraries: ['react'] } }, 'libraryFilters.allowedLibraries.0'],
    [{ libraryFilters: { sourceTypes: ['svn'] } }, 'libraryFilters.sourceTypes.0'],
    [{ libraryFilters: { colour: 'red' } }, 'libraryFilters.colour'],
    [{ somethingElse: true }, 'libraryFilters'],
    [{ libraryFilters: {}, somethingElse: true }, 'somethingElse'],
  ];
  for (const [body, field] of cases) {
    const res = await app.request
      .patch('/v2/policies')
      .set(bearer(admin))
      .query({ teamId: owner.teamId })
      .send(body as object);
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error, 'validation_error');
    t.true(res.body.message.includes(field), `${res.body.message} names ${field}`);
  }
});

test('policy lists hold library ids only: a string no library could have is a 400 naming it, and nothing is written', async (t) => {
  const before = (await app.request.get('/v2/policies').set(bearer(admin)).query({ teamId: owner.teamId })).body.libraryFilters;
  for (const [list, bad] of [
    ['allowedLibraries', '/acme/widgets!'],
    ['blockedLibraries', '/../etc'],
    ['exceptedLibraries', '/acme/widgets@2.0'],
  ] as const) {
    const res = await app.request
      .patch('/v2/policies')
      .set(bearer(admin))
      .query({ teamId: owner.teamId })
      .send({ libraryFilters: { mode: 'select', [list]: ['/good/one', bad] } });
    t.is(res.status, 400, `${list} ${bad}`);
    t.is(res.body.error, 'validation_error');
    t.true(res.body.message.includes(`"${bad}"`), res.body.message);
    t.true(res.body.message.includes(`libraryFilters.${list}.1`), res.body.message);
  }
  const after = (await app.request.get('/v2/policies').set(bearer(admin)).query({ teamId: owner.teamId })).body.libraryFilters;
  t.deepEqual(after, before, 'nothing half-written');
  const preview = await app.request
    .post('/v2/policies/preview')
    .set(bearer(admin))
    .query({ teamId: owner.teamId })
    .send({ libraryFilters: { allowedLibraries: ['acme'] } });
  t.is(preview.status, 400, 'the preview checks the same way');
});

test('members read but cannot change; other teams are 404 team_not_found; admins pass ?teamId=', async (t) => {
  const member = await makeUser(app);
  await app.services.users.setTeamRole(member.userId, owner.teamId ?? '', 'member');
  t.is((await app.request.get('/v2/policies').set(bearer(member.key))).status, 200);
  const patch = await app.request
    .patch('/v2/policies')
    .set(bearer(member.key))
    .send({ libraryFilters: { mode: 'select' } });
  t.is(patch.status, 403);
  t.is(patch.body.error, 'forbidden');

  const outsider = await makeUser(app, { plan: 'free' });
  for (const req of [
    app.request.get('/v2/policies').query({ teamId: owner.teamId }).set(bearer(outsider.key)),
    app.request.patch('/v2/policies').query({ teamId: owner.teamId }).set(bearer(outsider.key)).send({ libraryFilters: {} }),
    app.request.get('/v2/policies').query({ teamId: 'team_nope' }).set(bearer(admin)),
  ]) {
    const res = await req;
    t.is(res.status, 404);
    t.is(res.body.error, 'team_not_found');
  }
  const lonely = await makeUser(app);
  t.is((await app.request.get('/v2/policies').set(bearer(lonely.key))).body.error, 'team_not_found');

  const asAdmin = await app.request.get('/v2/policies').query({ teamId: owner.teamId }).set(bearer(admin));
  t.is(asAdmin.status, 200);
  t.is(asAdmin.body.teamId, owner.teamId);
  const own = await app.request.get('/v2/policies').set(bearer(admin));
  t.is(own.body.teamId, (await app.services.users.require(ADMIN_ID)).defaultTeamId);
  t.is((await app.request.get('/v2/policies')).status, 401, 'anonymous callers need the permission');
});
