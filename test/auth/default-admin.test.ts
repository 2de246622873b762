import test from 'ava';
import { PassThrough } from 'node:stream';
import supertest from 'supertest';
import { createTestApp, dropTestStores, testConfig, type TestApp } from '../harness';
import { createLogger } from '../../src/logger';
import { createServices, openStores, portsOf } from '../../src/services';
import { ADMIN_ID, bearer, login } from './fixtures';

let app: TestApp;
test.before(async () => {
  app = await createTestApp({ RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
});
test.after.always(async () => {
  await app?.close();
});

test.serial('a fresh install has the default administrator (admin/admin), flagged to change it, in team "default" on enterprise', async (t) => {
  const admin = await app.services.users.require(ADMIN_ID);
  t.is(admin.username, 'admin');
  t.is(admin.role, 'admin');
  t.true(admin.mustChangePassword);
  t.is(admin.memberships.length, 1);
  const team = await app.services.teams.require(admin.memberships[0].teamId);
  t.is(team.name, 'default');
  t.is(team.plan, 'enterprise');
  t.is(admin.memberships[0].role, 'owner');
  t.is((await app.services.settings.anonymousPermissions()).add, false);
});

test.serial('until changed, the default login can do nothing but change it (session and keys)', async (t) => {
  const session = await login(app, 'admin', 'admin');
  t.true(session.res.body.mustChangePassword);
  const me = await app.request.get('/v2/auth/me').set('Cookie', session.cookie);
  t.is(me.status, 200);
  t.true(me.body.mustChangePassword);

  const { value: key } = await app.services.keys.create(ADMIN_ID, 'made before the change');
  for (const req of [
    app.request.get('/v2/admin/users').set('Cookie', session.cookie),
    app.request.get('/v2/admin/users').set(bearer(key)),
    app.request.post('/v2/admin/keys').set('Cookie', session.cookie).set('X-CSRF-Token', session.csrf).send({ name: 'k' }),
    app.request.get('/v2/libs/search?libraryName=react').set(bearer(key)),
    app.request.get('/v2/policies').set(bearer(key)),
  ]) {
    const res = await req;
    t.is(res.status, 403);
    t.is(res.body.error, 'forbidden');
    t.regex(res.body.message, /default administrator credentials must be changed first.*\/v2\/auth\/password.*dashboard/);
  }
});

test.serial('the new password is checked: current password, at least 8 characters, not the default', async (t) => {
  const session = await login(app, 'admin', 'admin');
  const put = (body: object) => app.request.put('/v2/auth/password').set('Cookie', session.cookie).set('X-CSRF-Token', session.csrf).send(body);
  const cases: Array<[object, string]> = [
    [{ currentPassword: 'wrong', newPassword: 'long-enough-1' }, 'currentPassword'],
    [{ currentPassword: 'admin', newPassword: 'short' }, 'newPassword'],
    [{ currentPassword: 'admin', newPassword: 'admin' }, 'newPassword'],
    [{ newPassword: 'long-enough-1' }, 'currentPassword'],
    [{ currentPassword: 'admin', newPassword: 'long-enough-1', username: 'bad name!' }, 'username'],
  ];
  for (const [body, field] of cases) {
    const res = await put(body);
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error, 'validation_error');
    t.true(res.body.message.includes(field), res.body.message);
  }
  t.true((await app.services.users.require(ADMIN_ID)).mustChangePassword);
});

test.serial('changing the credentials (also the username) lifts the restriction; other sessions end', async (t) => {
  const other = await login(app, 'admin', 'admin');
  const session = await login(app, 'admin', 'admin');
  const { value: key } = await app.services.keys.create(ADMIN_ID, 'kept');
  const res = await app.request
    .put('/v2/auth/password')
    .set('Cookie', session.cookie)
    .set('X-CSRF-Token', session.csrf)
    .send({ currentPassword: 'admin', newPassword: 'a-much-better-password', username: 'root' });
  t.is(res.status, 200);
  t.false(res.body.mustChangePassword);
  t.is(res.body.username, 'root');

  t.is((await app.request.get('/v2/admin/users').set('Cookie', session.cookie)).status, 200, 'this session continues');
  t.is((await app.request.get('/v2/admin/users').set(bearer(key))).status, 200, 'keys keep working');
  t.is((await app.request.get('/v2/auth/me').set('Cookie', other.cookie)).status, 401, 'the other session ended');
  t.is((await app.request.post('/v2/auth/login').send({ username: 'admin', password: 'admin' })).status, 401);
  t.is((await app.request.post('/v2/auth/login').send({ username: 'root', password: 'a-much-better-password' })).status, 200);
});

test('the server warns at every start while the default credentials are unchanged', async (t) => {
  const config = testConfig({ LOG_LEVEL: 'warn' });
  const start = async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const handles = await openStores(config, createLogger('warn', stream));
    const composition = await createServices(config, createLogger('warn', stream), handles);
    return {
      services: portsOf(composition),
      lifecycle: composition.lifecycle,
      handles,
      warnings: () => lines.filter((l) => /default administrator credentials/.test(l)),
    };
  };
  const first = await start();
  t.is(first.warnings().length, 1);
  await first.lifecycle.close();
  const second = await start();
  t.is(second.warnings().length, 1, 'again on the next start');
  // Change them through the API, then start again: no warning.
  const request = supertest((await import('../../src/http/app')).createApp(second.services, second.lifecycle).callback());
  const loginRes = await request.post('/v2/auth/login').send({ username: 'admin', password: 'admin' });
  const cookie = (loginRes.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
  const csrf = /shelfmark_csrf=([^;]+)/.exec(cookie)?.[1] ?? '';
  t.is(
    (await request.put('/v2/auth/password').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ currentPassword: 'admin', newPassword: 'changed-at-last' }))
      .status,
    200,
  );
  await second.lifecycle.close();
  const third = await start();
  t.is(third.warnings().length, 0);
  t.is(await third.services.users.count(), 1, 'no second administrator is created');
  await dropTestStores({ es: third.handles.es, prefix: config.indexPrefix, mongo: third.handles.mongo });
  await third.lifecycle.close();
});
