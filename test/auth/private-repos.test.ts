import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, bearer, makeUser } from './fixtures';

// Spec §4.1 rules 2 and 3 through the real add route; every case is refused before any clone.
let app: TestApp;
test.before(async () => {
  // No worker and no wait: a request that passes the rules is queued and answers at once.
  app = await createTestApp({ WORKER_MODE: 'off', ADD_WAIT_SECONDS: '0' });
  await adminKey(app);
});
test.after.always(async () => {
  await app?.close();
});

const addPrivate = (key: string) =>
  app.request
    .post('/v2/add/repo/github')
    .set(bearer(key))
    .send({ docsRepoUrl: 'https://github.com/acme/secret-docs', private: true, gitToken: 'ghp_not_used_here' });

test('rule 2: a team plan without private repositories is 403 forbidden (even for the team owner)', async (t) => {
  const owner = await makeUser(app, { plan: 'free', teamRole: 'owner' });
  const res = await addPrivate(owner.key);
  t.is(res.status, 403);
  t.is(res.body.error, 'forbidden');
  t.regex(res.body.message, /plan.*does not include private repositories/);
});

test('rule 3: a plain team member (not owner, not admin) is 403 forbidden', async (t) => {
  const member = await makeUser(app, { plan: 'pro', teamRole: 'member' });
  const res = await addPrivate(member.key);
  t.is(res.status, 403);
  t.is(res.body.error, 'forbidden');
  t.regex(res.body.message, /team owner or admin/);
});

test('a user without any team cannot add private repositories', async (t) => {
  const loner = await makeUser(app);
  const res = await addPrivate(loner.key);
  t.is(res.status, 403);
  t.is(res.body.error, 'forbidden');
});

test('after an admin moves the team to pro, the same owner gets past both rules', async (t) => {
  const owner = await makeUser(app, { plan: 'free', teamRole: 'owner' });
  t.is((await addPrivate(owner.key)).status, 403);
  await app.services.teams.update(owner.teamId ?? '', { plan: 'pro' });
  // Past the rules the add is queued (no worker runs here) — not 403.
  const res = await app.request
    .post('/v2/add/repo/github')
    .set(bearer(owner.key))
    .send({ docsRepoUrl: 'https://github.com/acme/secret-docs', private: true, gitToken: 'x' });
  t.not(res.body.error, 'forbidden');
});
