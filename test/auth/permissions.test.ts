import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, adminSession, bearer, makeUser } from './fixtures';

let app: TestApp;
let admin: string;
/** Permission settings are changed in a dashboard session. */
let adminS: Record<string, string>;
test.before(async () => {
  app = await createTestApp();
  admin = await adminKey(app);
  adminS = await adminSession(app);
});
test.after.always(async () => {
  await app?.close();
});

const ANON_CALLS = {
  add: () => app.request.post('/v2/add/repo/github').send({}),
  refresh: () => app.request.post('/v2/refresh').send({}),
  metrics: () => app.request.get('/v2/libs/metrics?libraryId=/a/b'),
  jobs: () => app.request.get('/v2/jobs'),
  policies: () => app.request.get('/v2/policies?teamId=team_default'),
};

test.serial('all anonymous operations are off by default (401 invalid_api_key)', async (t) => {
  const res = await app.request.get('/v2/admin/permissions').set(bearer(admin));
  t.is(res.status, 200);
  t.deepEqual(res.body.anonymous, { add: false, refresh: false, upload: false, policies: false, metrics: false, jobs: false });
  for (const [name, call] of Object.entries(ANON_CALLS)) {
    const r = await call();
    t.is(r.status, 401, name);
    t.is(r.body.error, 'invalid_api_key', name);
  }
});

test.serial('an admin can allow operations without authentication; each then passes authentication', async (t) => {
  const put = await app.request
    .put('/v2/admin/permissions')
    .set(adminS)
    .send({ anonymous: { add: true, metrics: true, jobs: true, policies: true, refresh: true } });
  t.is(put.status, 200);
  t.true(put.body.anonymous.add);
  t.false(put.body.anonymous.upload);
  for (const [name, call] of Object.entries(ANON_CALLS)) {
    const r = await call();
    t.not(r.status, 401, name);
    t.not(r.status, 403, name);
  }
  t.is((await ANON_CALLS.add()).body.error, 'validation_error', 'add got as far as validating its body');
  // Writes that are not among the operations stay closed.
  t.is((await app.request.patch('/v2/policies?teamId=team_default').send({ libraryFilters: {} })).status, 401);
  t.is((await app.request.get('/v2/admin/users')).status, 401);
  await app.request
    .put('/v2/admin/permissions')
    .set(adminS)
    .send({ anonymous: { add: false, metrics: false, jobs: false, policies: false, refresh: false } });
  t.is((await ANON_CALLS.add()).status, 401, 'switched off again at once');
});

test('permissions are admin-only and validated', async (t) => {
  const member = await makeUser(app);
  t.is((await app.request.get('/v2/admin/permissions').set(bearer(member.key))).status, 403);
  t.is(
    (
      await app.request
        .put('/v2/admin/permissions')
        .set(bearer(member.key))
        .send({ anonymous: { add: true } })
    ).status,
    403,
  );
  for (const body of [{ anonymous: { delete: true } }, { anonymous: { add: 'yes' } }, { anon: {} }]) {
    const res = await app.request.put('/v2/admin/permissions').set(adminS).send(body);
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error, 'validation_error');
  }
});
