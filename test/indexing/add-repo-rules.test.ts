import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey, memberKey } from '../helpers';
import { privateLibraryKey } from '../../src/store/libraries';

// Spec §4.1: rule 1 (missing docsRepoUrl), rule 5 (duplicate private repo), rule 6 (timeout),
// plus validation and private visibility. Rules 2-4 are in test/auth (private-repos, policies).
let git: GitServer;
let app: TestApp;
let admin: string;

const DOC = '# Secret lib\n\nInternal docs for the secret library.\n\n## Usage\n\nCall it like this:\n\n```js\nsecret.run({ fast: true });\n```\n';

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/secret', [{ files: { 'README.md': DOC } }]);
  createRepo(git.root, 'acme/public', [{ files: { 'README.md': DOC.replace(/secret/gi, 'public') } }]);
  git.protect('acme/secret.git', 'tok-123456');
  app = await createTestApp({ GITHUB_BASE_URL: git.url, GITLAB_BASE_URL: 'https://gitlab.example.com' });
  admin = await adminKey(app);
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const add = (key: string, body: unknown, host = 'github') =>
  app.request
    .post(`/v2/add/repo/${host}`)
    .set('authorization', `Bearer ${key}`)
    .send(body as object);

test.serial('rule 1: a missing docsRepoUrl is 400 naming the field', async (t) => {
  const res = await add(admin, { private: false });
  t.is(res.status, 400);
  t.is(res.body.error, 'validation_error');
  t.regex(res.body.message, /docsRepoUrl/);
});

test.serial('bad bodies: wrong types, URLs outside the host base, unknown hosts', async (t) => {
  for (const [body, host, pattern] of [
    [{ docsRepoUrl: 42 }, 'github', /docsRepoUrl/],
    [{ docsRepoUrl: `${git.url}/acme/public`, private: 'yes' }, 'github', /private/],
    [{ docsRepoUrl: 'https://evil.example.com/acme/public' }, 'github', /docsRepoUrl/],
    [{ docsRepoUrl: `${git.url}/acme/public` }, 'gitlab', /gitlab/],
    [{ docsRepoUrl: `${git.url}/acme/public` }, 'sourceforge', /host/],
    [{ docsRepoUrl: `${git.url}/acme/public` }, 'git', /allowed/],
  ] as const) {
    const res = await add(admin, body, host);
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error, 'validation_error');
    t.regex(res.body.message, pattern);
  }
});

test.serial('a bad token is a 400 that never echoes the token', async (t) => {
  const res = await add(admin, { docsRepoUrl: `${git.url}/acme/secret`, private: true, gitToken: 'wrong-token-999' });
  t.is(res.status, 400);
  t.false(JSON.stringify(res.body).includes('wrong-token-999'));
  t.is(await app.services.libraries.get('/acme/secret', { fresh: true }), null, 'nothing half-written');
});

test.serial('private repositories: indexed with gitToken, invisible to other teams, rule 5 duplicate is 409', async (t) => {
  const owner = await memberKey(app, { teamPlan: 'pro' });
  const res = await add(owner.key, { docsRepoUrl: `${git.url}/acme/secret`, private: true, gitToken: 'tok-123456' });
  t.is(res.status, 200, JSON.stringify(res.body));
  const job = (await app.services.jobs.list({ libraryId: privateLibraryKey('/acme/secret', owner.teamId ?? ''), limit: 1 }))[0];
  t.truthy(job, "the job of the team's copy");
  t.false(JSON.stringify(job).includes('tok-123456'), 'the token is stored encrypted');

  const mine = await app.request.get('/v2/context').query({ libraryId: '/acme/secret', query: 'run it' }).set('authorization', `Bearer ${owner.key}`);
  t.is(mine.status, 200);
  const other = await memberKey(app, { teamPlan: 'pro' });
  for (const key of [other.key, undefined]) {
    const req = app.request.get('/v2/context').query({ libraryId: '/acme/secret', query: 'run it' });
    const res2 = key ? await req.set('authorization', `Bearer ${key}`) : await req;
    t.is(res2.status, 404);
    t.is(res2.body.error, 'library_not_found');
  }
  const search = await app.request.get('/v2/libs/search').query({ libraryName: 'secret' });
  t.true(search.status === 404 || !search.body.results.some((r: { id: string }) => r.id === '/acme/secret'));

  const dup = await add(owner.key, { docsRepoUrl: `${git.url}/acme/secret`, private: true, gitToken: 'tok-123456' });
  t.is(dup.status, 409);
  t.is(dup.body.error, 'duplicate_repo');
});

test.serial('the stored hosting token is used when gitToken is omitted', async (t) => {
  // Another team's copy of /acme/secret (the test above) neither blocks this team's add nor shows.
  const owner = await memberKey(app, { teamPlan: 'enterprise' });
  await app.services.credentials.set(owner.userId, 'github', 'tok-123456');
  const res = await add(owner.key, { docsRepoUrl: `${git.url}/acme/secret`, private: true });
  t.is(res.status, 200, JSON.stringify(res.body));
});

test.serial('rule 6: processing still running after the wait is 504 timeout, and the job carries on', async (t) => {
  const slow = await createTestApp({ GITHUB_BASE_URL: git.url, ADD_WAIT_SECONDS: '0' });
  try {
    const key = await adminKey(slow);
    const res = await slow.request
      .post('/v2/add/repo/github')
      .set('authorization', `Bearer ${key}`)
      .send({ docsRepoUrl: `${git.url}/acme/public` });
    t.is(res.status, 504);
    t.is(res.body.error, 'timeout');
    t.regex(res.body.message, /GET \/v2\/jobs\/job_/);
    const id = /jobs\/(job_[\w-]+)/.exec(res.body.message)?.[1] ?? '';
    const done = await slow.services.jobs.waitFor(id, 60_000);
    t.is(done?.state, 'finalized');
  } finally {
    await slow.close();
  }
});
