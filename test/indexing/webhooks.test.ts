/**
 * Push webhooks against the real stores and a local Git server: the test plays the Git
 * host (it pushes a commit, then posts the delivery signed the host's way). A signed push
 * refreshes the library; a bad signature, an unknown library, another host's route and a
 * replay (the same body under any delivery id) are refused or ignored; the secret is shown
 * once and never again; Context7's POST /v1/refresh still works.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, commitToRepo, type GitServer } from '../git-server';
import { adminKey, servedSnippets, testLibrary } from '../helpers';
import { signBody } from '../../src/catalog/webhook-deliveries';

let git: GitServer;
let app: TestApp;
let key: string;
let hook: { path: string; secret: string };

const doc = (name: string) =>
  `# ${name}\n\n${name} guide for gadgets.\n\n## Use it\n\nCall \`${name}()\` to start:\n\n\`\`\`js\n${name}({ size: 3 });\n\`\`\`\n`;

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/gadgets', [{ files: { 'README.md': doc('gadgets') } }]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url, GIT_ALLOWED_URL_PREFIXES: `${git.url}/`, REFRESH_DEFAULT_HOURS: 'github=0' });
  key = await adminKey(app);
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/gadgets` });
  if (res.status !== 200) throw new Error(`add: ${res.status} ${JSON.stringify(res.body)}`);
});

test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const auth = () => ({ authorization: `Bearer ${key}` });
const deliver = (path: string, body: object, headers: Record<string, string>) =>
  app.request.post(path).set('content-type', 'application/json').set(headers).send(JSON.stringify(body));
const webhookJobs = async () => (await app.services.jobs.list({ libraryId: '/acme/gadgets', limit: 100 })).filter((j) => j.trigger === 'webhook');

test.serial('creating a hook shows its secret once; it is stored encrypted and never presented again', async (t) => {
  const res = await app.request.post('/v2/libraries/acme/gadgets/webhook').set(auth()).send({});
  t.is(res.status, 201, JSON.stringify(res.body));
  t.is(res.body.host, 'github', 'the library source is the default scheme');
  t.regex(res.body.secret, /^whs_[A-Za-z0-9_-]{40,}$/);
  t.is(res.body.path, '/v2/webhooks/github?library=%2Facme%2Fgadgets');
  hook = { path: res.body.path, secret: res.body.secret };
  const stored = await app.handles.models.Library.findById('/acme/gadgets').lean();
  t.truthy(stored?.webhook?.encryptedSecret);
  t.false(JSON.stringify(stored).includes(hook.secret), 'the stored record holds no plain secret');
  const read = await app.request.get('/v2/libraries/acme/gadgets').set(auth());
  t.deepEqual(Object.keys(read.body.webhook).sort(), ['configured', 'createdAt']);
  t.true(read.body.webhook.configured);
  t.false(JSON.stringify(read.body).includes(hook.secret));
  const list = await app.request.get('/v2/libraries').set(auth());
  t.false(JSON.stringify(list.body).includes(hook.secret));
  const bad = await app.request.post('/v2/libraries/acme/gadgets/webhook').set(auth()).send({ host: 'svn' });
  t.is(bad.status, 400);
  t.is(bad.body.error, 'validation_error');
  const missing = await app.request.post('/v2/libraries/acme/none/webhook').set(auth()).send({});
  t.is(missing.status, 404);
});

test.serial('websites, llms.txt files, archives and OpenAPI uploads have no pushes: a hook is refused with 400 validation_error', async (t) => {
  const kinds = [
    { id: '/websites/docs.example.test', source: 'website', says: /is a website/ },
    { id: '/llmstxt/docs.example.test', source: 'llmstxt', says: /is an llms\.txt/ },
    { id: '/archives/manual', source: 'archive', says: /uploaded as an archive/ },
    { id: '/openapi/petstore', source: 'openapi', says: /uploaded as an OpenAPI document/ },
  ] as const;
  for (const kind of kinds) {
    await app.services.libraries.ensure(testLibrary(kind.id, { source: kind.source, title: kind.id, branch: '', trustScore: 5 }));
    const res = await app.request.post(`/v2/libraries${kind.id}/webhook`).set(auth()).send({});
    t.is(res.status, 400, `${kind.source}: ${JSON.stringify(res.body)}`);
    t.is(res.body.error, 'validation_error');
    t.regex(res.body.message, kind.says);
    t.regex(res.body.message, /Webhooks are for libraries added from a Git repository/);
    const stored = await app.handles.models.Library.findById(kind.id).lean();
    t.falsy(stored?.webhook?.encryptedSecret, `${kind.source}: no hook is stored`);
  }
});

test.serial('a push to the tracked branch, signed the GitHub way, refreshes the library', async (t) => {
  commitToRepo(`${git.root}/acme/gadgets.git`, { 'docs/pushed.md': doc('pushed') });
  const body = { ref: 'refs/heads/main', after: 'a'.repeat(40) };
  const res = await deliver(hook.path, body, { 'x-hub-signature-256': signBody(hook.secret, JSON.stringify(body)), 'x-github-delivery': 'delivery-1' });
  t.is(res.status, 202, JSON.stringify(res.body));
  t.true(res.body.accepted);
  const done = await app.services.jobs.waitFor(res.body.jobId, 60_000);
  t.is(done?.state, 'finalized');
  t.is(done?.trigger, 'webhook');
  const docs = await servedSnippets(app, '/acme/gadgets');
  t.true(
    docs.some((d) => d.path === 'docs/pushed.md'),
    'the pushed file is served',
  );
  const job = await app.request.get(`/v2/jobs/${res.body.jobId}`).set(auth());
  t.is(job.body.trigger, 'webhook', 'the job says why it ran');
  t.like(job.body.progress, { filesAdded: 1, filesChanged: 0, filesRemoved: 0 }, 'and what changed');
  t.true(job.body.progress.snippets > 0);
  t.true(job.body.log.some((l: { message: string }) => /1 files added, 0 changed, 0 removed/.test(l.message)));
});

test.serial('a replayed delivery is ignored, whatever delivery id it carries (the id header is not signed)', async (t) => {
  const before = (await webhookJobs()).length;
  // The delivery of the previous test, captured and sent again under fresh delivery ids.
  const body = { ref: 'refs/heads/main', after: 'a'.repeat(40) };
  for (const id of ['delivery-1', 'delivery-forged-2', 'delivery-forged-3']) {
    const res = await deliver(hook.path, body, { 'x-hub-signature-256': signBody(hook.secret, JSON.stringify(body)), 'x-github-delivery': id });
    t.is(res.status, 200, id);
    t.false(res.body.accepted);
    t.regex(res.body.message, /replay/);
  }
  t.is((await webhookJobs()).length, before);
});

test.serial('a bad or missing signature and an unknown library get the same refusal', async (t) => {
  const body = { ref: 'refs/heads/main' };
  const raw = JSON.stringify(body);
  const answers = [
    await deliver(hook.path, body, { 'x-hub-signature-256': signBody('not-the-secret', raw), 'x-github-delivery': 'd-bad' }),
    await deliver(hook.path, body, { 'x-github-delivery': 'd-unsigned' }),
    await deliver(hook.path, { ...body, extra: 1 }, { 'x-hub-signature-256': signBody(hook.secret, raw), 'x-github-delivery': 'd-altered' }),
    await deliver('/v2/webhooks/github?library=%2Facme%2Fnope', body, { 'x-hub-signature-256': signBody(hook.secret, raw), 'x-github-delivery': 'd-unknown' }),
    await deliver('/v2/webhooks/github', body, { 'x-hub-signature-256': signBody(hook.secret, raw), 'x-github-delivery': 'd-nolib' }),
    await deliver(hook.path.replace('/github', '/gitlab'), body, { 'x-gitlab-token': 'wrong', 'x-gitlab-event-uuid': 'd-gl' }),
  ];
  for (const res of answers) {
    t.is(res.status, 401);
    t.deepEqual(res.body, { error: 'invalid_signature', message: 'The delivery could not be verified: check the hook URL and its secret.' });
  }
  t.is((await webhookJobs()).length, 1, 'nothing was queued');
  const notJson = await app.request.post(hook.path).set('content-type', 'text/plain').send('ref=main');
  t.is(notJson.status, 400);
  t.is(notJson.body.error, 'validation_error');
  const host = await deliver('/v2/webhooks/svn?library=%2Facme%2Fgadgets', body, {});
  t.is(host.status, 400);
});

test.serial("a hook's secret works on its own host's route only: a GitHub secret is not a GitLab token", async (t) => {
  const gl = { ref: 'refs/heads/main', after: 'c'.repeat(40) };
  const asToken = await deliver(hook.path.replace('/github', '/gitlab'), gl, { 'x-gitlab-token': hook.secret, 'x-gitlab-event-uuid': 'gl-0' });
  t.is(asToken.status, 401, JSON.stringify(asToken.body));
  const bb = { push: { changes: [{ new: { type: 'branch', name: 'main' } }] } };
  const otherScheme = await deliver(hook.path.replace('/github', '/bitbucket'), bb, {
    'x-hub-signature': signBody(hook.secret, JSON.stringify(bb)),
    'x-request-uuid': 'bb-0',
  });
  t.is(otherScheme.status, 401);
  t.is((await webhookJobs()).length, 1, 'nothing was queued');
});

test.serial('GitLab, Bitbucket and generic git schemes verify on hooks made for them; other branches and tags queue nothing', async (t) => {
  const hookFor = async (host: string) => {
    const res = await app.request.post('/v2/libraries/acme/gadgets/webhook').set(auth()).send({ host });
    t.is(res.status, 201);
    return res.body as { path: string; secret: string };
  };
  const gitlab = await hookFor('gitlab');
  const gl = { ref: 'refs/heads/feature' };
  let res = await deliver(gitlab.path, gl, { 'x-gitlab-token': gitlab.secret, 'x-gitlab-event-uuid': 'gl-1' });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.regex(res.body.message, /feature.*tracks main/);
  const bitbucket = await hookFor('bitbucket');
  const bb = { push: { changes: [{ new: { type: 'tag', name: 'v9.0.0' } }] } };
  res = await deliver(bitbucket.path, bb, { 'x-hub-signature': signBody(bitbucket.secret, JSON.stringify(bb)), 'x-request-uuid': 'bb-1' });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.regex(res.body.message, /tag v9\.0\.0/);
  const generic = await hookFor('git');
  const plain = { ref: 'refs/heads/main' };
  res = await deliver(generic.path, plain, { 'x-shelfmark-signature': signBody(generic.secret, JSON.stringify(plain)), 'x-shelfmark-delivery': 'git-1' });
  t.is(res.status, 202, JSON.stringify(res.body));
  t.is((await app.services.jobs.waitFor(res.body.jobId, 60_000))?.state, 'finalized');
  hook = await hookFor('github');
});

test.serial('pushes arriving while a refresh is queued are coalesced into it', async (t) => {
  await app.lifecycle.worker?.stop();
  try {
    const ids = new Set<string>();
    for (const n of [1, 2, 3]) {
      const body = { ref: 'refs/heads/main', after: String(n).repeat(40) };
      const res = await deliver(hook.path, body, { 'x-hub-signature-256': signBody(hook.secret, JSON.stringify(body)), 'x-github-delivery': `burst-${n}` });
      t.is(res.status, 202);
      ids.add(res.body.jobId);
    }
    t.is(ids.size, 1, 'one refresh for three pushes');
  } finally {
    app.lifecycle.worker?.start();
  }
});

test.serial('a new hook replaces the old secret; POST /v1/refresh keeps working', async (t) => {
  const res = await app.request.post('/v2/libraries/acme/gadgets/webhook').set(auth()).send({ host: 'git' });
  t.is(res.status, 201);
  const body = { ref: 'refs/heads/main' };
  const old = await deliver(hook.path, body, { 'x-hub-signature-256': signBody(hook.secret, JSON.stringify(body)), 'x-github-delivery': 'after-rotate' });
  t.is(old.status, 401, 'the old secret no longer verifies');
  const v1 = await app.request.post('/v1/refresh').set(auth()).send({ libraryName: '/acme/gadgets' });
  t.is(v1.status, 200, JSON.stringify(v1.body));
});

test.serial('a refresh with no change writes nothing and keeps the served generation', async (t) => {
  const before = (await app.services.libraries.get('/acme/gadgets', { fresh: true }))?.versions.find((v) => v.version === 'latest');
  const res = await app.request.post('/v2/refresh').set(auth()).send({ libraryName: '/acme/gadgets' });
  t.is(res.status, 200, JSON.stringify(res.body));
  const jobs = await app.services.jobs.list({ libraryId: '/acme/gadgets', limit: 1 });
  const job = await app.request.get(`/v2/jobs/${jobs[0]._id}`).set(auth());
  t.is(job.body.state, 'finalized');
  t.like(job.body.progress, { snippetsIndexed: 0, filesAdded: 0, filesChanged: 0, filesRemoved: 0 });
  t.true(job.body.log.some((l: { message: string }) => /nothing written/.test(l.message)));
  const after = (await app.services.libraries.get('/acme/gadgets', { fresh: true }))?.versions.find((v) => v.version === 'latest');
  t.is(after?.generation, before?.generation);
  const ctx = await app.request.get('/v2/context?libraryId=/acme/gadgets&query=pushed').set(auth());
  t.is(ctx.status, 200);
});
