import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, adminSession, bearer, makeUser, sessionHeaders } from './fixtures';
import { apiKeyIdFor, hashApiKey } from '../../src/auth/crypto';

let app: TestApp;
let admin: string;
/** Keys are managed in a dashboard session (a key cannot mint or delete keys). */
let adminS: Record<string, string>;
test.before(async () => {
  app = await createTestApp();
  admin = await adminKey(app);
  adminS = await adminSession(app);
});
test.after.always(async () => {
  await app?.close();
});

/** An endpoint that needs a credential and takes keys. */
const NEEDS_KEY = '/v2/auth/me';

test('a missing key where one is required is 401 invalid_api_key', async (t) => {
  const res = await app.request.get(NEEDS_KEY);
  t.is(res.status, 401);
  t.is(res.body.error, 'invalid_api_key');
  t.regex(res.body.message, /Bearer smk_/);
});

test('a key without the smk_ prefix is 401 invalid_api_key (required and public endpoints)', async (t) => {
  for (const path of [NEEDS_KEY, '/v2/libs/search?libraryName=react']) {
    const res = await app.request.get(path).set(bearer('sk_live_0123456789abcdefghijklmnopqrstuvwxyz'));
    t.is(res.status, 401, path);
    t.is(res.body.error, 'invalid_api_key');
    t.regex(res.body.message, /start with "smk_"/);
  }
});

test('malformed keys and malformed Authorization headers are 401 invalid_api_key', async (t) => {
  for (const header of [
    'Bearer smk_tooshort',
    'Bearer smk_has spaces but long enough 0123456789',
    'Basic dXNlcjpwYXNz',
    'Bearer',
    'smk_0123456789abcdefghijklmnopqrstuvwxyz0123',
  ]) {
    const res = await app.request.get(NEEDS_KEY).set('Authorization', header);
    t.is(res.status, 401, header);
    t.is(res.body.error, 'invalid_api_key');
  }
});

test('an unknown well-formed key is 401 invalid_api_key', async (t) => {
  const res = await app.request.get(NEEDS_KEY).set(bearer(`smk_${'A'.repeat(43)}`));
  t.is(res.status, 401);
  t.is(res.body.error, 'invalid_api_key');
  t.regex(res.body.message, /unknown or has been deleted/);
});

test('create shows the value once; list shows only its prefix; only a hash is stored', async (t) => {
  const created = await app.request.post('/v2/admin/keys').set(adminS).send({ name: 'ci pipeline' });
  t.is(created.status, 201);
  t.regex(created.body.value, /^smk_[A-Za-z0-9_-]{43}$/);
  t.is(created.body.name, 'ci pipeline');
  t.is(created.body.prefix, created.body.value.slice(0, 12));
  t.is(created.body.lastUsedAt, null);

  const list = await app.request.get('/v2/admin/keys').set(adminS);
  t.is(list.status, 200);
  const listed = list.body.keys.find((k: { id: string }) => k.id === created.body.id);
  t.deepEqual(Object.keys(listed).sort(), ['createdAt', 'id', 'lastUsedAt', 'name', 'prefix', 'projectId']);
  t.false(JSON.stringify(list.body).includes(created.body.value));

  const raw = await app.handles.mongo.collection('api_keys').findOne({ _id: created.body.id } as never);
  t.truthy(raw);
  t.false(JSON.stringify(raw).includes(created.body.value.slice(12)), 'the value is not stored');
  t.regex(String(raw?.hash), /^[0-9a-f]{64}$/);
});

test('keys are named: a missing or empty name is 400 validation_error', async (t) => {
  for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'ok', scopes: ['read'] }]) {
    const res = await app.request.post('/v2/admin/keys').set(adminS).send(body);
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error, 'validation_error');
  }
});

test('deleting a key revokes it: the very next request with it is 401', async (t) => {
  const { body } = await app.request.post('/v2/admin/keys').set(adminS).send({ name: 'to delete' });
  const key = body.value as string;
  t.is((await app.request.get(NEEDS_KEY).set(bearer(key))).status, 200);
  const del = await app.request.delete(`/v2/admin/keys/${body.id}`).set(adminS);
  t.is(del.status, 200);
  const next = await app.request.get(NEEDS_KEY).set(bearer(key));
  t.is(next.status, 401);
  t.is(next.body.error, 'invalid_api_key');
  // And it cannot be undone: deleting again is 404.
  t.is((await app.request.delete(`/v2/admin/keys/${body.id}`).set(adminS)).status, 404);
});

test('a key cannot list, mint or delete keys (itself included): keys are managed in a dashboard session', async (t) => {
  const { body } = await app.request.post('/v2/admin/keys').set(adminS).send({ name: 'self' });
  for (const res of [
    await app.request.delete(`/v2/admin/keys/${body.id}`).set(bearer(body.value)),
    await app.request.post('/v2/admin/keys').set(bearer(body.value)).send({ name: 'minted by a key' }),
    await app.request.get('/v2/admin/keys').set(bearer(body.value)),
  ]) {
    t.is(res.status, 403);
    t.is(res.body.error, 'forbidden');
    t.regex(res.body.message, /dashboard session/);
  }
  t.is((await app.request.get(NEEDS_KEY).set(bearer(body.value))).status, 200, 'the key still works');
  t.is((await app.services.keys.list('usr_admin')).filter((k) => k.name === 'minted by a key').length, 0);
});

test("a user cannot see or delete another user's keys", async (t) => {
  const member = await makeUser(app);
  const memberS = await sessionHeaders(app, member.username, member.password);
  const { body } = await app.request.post('/v2/admin/keys').set(adminS).send({ name: 'admin only' });
  const res = await app.request.delete(`/v2/admin/keys/${body.id}`).set(memberS);
  t.is(res.status, 404);
  const list = await app.request.get('/v2/admin/keys').set(memberS);
  t.false(list.body.keys.some((k: { id: string }) => k.id === body.id));
  t.is((await app.request.get(NEEDS_KEY).set(bearer(body.value))).status, 200, 'still valid');
});

test("a key acts with its owner's role", async (t) => {
  const member = await makeUser(app);
  const asMember = await app.request.get('/v2/admin/users').set(bearer(member.key));
  t.is(asMember.status, 403);
  t.is(asMember.body.error, 'forbidden');
  t.is((await app.request.get('/v2/admin/users').set(bearer(admin))).status, 200);
  // Promote the owner: the same key now acts as admin (roles are read per request).
  await app.services.users.update(member.userId, { role: 'admin' });
  t.is((await app.request.get('/v2/admin/users').set(bearer(member.key))).status, 200);
});

test('MCP clients may send the key as SHELFMARK_API_KEY or X-API-Key', async (t) => {
  t.is((await app.request.get(NEEDS_KEY).set('SHELFMARK_API_KEY', admin)).status, 200);
  t.is((await app.request.get(NEEDS_KEY).set('X-API-Key', admin)).status, 200);
  const bad = await app.request.get(NEEDS_KEY).set('SHELFMARK_API_KEY', 'nope');
  t.is(bad.status, 401);
  t.is(bad.body.error, 'invalid_api_key');
});

test('lastUsedAt is recorded on use, at most once a minute', async (t) => {
  const member = await makeUser(app);
  const [before] = await app.services.keys.list(member.userId);
  t.is(before.lastUsedAt, null);
  await app.request.get(NEEDS_KEY).set(bearer(member.key));
  await app.services.keys.touchesWritten();
  const first = (await app.services.keys.list(member.userId))[0].lastUsedAt;
  t.truthy(first);
  await app.request.get(NEEDS_KEY).set(bearer(member.key));
  // A second write, if one was started, has landed once this resolves.
  await app.services.keys.touchesWritten();
  const second = (await app.services.keys.list(member.userId))[0].lastUsedAt;
  t.is(new Date(second ?? 0).getTime(), new Date(first ?? 0).getTime(), 'not rewritten within the minute');
});

test('deleting a user revokes their keys at once', async (t) => {
  const member = await makeUser(app);
  t.is((await app.request.get(NEEDS_KEY).set(bearer(member.key))).status, 200);
  t.is((await app.request.delete(`/v2/admin/users/${member.userId}`).set(adminS)).status, 200);
  t.is((await app.request.get(NEEDS_KEY).set(bearer(member.key))).status, 401);
});

test('a key is found by the id derived from its hash; keys stored with older random ids still work', async (t) => {
  const { body } = await app.request.post('/v2/admin/keys').set(adminS).send({ name: 'derived id' });
  t.is(body.id, apiKeyIdFor(hashApiKey(body.value)));
  // A key as earlier versions stored it: a random id, found through the hash index.
  const legacy = `smk_${'L'.repeat(43)}`;
  const adminUser = await app.handles.mongo.collection('api_keys').findOne({ _id: body.id } as never);
  await app.handles.mongo.collection('api_keys').insertOne({
    _id: 'key_0123456789abcdef01',
    userId: adminUser?.userId,
    name: 'legacy',
    hash: hashApiKey(legacy),
    prefix: legacy.slice(0, 12),
    createdAt: new Date(),
    lastUsedAt: null,
  } as never);
  t.is((await app.request.get(NEEDS_KEY).set(bearer(legacy))).status, 200);
  t.is((await app.request.delete('/v2/admin/keys/key_0123456789abcdef01').set(adminS)).status, 200);
  t.is((await app.request.get(NEEDS_KEY).set(bearer(legacy))).status, 401, 'revoked at once');
});
