/**
 * Version rules against the real stores and a local Git server: a check of latest queues
 * the tags the rule selects (trigger new-tag) and retires the ones it no longer selects; a
 * pushed tag the rule matches becomes a version through the webhook; tag_not_found names
 * the indexed versions and the nearest one.
 */
import { execFileSync } from 'node:child_process';
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey } from '../helpers';
import { signBody } from '../../src/catalog/webhook-deliveries';

let git: GitServer;
let app: TestApp;
let key: string;
let bare: string;

const page = (v: string) => ({
  'README.md': `# Tools ${v}\n\nTools release ${v}.\n\n## Setup\n\nRun \`tools --version\` to see ${v}:\n\n\`\`\`sh\ntools --version # ${v}\n\`\`\`\n`,
});

test.before(async () => {
  git = await startGitServer();
  bare = createRepo(
    git.root,
    'acme/tools',
    ['v1.0.0', 'v1.0.1', 'v1.1.0', 'v2.0.0-beta.1', 'v2.0.0'].map((tag) => ({ files: page(tag), tag })),
  );
  app = await createTestApp({ GITHUB_BASE_URL: git.url, GIT_ALLOWED_URL_PREFIXES: `${git.url}/`, REFRESH_DEFAULT_HOURS: 'github=0' });
  key = await adminKey(app);
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/tools` });
  if (res.status !== 200) throw new Error(`add: ${res.status} ${JSON.stringify(res.body)}`);
});

test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const auth = () => ({ authorization: `Bearer ${key}` });

/** Waits for every open job, then returns the library's served version names. */
async function settled(): Promise<string[]> {
  const end = Date.now() + 90_000;
  while ((await app.services.jobs.countOpen()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  const lib = await app.services.libraries.get('/acme/tools', { fresh: true });
  return (lib?.versions ?? [])
    .filter((v) => v.version !== 'latest' && v.generation > 0)
    .map((v) => v.version)
    .sort();
}

test.serial('a rule is validated; a check of latest indexes the versions it selects', async (t) => {
  const bad = await app.request
    .patch('/v2/libraries/acme/tools')
    .set(auth())
    .send({ versionRule: { kind: 'range', range: 'soon' } });
  t.is(bad.status, 400);
  t.is(bad.body.error, 'validation_error');
  t.regex(bad.body.message, /versionRule/);
  const res = await app.request
    .patch('/v2/libraries/acme/tools')
    .set(auth())
    .send({ versionRule: { kind: 'minors', count: 2 } });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.deepEqual(res.body.versionRule, { kind: 'minors', count: 2 });
  t.deepEqual(await settled(), [], 'a rule alone builds nothing until a check');
  const refresh = await app.request.post('/v2/refresh').set(auth()).send({ libraryName: '/acme/tools' });
  t.is(refresh.status, 200, JSON.stringify(refresh.body));
  t.deepEqual(await settled(), ['v1.1.0', 'v2.0.0'], 'the latest patch of the last two minor lines');
  const jobs = await app.services.jobs.list({ libraryId: '/acme/tools', limit: 50 });
  t.deepEqual(
    jobs
      .filter((j) => j.trigger === 'new-tag')
      .map((j) => j.version)
      .sort(),
    ['v1.1.0', 'v2.0.0'],
  );
  const ctx = await app.request.get('/v2/context?libraryId=/acme/tools/v1.1.0&query=version&type=json').set(auth());
  t.is(ctx.status, 200);
});

/** Every stored document of one version of the library, whatever its generation or mark. */
async function storedDocuments(version: string): Promise<number> {
  const res = await app.services.snippets.search({
    query: { bool: { filter: [{ term: { libraryId: '/acme/tools' } }, { term: { version } }] } },
    size: 0,
    track_total_hits: true,
  });
  const total = res.hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

test.serial('a narrower rule retires the versions it no longer selects', async (t) => {
  const before = await app.services.libraries.get('/acme/tools', { fresh: true });
  const v2 = before?.versions.find((v) => v.version === 'v2.0.0');
  if (!v2) return t.fail('v2.0.0 is not indexed');
  const served = await app.services.snippets.read({
    libraryId: '/acme/tools',
    version: 'v2.0.0',
    generation: v2.generation,
    baseGeneration: v2.baseGeneration,
  });
  t.true(served.length > 0, 'v2.0.0 serves snippets before the rule retires it');
  t.true((await storedDocuments('v1.1.0')) > 0);
  await app.request
    .patch('/v2/libraries/acme/tools')
    .set(auth())
    .send({ versionRule: { kind: 'range', range: '>=1.0.0 <1.1.0' } });
  await app.request.post('/v2/refresh').set(auth()).send({ libraryName: '/acme/tools' });
  t.deepEqual(await settled(), ['v1.0.0', 'v1.0.1']);
  const gone = await app.services.snippets.read({ libraryId: '/acme/tools', version: 'v2.0.0', generation: v2.generation, baseGeneration: v2.baseGeneration });
  t.is(gone.length, 0, 'the retired version serves nothing at the generation it served');
  t.is(await storedDocuments('v2.0.0'), 0, 'no document of v2.0.0 is left, whatever its generation');
  t.is(await storedDocuments('v1.1.0'), 0, 'nor of v1.1.0');
  t.true((await storedDocuments('v1.0.1')) > 0, 'the versions the rule selects keep theirs');
});

test.serial('tag_not_found lists what is indexed and the nearest match', async (t) => {
  const res = await app.request.get('/v2/context?libraryId=/acme/tools/v1.0.2&query=version').set(auth());
  t.is(res.status, 404);
  t.is(res.body.error, 'tag_not_found');
  // v2.0.0 is the tag of latest's commit, so it still addresses latest.
  t.regex(res.body.message, /Available versions: v2\.0\.0, v1\.0\.1, v1\.0\.0\. Nearest: v1\.0\.1\./);
});

test.serial('a pushed tag the rule selects becomes a version through the webhook', async (t) => {
  const hook = await app.request.post('/v2/libraries/acme/tools/webhook').set(auth()).send({});
  t.is(hook.status, 201);
  execFileSync('git', ['-C', bare, 'tag', 'v1.0.2', 'v1.0.1'], { stdio: 'pipe' });
  const body = JSON.stringify({ ref: 'refs/tags/v1.0.2', after: 'c'.repeat(40) });
  const res = await app.request
    .post(hook.body.path)
    .set('content-type', 'application/json')
    .set('x-hub-signature-256', signBody(hook.body.secret, body))
    .set('x-github-delivery', 'tag-1')
    .send(body);
  t.is(res.status, 202, JSON.stringify(res.body));
  const job = await app.services.jobs.waitFor(res.body.jobId, 60_000);
  t.is(job?.version, 'v1.0.2');
  t.is(job?.trigger, 'new-tag');
  t.is(job?.state, 'finalized');
  t.deepEqual(await settled(), ['v1.0.0', 'v1.0.1', 'v1.0.2']);
  // A tag outside the rule queues nothing.
  execFileSync('git', ['-C', bare, 'tag', 'v3.0.0', 'v1.0.1'], { stdio: 'pipe' });
  const other = JSON.stringify({ ref: 'refs/tags/v3.0.0', after: 'd'.repeat(40) });
  const ignored = await app.request
    .post(hook.body.path)
    .set('content-type', 'application/json')
    .set('x-hub-signature-256', signBody(hook.body.secret, other))
    .set('x-github-delivery', 'tag-2')
    .send(other);
  t.is(ignored.status, 200);
  t.regex(ignored.body.message, /version rule does not select it/);
});
