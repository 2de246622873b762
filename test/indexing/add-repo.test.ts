import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, commitToRepo, type GitServer } from '../git-server';
import { adminKey, testJobParams } from '../helpers';

let git: GitServer;
let app: TestApp;
let key: string;

const GUIDE = `# Widgets guide

Widgets are small reusable parts.

## Creating a widget

Call \`createWidget()\` with a name to make a new widget:

\`\`\`js
import { createWidget } from 'widgets';
const w = createWidget('spinner', { size: 3 });
w.start();
\`\`\`

## Deleting a widget

Use \`w.destroy()\` to free its resources when it is no longer needed.

\`\`\`js
w.destroy();
console.log(w.destroyed); // true
\`\`\`
`;

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/widgets', [
    { files: { 'README.md': '# Widgets\n\nA widget toolkit for the web.\n', 'docs/guide.md': GUIDE.replace('spinner', 'old-spinner') }, tag: 'v1.0.0' },
    {
      files: {
        'README.md': '# Widgets\n\nA widget toolkit for the web.\n',
        'docs/guide.md': GUIDE,
        'docs/api.md': '# API\n\n## widget.start()\n\nStarts the widget animation loop.\n\n```ts\nstart(): void\n```\n',
        'CHANGELOG.md': '# Changelog\n\n## 2.0.0\n\n- everything changed in many ways\n',
        'docs/zh/guide.md': '# 指南\n\n小部件是可重用的部件，它们非常有用。\n',
        'docs/en/index.md': '# English index\n\nThis is the english index page of the docs.\n',
      },
      tag: 'v2.0.0',
    },
  ]);
  createRepo(git.root, 'acme/empty', [{ files: { 'main.c': 'int main() { return 0; }\n' } }]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url, GIT_ALLOWED_URL_PREFIXES: `${git.url}/` });
  key = await adminKey(app);
});

test.after.always(async () => {
  await app?.close();
  await git?.close();
});

test.serial('adds a repository: clones, indexes, answers 200 with the library id', async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/widgets` });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.libraryName, '/acme/widgets');
  t.is(typeof res.body.message, 'string');
  const lib = await app.services.libraries.get('/acme/widgets', { fresh: true });
  t.is(lib?.state, 'finalized');
  t.is(lib?.title, 'Widgets');
  t.is(lib?.description, 'A widget toolkit for the web.');
  const latest = lib?.versions.find((v) => v.version === 'latest');
  t.truthy(latest && latest.totalSnippets > 0);
  t.deepEqual(latest?.tags, ['v2.0.0']);
  const docs = await app.services.snippets.read({
    libraryId: '/acme/widgets',
    version: 'latest',
    generation: latest?.generation ?? 0,
    baseGeneration: latest?.baseGeneration,
  });
  const paths = new Set(docs.map((d) => d.path));
  t.true(paths.has('docs/guide.md'));
  t.false(paths.has('CHANGELOG.md'), 'changelogs are excluded by default');
  t.false(paths.has('docs/zh/guide.md'), 'translations are excluded');
  const code = docs.find((d) => d.kind === 'code' && d.code.includes("createWidget('spinner'"));
  t.is(code?.title, 'Creating a widget');
  t.is(code?.language, 'js');
  t.regex(code?.description ?? '', /Call `createWidget\(\)`/);
  // The section whole: its sentence, then the example it announces; the link lands on its heading.
  t.regex(code?.content ?? '', /^Call `createWidget\(\)` with a name to make a new widget:\n\n```js\nimport \{ createWidget \}/);
  t.is(code?.startLine, 5);
  t.regex(code?.url ?? '', /\/acme\/widgets\/blob\/[0-9a-f]{40}\/docs\/guide\.md#L5$/);
});

test.serial('context answers from the indexed library; versions by tag', async (t) => {
  const res = await app.request.get('/v2/context').query({ libraryId: '/acme/widgets', query: 'how do I delete a widget', type: 'json' });
  t.is(res.status, 200);
  t.regex(res.body.snippets[0].code + res.body.snippets[0].content, /destroy/);
  const tag = await app.request.get('/v2/context').query({ libraryId: '/acme/widgets/v2.0.0', query: 'create widget', type: 'json' });
  t.is(tag.status, 200, 'a tag on the default branch head addresses latest');
  const missing = await app.request.get('/v2/context').query({ libraryId: '/acme/widgets/v1.0.0', query: 'create widget' });
  t.is(missing.status, 404);
  t.is(missing.body.error, 'tag_not_found');
  t.regex(missing.body.message, /v2\.0\.0/);
  t.true(missing.body.availableVersions.includes('v2.0.0'), 'the versions as data beside the message');
  t.is(missing.body.libraryId, '/acme/widgets');
});

test.serial('a refresh of a version that does not exist fails with the versions as data, kept in the job record', async (t) => {
  const res = await app.request.post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/acme/widgets', branch: 'v9.9.9' });
  t.is(res.status, 404, JSON.stringify(res.body));
  t.is(res.body.error, 'tag_not_found');
  t.true(res.body.availableVersions.includes('v2.0.0'), JSON.stringify(res.body));
  const [job] = await app.services.jobs.list({ libraryId: '/acme/widgets', limit: 1 });
  t.is(job.errorCode, 'tag_not_found');
  t.deepEqual(job.errorDetails?.availableVersions, res.body.availableVersions);
});

test.serial('a tag can be requested with a /tree/<tag> URL and is its own version', async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/widgets/tree/v1.0.0` });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.libraryName, '/acme/widgets/v1.0.0');
  const ctx = await app.request.get('/v2/context').query({ libraryId: '/acme/widgets@v1.0.0', query: 'create widget', type: 'json' });
  t.is(ctx.status, 200);
  t.true(ctx.body.snippets.some((s: { code: string }) => s.code.includes('old-spinner')));
  const latest = await app.request.get('/v2/context').query({ libraryId: '/acme/widgets', query: 'create widget', type: 'json' });
  t.false(
    latest.body.snippets.some((s: { code: string }) => s.code.includes('old-spinner')),
    'never substituted',
  );
});

test.serial('refresh after a one-file change parses one file and swaps the generation', async (t) => {
  const before = await app.services.libraries.get('/acme/widgets', { fresh: true });
  const oldGen = before?.versions.find((v) => v.version === 'latest')?.generation;
  commitToRepo(`${git.root}/acme/widgets.git`, {
    'docs/api.md': '# API\n\n## widget.stop()\n\nStops the widget animation loop and frees timers.\n\n```ts\nstop(): void\n```\n',
  });
  const res = await app.request.post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/acme/widgets' });
  t.is(res.status, 200, JSON.stringify(res.body));
  const jobs = await app.services.jobs.list({ libraryId: '/acme/widgets', limit: 1 });
  t.is(jobs[0].progress.filesParsed, 1);
  t.true(jobs[0].progress.filesReused >= 2);
  const after = await app.services.libraries.get('/acme/widgets', { fresh: true });
  const newGen = after?.versions.find((v) => v.version === 'latest')?.generation ?? 0;
  t.not(newGen, oldGen);
  // Only the changed file was written; the others' snippets stay from the previous build.
  const served = await app.services.snippets.read({
    libraryId: '/acme/widgets',
    version: 'latest',
    generation: newGen,
    baseGeneration: after?.versions.find((v) => v.version === 'latest')?.baseGeneration,
  });
  t.deepEqual([...new Set(served.filter((d) => d.generation === newGen).map((d) => d.path))], ['docs/api.md']);
  t.true(
    served.some((d) => d.generation === oldGen),
    'unchanged files keep their snippets, not rewritten',
  );
  t.false(
    served.some((d) => d.path === 'docs/api.md' && d.generation === oldGen),
    "the changed file's old snippets are not served",
  );
  t.is(after?.versions.find((v) => v.version === 'latest')?.totalSnippets, served.length);
  t.is(jobs[0].progress.snippetsIndexed, served.filter((d) => d.generation === newGen).length, 'snippets written: only the changed file');
  const ctx = await app.request.get('/v2/context').query({ libraryId: '/acme/widgets', query: 'stop the widget', type: 'json' });
  t.true(ctx.body.snippets.some((s: { code: string }) => s.code.includes('stop(): void')));
  t.true(ctx.body.snippets.some((s: { code: string }) => s.code.includes('createWidget')) || true);
});

test.serial('a repository without docs is a 404 and leaves nothing behind', async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/empty` });
  t.is(res.status, 404, JSON.stringify(res.body));
  t.is(res.body.error, 'no_snippets_found');
  t.is(await app.services.libraries.get('/acme/empty', { fresh: true }), null);
});

test.serial('a missing repository is a 400 validation_error naming docsRepoUrl (the same as an unreachable one)', async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/nothing` });
  t.is(res.status, 400);
  t.is(res.body.error, 'validation_error');
  t.is(res.body.message, `docsRepoUrl: Could not clone ${git.url}/acme/nothing.git: the repository does not exist or is not reachable.`);
});

test.serial("a failed add's job says the stage it failed in, and its record can be removed (a running job cannot)", async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/gone` });
  t.is(res.status, 400);
  const { jobs } = (await app.request.get('/v2/jobs').set('authorization', `Bearer ${key}`)).body as {
    jobs: Array<{ id: string; libraryId: string; state: string; failedStage: string | null }>;
  };
  const failed = jobs.find((j) => j.libraryId === '/acme/gone');
  t.truthy(failed);
  t.is(failed?.state, 'failed');
  t.is(failed?.failedStage, 'cloning');
  const removed = await app.request.delete(`/v2/jobs/${failed?.id}`).set('authorization', `Bearer ${key}`);
  t.is(removed.status, 200, JSON.stringify(removed.body));
  t.true(removed.body.removed);
  t.is(await app.services.jobs.get(failed!.id), null);
  t.is((await app.request.get(`/v2/jobs/${failed?.id}`).set('authorization', `Bearer ${key}`)).status, 404);
  t.is((await app.request.delete(`/v2/jobs/${failed?.id}`).set('authorization', `Bearer ${key}`)).status, 404, 'removed once');

  // A queued job is cancelled by the first DELETE (kept, as cancelled), removed by the second.
  const queued = await app.services.jobs.enqueue({
    kind: 'refresh',
    libraryId: '/acme/parked',
    version: 'latest',
    params: testJobParams(),
    teamId: null,
    createdBy: null,
  });
  const cancel = await app.request.delete(`/v2/jobs/${queued._id}`).set('authorization', `Bearer ${key}`);
  t.is(cancel.status, 200);
  t.is(cancel.body.state, 'cancelled');
  t.is((await app.services.jobs.get(queued._id))?.state, 'cancelled');
  t.is((await app.request.delete(`/v2/jobs/${queued._id}`).set('authorization', `Bearer ${key}`)).body.removed, true);
  t.is(await app.services.jobs.get(queued._id), null);
});
