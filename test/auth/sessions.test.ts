import test from 'ava';
import jwt from 'jsonwebtoken';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, bearer, login, makeUser, setCookies, type TestUser } from './fixtures';

let app: TestApp;
let user: TestUser;
test.before(async () => {
  app = await createTestApp({ RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000', TRUSTED_PROXIES: '127.0.0.1' });
  await adminKey(app);
  user = await makeUser(app, { plan: 'pro' });
});
test.after.always(async () => {
  await app?.close();
});

test('login sets an httpOnly SameSite=Strict session cookie and a readable CSRF cookie', async (t) => {
  const { res } = await login(app, user.username, user.password);
  t.is(res.body.username, user.username);
  t.is(res.body.teams.length, 1);
  const cookies = setCookies(res);
  const session = cookies.get('shelfmark_session');
  const csrf = cookies.get('shelfmark_csrf');
  t.truthy(session?.value);
  t.regex(session?.attrs ?? '', /httponly/);
  t.regex(session?.attrs ?? '', /samesite=strict/);
  t.notRegex(session?.attrs ?? '', /secure/, 'plain http: not Secure');
  t.truthy(csrf?.value);
  t.notRegex(csrf?.attrs ?? '', /httponly/);
  t.regex(csrf?.attrs ?? '', /samesite=strict/);
  const claims = jwt.verify(session?.value ?? '', app.services.config.secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
  t.is(claims.sub, user.userId);
  t.truthy(await app.handles.auth.Session.findById(claims.jti).lean(), 'the session is stored in MongoDB');
});

test('over https (via a trusted proxy) the cookies are Secure', async (t) => {
  const res = await app.request.post('/v2/auth/login').set('X-Forwarded-Proto', 'https').send({ username: user.username, password: user.password });
  t.is(res.status, 200);
  t.regex(setCookies(res).get('shelfmark_session')?.attrs ?? '', /secure/);
});

test('a wrong password or unknown user is 401 with the same message', async (t) => {
  const a = await app.request.post('/v2/auth/login').send({ username: user.username, password: 'nope-nope' });
  const b = await app.request.post('/v2/auth/login').send({ username: 'nobody-here', password: 'nope-nope' });
  t.is(a.status, 401);
  t.is(b.status, 401);
  t.is(a.body.message, b.body.message);
  t.is((await app.request.post('/v2/auth/login').send({ username: user.username })).status, 400);
});

test('GET /v2/auth/me with the session; without one it is 401', async (t) => {
  const s = await login(app, user.username, user.password);
  const me = await app.request.get('/v2/auth/me').set('Cookie', s.cookie);
  t.is(me.status, 200);
  t.is(me.body.id, user.userId);
  t.is(me.body.role, 'member');
  t.is(me.body.via, 'session');
  t.false(me.body.mustChangePassword);
  t.is(me.body.teams[0].myRole, 'owner');
  t.is((await app.request.get('/v2/auth/me')).status, 401);
});

test('cookie-authenticated writes need X-CSRF-Token matching the session; reads do not', async (t) => {
  const s = await login(app, user.username, user.password);
  const noToken = await app.request.post('/v2/admin/keys').set('Cookie', s.cookie).send({ name: 'x' });
  t.is(noToken.status, 403);
  t.is(noToken.body.error, 'forbidden');
  t.regex(noToken.body.message, /X-CSRF-Token/);
  const wrong = await app.request.post('/v2/admin/keys').set('Cookie', s.cookie).set('X-CSRF-Token', 'forged').send({ name: 'x' });
  t.is(wrong.status, 403);
  for (const [method, path] of [
    ['put', '/v2/admin/credentials/github'],
    ['patch', '/v2/policies'],
    ['delete', '/v2/admin/credentials/github'],
  ] as const) {
    const res = await app.request[method](path).set('Cookie', s.cookie).send({});
    t.is(res.status, 403, method);
    t.regex(res.body.message, /X-CSRF-Token/);
  }
  const other = await login(app, user.username, user.password);
  t.is(
    (await app.request.post('/v2/admin/keys').set('Cookie', s.cookie).set('X-CSRF-Token', other.csrf).send({ name: 'x' })).status,
    403,
    "another session's token does not fit",
  );
  t.is((await app.request.post('/v2/admin/keys').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).send({ name: 'x' })).status, 201);
  t.is((await app.request.get('/v2/admin/keys').set('Cookie', s.cookie)).status, 200);
  const keyWrite = await app.request.patch('/v2/auth/me').set(bearer(user.key)).send({ defaultTeamId: 'team_nope' });
  t.is(keyWrite.status, 404, 'key auth needs no CSRF token (the write gets as far as the team lookup)');
});

test('logout invalidates the session at once (the old cookie no longer works)', async (t) => {
  const s = await login(app, user.username, user.password);
  t.is((await app.request.get('/v2/auth/me').set('Cookie', s.cookie)).status, 200);
  const out = await app.request.post('/v2/auth/logout').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf);
  t.is(out.status, 200);
  const cleared = setCookies(out);
  t.is(cleared.get('shelfmark_session')?.value, '');
  const stale = await app.request.get('/v2/auth/me').set('Cookie', s.cookie);
  t.is(stale.status, 401);
  t.is(stale.body.error, 'invalid_api_key');
  t.regex(stale.body.message, /session has expired or was signed out: sign in again/, 'a stale cookie is told so, not "Missing API key"');
  t.regex((await app.request.get('/v2/auth/me')).body.message, /Missing API key/, 'no cookie at all: the key is missing');
  // A logged-out cookie is no credential: public endpoints treat the caller as anonymous.
  t.not((await app.request.get('/v2/libs/search?libraryName=x').set('Cookie', s.cookie)).status, 401);
});

test('forged or tampered session tokens are ignored', async (t) => {
  const s = await login(app, user.username, user.password);
  const token = /shelfmark_session=([^;]+)/.exec(s.cookie)?.[1] ?? '';
  const claims = jwt.decode(token) as jwt.JwtPayload;
  const none = jwt.sign({ csrf: 'x' }, '', { algorithm: 'none', jwtid: claims.jti, subject: claims.sub });
  const otherKey = jwt.sign({ csrf: 'x' }, 'another-secret-another-secret-xx', { algorithm: 'HS256', jwtid: claims.jti, subject: claims.sub });
  const forged = jwt.sign({ csrf: 'x' }, app.services.config.secret, { algorithm: 'HS256', jwtid: 'made-up', subject: claims.sub });
  for (const value of [none, otherKey, forged, `${token}x`]) {
    t.is((await app.request.get('/v2/auth/me').set('Cookie', `shelfmark_session=${value}`)).status, 401);
  }
});

test('expired sessions are purged by the timed deleteMany', async (t) => {
  const s = await login(app, user.username, user.password);
  const jti = (jwt.decode(/shelfmark_session=([^;]+)/.exec(s.cookie)?.[1] ?? '') as jwt.JwtPayload).jti ?? '';
  await app.handles.auth.Session.updateOne({ _id: jti }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
  t.is((await app.request.get('/v2/auth/me').set('Cookie', s.cookie)).status, 401, 'an expired record is refused before the purge');
  t.true((await app.services.sessions.purgeExpired()) >= 1);
  t.is(await app.handles.auth.Session.findById(jti).lean(), null);
});

test('PATCH /v2/auth/me switches the default team (only to own teams)', async (t) => {
  const u = await makeUser(app, { plan: 'free' });
  const other = await app.services.teams.create({ name: `second ${u.username}`, plan: 'pro' });
  t.is((await app.request.patch('/v2/auth/me').set(bearer(u.key)).send({ defaultTeamId: other._id })).status, 404);
  await app.services.users.setTeamRole(u.userId, other._id, 'member');
  const res = await app.request.patch('/v2/auth/me').set(bearer(u.key)).send({ defaultTeamId: other._id });
  t.is(res.status, 200);
  t.is(res.body.defaultTeamId, other._id);
});
