/**
 * Projects end to end on the real app and stores: a koa repository with three releases on a
 * local Git server, indexed as latest (3.0.0) and the tags 2.15.0 and 2.16.4; a project made
 * from a real package-lock.json that pins koa 2.16.4 (npm made it: test/fixtures/lockfiles/).
 * Context without a version then serves 2.16.4 and says why; a new lockfile moves the pin; the
 * project is used through projectId, an API key bound to it, and MCP (argument and header).
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '../../src/config';
import { createTestApp, type TestApp, listenApp } from '../harness';
import { createRepo, startGitServer, type GitServer } from '../git-server';
import { adminKey, bearer, makeUser, sessionHeaders, type TestUser } from '../auth/fixtures';
import { seedLibrary } from '../helpers';
import { connectHttp, connectStdio, textOf } from '../mcp/fixture';

const LOCKS = path.join(ROOT_DIR, 'test', 'fixtures', 'lockfiles');
const lock = (dir: string) => fs.readFileSync(path.join(LOCKS, dir, 'package-lock.json'));

const GUIDE = (v: string) => `# Koa ${v}

Koa ${v} is a middleware framework for Node.js.

## Writing middleware in koa ${v}

A middleware is an async function taking \`ctx\` and \`next\` (release ${v}):

\`\`\`js
app.use(async (ctx, next) => { await next(); ctx.set('X-Version', '${v}'); });
\`\`\`
`;

let git: GitServer;
let app: TestApp;
let server: Awaited<ReturnType<typeof listenApp>> | undefined;
let url: string;
let admin: string;
let owner: TestUser;
let stranger: TestUser;
let projectId: string;

const files = (v: string) => ({ 'docs/guide.md': GUIDE(v), 'README.md': `# Koa\n\nExpressive middleware for Node.js, release ${v}.\n` });
const context = (q: Record<string, string | undefined>, key = owner.key) =>
  app.request
    .get('/v2/context')
    .set(bearer(key))
    .query({ libraryId: '/koajs/koa', query: 'how to write a middleware', ...q });
const upload = (key: string, content: Buffer, fields: Record<string, string> = {}, filename = 'package-lock.json') => {
  let req = app.request.post('/v2/projects').set(bearer(key));
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return req.attach('lockfile', content, filename);
};

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'koajs/koa', [
    { files: files('2.15.0'), tag: '2.15.0' },
    { files: files('2.16.4'), tag: '2.16.4' },
    { files: files('3.0.0'), tag: '3.0.0' },
  ]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url, RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000', RATE_LIMIT_KEY_PER_MINUTE: '10000' });
  admin = await adminKey(app);
  for (const docsRepoUrl of [`${git.url}/koajs/koa`, `${git.url}/koajs/koa/tree/2.15.0`, `${git.url}/koajs/koa/tree/2.16.4`]) {
    const res = await app.request.post('/v2/add/repo/github').set(bearer(admin)).send({ docsRepoUrl });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  owner = await makeUser(app, { plan: 'pro', teamRole: 'owner' });
  stranger = await makeUser(app, { plan: 'pro', teamRole: 'owner' });
  const res = await upload(owner.key, lock('koa-app'), { name: 'orders-api' });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  projectId = res.body.id;
  server = await listenApp(app);
  url = server.url;
});

test.after.always(async () => {
  await server?.close();
  await app?.close();
  await git?.close();
});

test('a project made from a package-lock.json maps koa, pins 2.16.4, and reports @koa/router with how to add it', async (t) => {
  const res = await app.request.get(`/v2/projects/${projectId}`).set(bearer(owner.key));
  t.is(res.status, 200);
  t.like(res.body, { id: projectId, name: 'orders-api', teamId: owner.teamId, createdBy: owner.userId });
  t.deepEqual(res.body.pins, [{ libraryId: '/koajs/koa', version: '2.16.4', package: 'koa', ecosystem: 'npm', lockfile: 'package-lock.json' }]);
  t.like(res.body.mapping, { direct: 2, directMapped: 1, rate: 0.5 });
  t.is(res.body.lockfiles[0].kind, 'package-lock.json');
  t.regex(res.body.lockfiles[0].sha256, /^[0-9a-f]{64}$/);
  const router = res.body.unmatched.find((u: { name: string }) => u.name === '@koa/router');
  t.like(router, { ecosystem: 'npm', version: '13.1.0', direct: true, add: { method: 'POST', path: '/v2/add/repo/github' } });
  t.regex(router.add.then, /aliases \["npm:@koa\/router"\]/);
  const all = await app.request.get(`/v2/projects/${projectId}?packages=true`).set(bearer(owner.key));
  t.like(
    all.body.packages.find((p: { name: string }) => p.name === 'koa'),
    { version: '2.16.4', libraryId: '/koajs/koa', matchedBy: 'name', direct: true },
  );
});

test('context without a version serves the pinned 2.16.4 and says why (JSON, text, header)', async (t) => {
  const json = await context({ projectId, type: 'json' });
  t.is(json.status, 200, JSON.stringify(json.body));
  t.is(json.headers['x-shelfmark-version-served'], '2.16.4');
  t.regex(json.body.snippets[0].content, /release 2\.16\.4/, 'the answer comes from that version');
  t.like(json.body.provenance, { libraryId: '/koajs/koa', versionRequested: '2.16.4', resolution: 'pinned', latestIndexed: '3.0.0', newerRelease: '3.0.0' });
  t.is(json.body.provenance.versionServed.version, '2.16.4');
  t.is(json.body.provenance.reason, `pinned by project ${projectId} (package-lock.json: koa 2.16.4).`);
  const txt = await context({ projectId });
  t.is(txt.status, 200);
  t.regex(txt.text.split('\n')[0], new RegExp(`served 2\\.16\\.4 \\(pinned by project ${projectId} \\(package-lock\\.json: koa 2\\.16\\.4\\)\\)`));
  // Without the project: the default version, as before.
  const plain = await context({ type: 'json' });
  t.is(plain.body.provenance.resolution, 'default');
  t.regex(plain.body.snippets[0].content, /release 3\.0\.0/);
  // A version the caller names wins over the pin.
  const named = await context({ projectId, version: '2.15.0', type: 'json' });
  t.like(named.body.provenance, { resolution: 'exact', versionRequested: '2.15.0' });
  const inId = await context({ projectId, libraryId: '/koajs/koa/3.0.0', type: 'json' });
  t.is(inId.body.provenance.versionServed.version, '3.0.0');
  const latest = await context({ projectId, version: 'latest', type: 'json' });
  t.is(latest.body.provenance.resolution, 'default');
});

test('search across libraries answers a pinned library at its pin', async (t) => {
  const res = await app.request
    .get('/v2/search')
    .set(bearer(owner.key))
    .query({ query: 'how to write a middleware', libraries: '/koajs/koa', projectId, type: 'json' });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.like(res.body.libraries[0].provenance, { resolution: 'pinned', versionRequested: '2.16.4' });
  t.true(res.body.snippets.every((s: { version: string }) => s.version === '2.16.4'));
  const named = await app.request
    .get('/v2/search')
    .set(bearer(owner.key))
    .query({ query: 'how to write a middleware', libraries: '/koajs/koa/3.0.0', projectId, type: 'json' });
  t.is(named.body.libraries[0].provenance.versionServed.version, '3.0.0', 'a version in the id wins');
});

test('library search with the project shows the pinned version', async (t) => {
  const res = await app.request.get('/v2/libs/search').set(bearer(owner.key)).query({ libraryName: 'koa', projectId });
  t.is(res.status, 200);
  t.like(res.body.results[0], { id: '/koajs/koa', pinnedVersion: '2.16.4' });
  const without = await app.request.get('/v2/libs/search').set(bearer(owner.key)).query({ libraryName: 'koa' });
  t.is(without.body.results[0].pinnedVersion, undefined);
});

test('a new lockfile refreshes the pins; a pin that is not indexed is refused unless closest is asked', async (t) => {
  const made = await upload(owner.key, lock('koa-app'), { name: 'billing' });
  t.is(made.status, 201);
  const id = made.body.id;
  const moved = await app.request.put(`/v2/projects/${id}/lockfile`).set(bearer(owner.key)).attach('lockfile', lock('koa-app-2.15.0'), 'package-lock.json');
  t.is(moved.status, 200, JSON.stringify(moved.body));
  t.is(moved.body.lockfiles.length, 1, 'the file of the same name is replaced');
  t.is(moved.body.pins[0].version, '2.15.0');
  const served = await context({ projectId: id, type: 'json' });
  t.is(served.body.provenance.versionServed.version, '2.15.0');
  t.regex(served.body.snippets[0].content, /release 2\.15\.0/);

  await app.request.put(`/v2/projects/${id}/lockfile`).set(bearer(owner.key)).attach('lockfile', lock('koa-app-2.15.3'), 'package-lock.json');
  const refused = await context({ projectId: id });
  t.is(refused.status, 404);
  t.is(refused.body.error, 'tag_not_found');
  t.regex(refused.body.message, new RegExp(`Project ${id} pins koa 2\\.15\\.3 \\(package-lock\\.json\\); ask version=closest`));
  t.deepEqual(refused.body.availableVersions, ['3.0.0', '2.16.4', '2.15.0']);
  const closest = await context({ projectId: id, version: 'closest', type: 'json' });
  t.is(closest.status, 200);
  t.like(closest.body.provenance, { resolution: 'closest' });
  t.is(closest.body.provenance.versionServed.version, '2.15.0');
  t.regex(
    closest.body.provenance.reason,
    new RegExp(`^pinned by project ${id} \\(package-lock\\.json: koa 2\\.15\\.3\\); 2\\.15\\.3 is not indexed; 2\\.15\\.0 is the closest`),
  );
});

test('remap: a library added with the registry-name alias maps the package it names', async (t) => {
  const made = await upload(owner.key, lock('koa-app'), { name: 'remapped' });
  const id = made.body.id;
  await seedLibrary(app, '/koajs/router', {
    'docs/routes.md':
      "# Router\n\nRouting middleware for Koa.\n\n## Defining routes\n\nDefine a route for GET requests on a path with `router.get()`:\n\n```js\nconst router = new Router();\nrouter.get('/users/:id', (ctx) => { ctx.body = ctx.params.id; });\napp.use(router.routes());\n```\n",
  });
  const patched = await app.request
    .patch('/v2/libraries/koajs/router')
    .set(bearer(admin))
    .send({ aliases: ['npm:@koa/router'] });
  t.is(patched.status, 200, JSON.stringify(patched.body));
  const res = await app.request.post(`/v2/projects/${id}/remap`).set(bearer(owner.key));
  t.is(res.status, 200);
  t.like(res.body.mapping, { direct: 2, directMapped: 2, rate: 1 });
  t.deepEqual(
    res.body.pins.map((p: { libraryId: string; version: string }) => `${p.libraryId}@${p.version}`),
    ['/koajs/koa@2.16.4', '/koajs/router@13.1.0'],
  );
});

test("a project is its team's: others get 404 alike, anonymous callers too; only its creator or team owners delete it", async (t) => {
  for (const res of [
    await app.request.get(`/v2/projects/${projectId}`).set(bearer(stranger.key)),
    await context({ projectId }, stranger.key),
    await app.request.get('/v2/context').query({ libraryId: '/koajs/koa', query: 'middleware', projectId }),
    await app.request.get(`/v2/projects/prj_0000000000000000`).set(bearer(owner.key)),
  ]) {
    t.is(res.status, 404);
    t.is(res.body.error, 'not_found');
  }
  const list = await app.request.get('/v2/projects').set(bearer(stranger.key));
  t.false(list.body.projects.some((p: { id: string }) => p.id === projectId));
  const mine = await app.request.get('/v2/projects').set(bearer(owner.key));
  t.true(mine.body.projects.some((p: { id: string; mapping: { rate: number } }) => p.id === projectId && p.mapping.rate === 0.5));

  const member = await makeUser(app);
  await app.services.users.setTeamRole(member.userId, owner.teamId!, 'member');
  const theirs = await upload(owner.key, lock('koa-app'), { name: 'to delete' });
  t.is((await context({ projectId: theirs.body.id, type: 'json' }, member.key)).body.provenance.resolution, 'pinned', 'a member of the team uses it');
  const refused = await app.request.delete(`/v2/projects/${theirs.body.id}`).set(bearer(member.key));
  t.is(refused.status, 403);
  const deleted = await app.request.delete(`/v2/projects/${theirs.body.id}`).set(bearer(owner.key));
  t.is(deleted.status, 200);
  t.like(deleted.body, { id: theirs.body.id, deleted: true });
  t.is((await app.request.get(`/v2/projects/${theirs.body.id}`).set(bearer(owner.key))).status, 404);
});

test('bad uploads are 400s naming the field, and leave no project behind', async (t) => {
  const name = 'bad-upload';
  const cases = [
    { res: await app.request.post('/v2/projects').set(bearer(owner.key)).field('name', name), field: 'lockfile' },
    { res: await upload(owner.key, Buffer.from('{"lockfileVersion": 3, "packages": '), { name }, 'package-lock.json'), field: 'lockfile' },
    { res: await upload(owner.key, Buffer.from('hello'), { name }, 'notes.md'), field: 'lockfile' },
    { res: await upload(owner.key, Buffer.from([0xff, 0xfe, 0x00, 0x41]), { name }, 'go.mod'), field: 'lockfile' },
    { res: await upload(owner.key, lock('koa-app'), { name: 'n'.repeat(201) }), field: 'name' },
    { res: await upload(owner.key, lock('koa-app'), { name, filename: '../package-lock.json' }), field: 'filename' },
    { res: await upload(owner.key, lock('koa-app'), { name, teamId: stranger.teamId! }), field: undefined },
  ];
  for (const { res, field } of cases) {
    t.true(res.status === 400 || res.status === 404, `${res.status} ${JSON.stringify(res.body)}`);
    if (field) t.is(res.body.field, field, JSON.stringify(res.body));
  }
  t.is(cases[6]?.res.body.error, 'team_not_found');
  const listed = (await app.request.get('/v2/projects').set(bearer(owner.key))).body.projects;
  t.false(
    listed.some((p: { name: string }) => p.name === name || p.name.startsWith('nnnn')),
    'nothing half-written',
  );
  const tooBig = await upload(owner.key, Buffer.alloc(10 * 1024 * 1024 + 1, 0x20), {}, 'go.mod');
  t.is(tooBig.status, 413);
});

test('an API key bound to the project answers at its pins; MCP takes the project as an argument or a header', async (t) => {
  const session = await sessionHeaders(app, owner.username, owner.password);
  const made = await app.request.post('/v2/admin/keys').set(session).send({ name: 'orders-api assistant', projectId });
  t.is(made.status, 201, JSON.stringify(made.body));
  t.is(made.body.projectId, projectId);
  const bound = await context({ type: 'json' }, made.body.value);
  t.like(bound.body.provenance, { resolution: 'pinned', versionRequested: '2.16.4' });
  // A key whose project is deleted says so instead of answering as if it had none.
  const doomed = await upload(owner.key, lock('koa-app'), { name: 'doomed' });
  const doomedKey = await app.request.post('/v2/admin/keys').set(session).send({ name: 'doomed', projectId: doomed.body.id });
  await app.request.delete(`/v2/projects/${doomed.body.id}`).set(bearer(owner.key));
  const orphan = await context({}, doomedKey.body.value);
  t.is(orphan.status, 404);
  t.regex(orphan.body.message, /which this API key is bound to, no longer exists/);
  const notTheirs = await app.request
    .post('/v2/admin/keys')
    .set(await sessionHeaders(app, stranger.username, stranger.password))
    .send({ name: 'x', projectId });
  t.is(notTheirs.status, 404);

  const byArgument = await connectHttp(url, bearer(owner.key));
  const byHeader = await connectHttp(url, { ...bearer(owner.key), 'X-Shelfmark-Project': projectId });
  try {
    const a = textOf(await byArgument.callTool({ name: 'query-docs', arguments: { libraryId: '/koajs/koa', query: 'how to write a middleware', projectId } }));
    t.regex(a.split('\n')[0], /served 2\.16\.4 \(pinned by project/);
    const h = textOf(await byHeader.callTool({ name: 'query-docs', arguments: { libraryId: '/koajs/koa', query: 'how to write a middleware' } }));
    t.regex(h.split('\n')[0], /served 2\.16\.4 \(pinned by project/);
    const plain = textOf(await byArgument.callTool({ name: 'query-docs', arguments: { libraryId: '/koajs/koa', query: 'how to write a middleware' } }));
    t.regex(plain.split('\n')[0], /served 3\.0\.0/);
    const resolved = textOf(await byHeader.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'koa' } }));
    t.regex(resolved, /- Pinned by your project: 2\.16\.4/);
    t.notRegex(textOf(await byArgument.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'koa' } })), /Pinned by your project/);
  } finally {
    await Promise.all([byArgument.close(), byHeader.close()]);
  }
  // The stdio bridge: --project (here $SHELFMARK_PROJECT) on its HTTP calls.
  const stdio = await connectStdio(url, { apiKey: owner.key, env: { SHELFMARK_PROJECT: projectId } });
  try {
    const s = textOf(await stdio.client.callTool({ name: 'query-docs', arguments: { libraryId: '/koajs/koa', query: 'how to write a middleware' } }));
    t.regex(s.split('\n')[0], /served 2\.16\.4 \(pinned by project/, stdio.stderr());
    t.regex(textOf(await stdio.client.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'koa' } })), /- Pinned by your project: 2\.16\.4/);
  } finally {
    await stdio.client.close();
  }
});
