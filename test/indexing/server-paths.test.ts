import test from 'ava';
import fs from 'node:fs';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey, testLibrary } from '../helpers';

// Issue 22 item 7: a library cloned from this server's disk (the `git` host with a `file:`
// allow-list prefix) never shows the server's paths to a caller, admins included: not as
// repoUrl, not in snippets' Source lines or source URLs, not in job errors. Snippets indexed
// before this rule (their URL holds the path) are presented without it too.
let git: GitServer;
let app: TestApp;
let admin: string;

const GUIDE =
  '# Guide\n\n## Starting\n\nCall `start()` to begin, then `stop()` when done:\n\n```js\nconst s = start({ port: 1 });\ns.stop();\n```\n\n## Stopping\n\nStopping flushes the queue first and then closes every connection it opened.\n';

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'local/docs', [{ files: { 'docs/guide.md': GUIDE } }]);
  app = await createTestApp({ GIT_ALLOWED_URL_PREFIXES: `file://${git.root}/` });
  admin = await adminKey(app);
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const get = (path: string, query: Record<string, string> = {}) => app.request.get(path).query(query).set('authorization', `Bearer ${admin}`);

function assertNoServerPath(t: import('ava').ExecutionContext, text: string, what: string, path = git.root): void {
  t.false(text.includes(path), `${what} shows the server path: ${text.slice(0, 400)}`);
  t.false(/file:/i.test(text), `${what} shows a file: URL`);
}

test.serial('a library added from a file: URL shows no server path: repoUrl, Source lines, source URLs', async (t) => {
  const added = await app.request
    .post('/v2/add/repo/git')
    .set('authorization', `Bearer ${admin}`)
    .send({ docsRepoUrl: `file://${git.root}/local/docs.git` });
  t.is(added.status, 200, JSON.stringify(added.body));
  t.is(added.body.libraryName, '/git/docs');
  assertNoServerPath(t, JSON.stringify(added.body), 'the add answer');

  const txt = await get('/v2/context', { libraryId: '/git/docs', query: 'how do I start and stop' });
  t.is(txt.status, 200);
  assertNoServerPath(t, txt.text, 'the txt answer');
  t.regex(txt.text, /Source: docs\/guide\.md#L\d+/, 'the source is the file in the repository');

  const json = await get('/v2/context', { libraryId: '/git/docs', query: 'how do I start and stop', type: 'json' });
  t.is(json.status, 200);
  assertNoServerPath(t, JSON.stringify(json.body), 'the JSON answer');
  t.regex(json.body.snippets[0].source.url, /^docs\/guide\.md#L\d+$/);

  for (const path of ['/v2/libraries', '/v2/libraries/git/docs']) {
    const res = await get(path);
    t.is(res.status, 200);
    assertNoServerPath(t, JSON.stringify(res.body), path);
  }
  t.is((await get('/v2/libraries/git/docs')).body.repoUrl, '');
  const search = await get('/v2/libs/search', { libraryName: 'docs' });
  assertNoServerPath(t, JSON.stringify(search.body), 'the search answer');
});

test.serial('a failed refresh of such a library names no server path, in the answer or the job', async (t) => {
  fs.rmSync(`${git.root}/local/docs.git`, { recursive: true, force: true });
  const res = await app.request.post('/v2/refresh').set('authorization', `Bearer ${admin}`).send({ libraryName: '/git/docs' });
  t.is(res.status, 400, JSON.stringify(res.body));
  assertNoServerPath(t, JSON.stringify(res.body), 'the refresh answer');
  const jobs = await get('/v2/jobs', { libraryId: '/git/docs' });
  t.true(jobs.body.jobs.length >= 2, 'the add and the failed refresh');
  for (const job of jobs.body.jobs as Array<{ id: string }>) {
    const detail = await get(`/v2/jobs/${job.id}`);
    assertNoServerPath(t, JSON.stringify(detail.body), `job ${job.id}`);
  }
});

test.serial('snippets indexed with a file: URL before this rule are presented without the path', async (t) => {
  const { parseDocument } = await import('../../src/indexing/parsers');
  const { finishSnippets } = await import('../../src/indexing/snippets/finish');
  const { publishGeneration, newGeneration } = await import('../../src/indexing/pipeline/publish');
  const secret = '/srv/secret-place/mirror';
  const libraryId = '/git/legacy';
  const snippets = finishSnippets(parseDocument({ path: 'docs/guide.md', text: GUIDE }), {
    libraryId,
    version: 'latest',
    fileUrl: (p, line) => `file://${secret}/${p}#L${line}`,
    fileHashes: new Map(),
  });
  await app.services.libraries.ensure(
    testLibrary(libraryId, { source: 'git', title: 'legacy', repoUrl: `file://${secret}`, cloneUrl: `file://${secret}.git`, trustScore: 5 }),
  );
  await publishGeneration(app.services.publishDeps(), {
    libraryId,
    version: 'latest',
    ref: 'main',
    tags: [],
    commit: 'c0ffee',
    generation: newGeneration(),
    snippets,
    files: [{ p: 'docs/guide.md', h: 'h' }],
    meta: {},
  });
  const txt = await get('/v2/context', { libraryId, query: 'how do I start' });
  t.is(txt.status, 200);
  assertNoServerPath(t, txt.text, 'the txt answer', secret);
  t.regex(txt.text, /Source: docs\/guide\.md#L\d+/);
  const json = await get('/v2/context', { libraryId, query: 'how do I start', type: 'json' });
  assertNoServerPath(t, JSON.stringify(json.body), 'the JSON answer', secret);
  const lib = await get(`/v2/libraries${libraryId}`);
  assertNoServerPath(t, JSON.stringify(lib.body), 'the library', secret);
});
