/**
 * What attacks on a running server found about roles and keys (issue 22, items 3 to 5),
 * each as it was reproduced: a plain team member deleting the team's private library, any
 * signed-in user cancelling a public library's job, and a key minting keys and deleting
 * teams. (The transport, allow-list, input and disclosure findings have their own files.)
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, bearer, makeUser, type TestUser } from './fixtures';
import { testJobParams, testLibrary } from '../helpers';

let app: TestApp;
let admin: string;
let owner: TestUser;
let member: TestUser;
test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off' });
  admin = await adminKey(app);
  owner = await makeUser(app, { plan: 'pro', teamRole: 'owner' });
  member = await makeUser(app);
  await app.services.users.setTeamRole(member.userId, owner.teamId!, 'member');
});
test.after.always(async () => {
  await app?.close();
});

async function privateLibraryOfTheTeam(name: string): Promise<string> {
  const id = `/acme/${name}`;
  await app.services.libraries.ensure(testLibrary(id, { title: name, branch: '', private: true, teamId: owner.teamId!, trustScore: 5 }));
  return id;
}

test("a plain team member cannot delete the team's private library; its owner can", async (t) => {
  const id = await privateLibraryOfTheTeam('secret-docs');
  const byMember = await app.request.delete(`/v2/libraries${id}`).set(bearer(member.key));
  t.is(byMember.status, 403);
  t.is(byMember.body.error, 'forbidden');
  t.truthy(await app.services.libraries.get(id, { fresh: true }), 'still there');
  t.is((await app.request.delete(`/v2/libraries${id}`).set(bearer(owner.key))).status, 200);
});

test("a signed-in user cannot cancel another user's job on a public library", async (t) => {
  const job = await app.services.jobs.enqueue({
    kind: 'refresh',
    libraryId: '/acme/public',
    version: 'latest',
    params: testJobParams(),
    teamId: null,
    createdBy: 'usr_admin',
  });
  const bystander = await makeUser(app);
  const res = await app.request.delete(`/v2/jobs/${job._id}`).set(bearer(bystander.key));
  t.is(res.status, 403);
  t.is((await app.services.jobs.get(job._id))?.state, 'queued', 'not cancelled');
  t.is((await app.request.delete(`/v2/jobs/${job._id}`).set(bearer(admin))).status, 200);
  t.is((await app.services.jobs.get(job._id))?.state, 'cancelled');
});

test('a key cannot mint keys that outlive it, nor delete its own key or the default team', async (t) => {
  const minted = await app.request.post('/v2/admin/keys').set(bearer(admin)).send({ name: 'made by a key' });
  t.is(minted.status, 403);
  const [own] = (await app.services.keys.list('usr_admin')).filter((k) => k.name === 'test admin');
  t.is((await app.request.delete(`/v2/admin/keys/${own?._id}`).set(bearer(admin))).status, 403);
  t.is((await app.request.delete('/v2/admin/teams/team_default').set(bearer(admin))).status, 403);
  t.truthy(await app.services.teams.get('team_default'));
  t.is((await app.request.get('/v2/auth/me').set(bearer(admin))).status, 200, 'the key still works');
});
