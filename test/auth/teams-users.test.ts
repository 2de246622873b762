import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { ADMIN_ID, adminSession, bearer, makeUser, sessionHeaders } from './fixtures';

let app: TestApp;
/** Users, teams and members are managed in a dashboard session (keys are refused). */
let adminS: Record<string, string>;
test.before(async () => {
  app = await createTestApp();
  adminS = await adminSession(app);
});
test.after.always(async () => {
  await app?.close();
});

test('plans: free has no private repositories, pro and enterprise do', async (t) => {
  const member = await makeUser(app);
  const res = await app.request.get('/v2/admin/plans').set(bearer(member.key));
  t.is(res.status, 200);
  t.deepEqual(
    res.body.plans.map((p: { id: string; privateRepositories: boolean }) => [p.id, p.privateRepositories]),
    [
      ['free', false],
      ['pro', true],
      ['enterprise', true],
    ],
  );
});

test('admins manage users: create, list, read, change role, delete; unknown → 404 user_not_found', async (t) => {
  const created = await app.request
    .post('/v2/admin/users')
    .set(adminS)
    .send({ username: 'alice', password: 'alice-password', role: 'member', teamId: 'team_default' });
  t.is(created.status, 201);
  t.is(created.body.username, 'alice');
  t.is(created.body.defaultTeamId, 'team_default');
  t.false('passwordHash' in created.body);
  t.is(
    (await app.request.post('/v2/admin/users').set(adminS).send({ username: 'ALICE', password: 'alice-password' })).status,
    409,
    'usernames are unique regardless of case',
  );
  t.is((await app.request.post('/v2/admin/users').set(adminS).send({ username: 'bob', password: 'short' })).status, 400);
  t.is((await app.request.post('/v2/admin/users').set(adminS).send({ username: 'bob', password: 'long-enough', role: 'root' })).status, 400);
  const noTeam = await app.request.post('/v2/admin/users').set(adminS).send({ username: 'carol', password: 'long-enough', teamId: 'team_nope' });
  t.is(noTeam.status, 404);
  t.is(noTeam.body.error, 'team_not_found');

  const list = await app.request.get('/v2/admin/users').set(adminS);
  t.true(list.body.users.some((u: { username: string }) => u.username === 'alice'));
  t.is((await app.request.patch(`/v2/admin/users/${created.body.id}`).set(adminS).send({ role: 'admin' })).body.role, 'admin');
  t.is((await app.request.get(`/v2/admin/users/${created.body.id}`).set(adminS)).body.role, 'admin');
  t.is((await app.request.delete(`/v2/admin/users/${created.body.id}`).set(adminS)).status, 200);

  for (const req of [
    app.request.get('/v2/admin/users/usr_missing').set(adminS),
    app.request.patch('/v2/admin/users/usr_missing').set(adminS).send({ role: 'member' }),
    app.request.delete('/v2/admin/users/usr_missing').set(adminS),
  ]) {
    const res = await req;
    t.is(res.status, 404);
    t.is(res.body.error, 'user_not_found');
  }
});

test('members cannot manage users; the last admin cannot be demoted or delete themselves', async (t) => {
  const member = await makeUser(app);
  t.is((await app.request.post('/v2/admin/users').set(bearer(member.key)).send({ username: 'eve', password: 'long-enough' })).status, 403);
  t.is((await app.request.get('/v2/admin/users').set(bearer(member.key))).status, 403);
  t.is((await app.request.delete(`/v2/admin/users/${ADMIN_ID}`).set(adminS)).status, 409);
});

test('teams: admins create them (creator owns), members see only their own; others are 404 team_not_found', async (t) => {
  const created = await app.request.post('/v2/admin/teams').set(adminS).send({ name: 'Platform', plan: 'pro' });
  t.is(created.status, 201);
  t.is(created.body.plan, 'pro');
  t.true(created.body.privateRepositories);
  t.deepEqual(
    created.body.members.map((m: { userId: string; role: string }) => [m.userId, m.role]),
    [[ADMIN_ID, 'owner']],
  );
  t.is((await app.request.post('/v2/admin/teams').set(adminS).send({ name: 'platform' })).status, 409);
  t.is((await app.request.post('/v2/admin/teams').set(adminS).send({ name: 'x', plan: 'gold' })).status, 400);

  const outsider = await makeUser(app, { plan: 'free' });
  const outsiderS = await sessionHeaders(app, outsider.username, outsider.password);
  t.is((await app.request.post('/v2/admin/teams').set(outsiderS).send({ name: 'mine' })).status, 403);
  const mine = await app.request.get('/v2/admin/teams').set(bearer(outsider.key));
  t.deepEqual(
    mine.body.teams.map((x: { id: string }) => x.id),
    [outsider.teamId],
  );
  for (const req of [
    app.request.get(`/v2/admin/teams/${created.body.id}`).set(bearer(outsider.key)),
    app.request.patch(`/v2/admin/teams/${created.body.id}`).set(outsiderS).send({ name: 'hijack' }),
    app.request.post(`/v2/admin/teams/${created.body.id}/members`).set(outsiderS).send({ userId: outsider.userId }),
    app.request.get('/v2/admin/teams/team_nope').set(adminS),
    app.request.delete('/v2/admin/teams/team_nope').set(adminS),
  ]) {
    const res = await req;
    t.is(res.status, 404);
    t.is(res.body.error, 'team_not_found');
  }
});

test('members: owners add and remove them with a team role; unknown users are 404 user_not_found', async (t) => {
  const owner = await makeUser(app, { plan: 'pro' });
  const other = await makeUser(app);
  const ownerS = await sessionHeaders(app, owner.username, owner.password);
  const otherS = await sessionHeaders(app, other.username, other.password);
  const path = `/v2/admin/teams/${owner.teamId}/members`;
  const add = await app.request.post(path).set(ownerS).send({ username: other.username, role: 'member' });
  t.is(add.status, 201);
  t.true(add.body.members.some((m: { userId: string; role: string }) => m.userId === other.userId && m.role === 'member'));
  const unknown = await app.request.post(path).set(ownerS).send({ userId: 'usr_ghost' });
  t.is(unknown.status, 404);
  t.is(unknown.body.error, 'user_not_found');
  t.is((await app.request.post(path).set(ownerS).send({ userId: other.userId, role: 'boss' })).status, 400);

  // A plain member cannot manage members or change the plan; sees the team.
  t.is((await app.request.get(`/v2/admin/teams/${owner.teamId}`).set(bearer(other.key))).status, 200);
  t.is((await app.request.post(path).set(otherS).send({ userId: other.userId, role: 'owner' })).status, 403);
  t.is(
    (await app.request.post(path).set(bearer(owner.key)).send({ userId: other.userId, role: 'member' })).status,
    403,
    "the owner's key cannot manage members: a session is needed",
  );
  t.is((await app.request.patch(`/v2/admin/teams/${owner.teamId}`).set(ownerS).send({ plan: 'enterprise' })).status, 403, 'plans are for admins');
  t.is((await app.request.patch(`/v2/admin/teams/${owner.teamId}`).set(adminS).send({ plan: 'enterprise' })).body.plan, 'enterprise');

  // The last owner cannot leave or be demoted; after promoting another, they can.
  t.is((await app.request.delete(`${path}/${owner.userId}`).set(ownerS)).status, 409);
  t.is((await app.request.patch(`${path}/${owner.userId}`).set(ownerS).send({ role: 'member' })).status, 409);
  t.is((await app.request.patch(`${path}/${other.userId}`).set(ownerS).send({ role: 'owner' })).status, 200);
  t.is((await app.request.delete(`${path}/${owner.userId}`).set(ownerS)).status, 200);
  t.is((await app.request.get(`/v2/admin/teams/${owner.teamId}`).set(ownerS)).status, 404, 'gone from the team at once');
  const missing = await app.request.delete(`${path}/usr_ghost`).set(adminS);
  t.is(missing.status, 404);
  t.is(missing.body.error, 'user_not_found');
});

test('deleting a team removes it from its members and drops its policy', async (t) => {
  const owner = await makeUser(app, { plan: 'pro' });
  const ownerS = await sessionHeaders(app, owner.username, owner.password);
  await app.services.policies.patch(owner.teamId ?? '', { libraryFilters: { blockedLibraries: ['/a/b'] } }, null);
  t.is((await app.request.delete(`/v2/admin/teams/${owner.teamId}`).set(ownerS)).status, 403, 'owners cannot delete teams');
  t.is((await app.request.delete(`/v2/admin/teams/${owner.teamId}`).set(adminS)).status, 200);
  t.deepEqual((await app.services.users.require(owner.userId)).memberships, []);
  t.is(await app.handles.auth.Policy.findById(owner.teamId).lean(), null);
  t.is((await app.request.get(`/v2/admin/teams/${owner.teamId}`).set(adminS)).status, 404);
});
