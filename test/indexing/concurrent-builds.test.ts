/**
 * Two server instances building the same library version at the same moment (what the soak
 * found: a refresh sent to both, an upload sent to both). Each build used to delete the
 * other's generation when publishing, leaving a library listed but serving nothing. Builds of
 * one version now run one after the other (the version's build slot).
 */
import test from 'ava';
import { startGitServer, createRepo, commitToRepo, type GitServer } from '../git-server';
import { createTestApp, type TestApp } from '../harness';
import { adminKey } from '../helpers';

let git: GitServer;
let a: TestApp;
let b: TestApp;
let key: string;

const page = (marker: string, i: number) =>
  `# Page ${i}\n\n## Widgets\n\nHow to build a ${marker} widget, step ${i}.\n\n\`\`\`js\nwidget.build('${marker}', ${i});\n\`\`\`\n`;
const docs = (marker: string) => Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`docs/page-${i}.md`, page(marker, i)]));

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/racing', [{ files: { 'README.md': '# Racing\n\nDocs.\n', ...docs('alpha') } }]);
  const limits = { RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000', RATE_LIMIT_KEY_PER_MINUTE: '10000' };
  a = await createTestApp({ GITHUB_BASE_URL: git.url, ...limits });
  // The second instance shares the first one's stores, with a worker of its own.
  b = await createTestApp({
    GITHUB_BASE_URL: git.url,
    ...limits,
    MONGODB_DB: a.services.config.mongodbDb,
    SHELFMARK_INDEX_PREFIX: a.services.config.indexPrefix,
  });
  key = await adminKey(a);
});
test.after.always(async () => {
  await b?.lifecycle.close();
  await a?.close();
  await git?.close();
});

const auth = () => ({ authorization: `Bearer ${key}` });

async function snippetsServed(libraryId: string, query: string): Promise<number> {
  const res = await a.request.get('/v2/context').query({ libraryId, query, type: 'json' });
  return res.status === 200 ? (res.body.snippets as unknown[]).length : 0;
}

test.serial('a refresh sent to two instances at once: the builds run one after the other and the library keeps serving', async (t) => {
  t.is(
    (
      await a.request
        .post('/v2/add/repo/github')
        .set(auth())
        .send({ docsRepoUrl: `${git.url}/acme/racing` })
    ).status,
    200,
  );
  commitToRepo(`${git.root}/acme/racing.git`, docs('beta'));
  const [ra, rb] = await Promise.all([
    a.request.post('/v2/refresh').set(auth()).send({ libraryName: '/acme/racing' }),
    b.request.post('/v2/refresh').set(auth()).send({ libraryName: '/acme/racing' }),
  ]);
  t.deepEqual([ra.status, rb.status], [200, 200], JSON.stringify([ra.body, rb.body]));
  const jobs = (await a.services.jobs.list({ libraryId: '/acme/racing', limit: 10 })).filter((j) => j.kind === 'refresh');
  t.true(jobs.length >= 1 && jobs.every((j) => j.state === 'finalized'), JSON.stringify(jobs.map((j) => [j._id, j.state, j.error])));
  // Builds of one version never overlapped: each started after the previous one finished.
  const spans = jobs
    .map((j) => ({ start: j.log.find((l) => l.message === 'state: cloning')?.at, end: j.finishedAt }))
    .filter((s): s is { start: Date; end: Date } => Boolean(s.start && s.end))
    .sort((x, y) => new Date(x.start).getTime() - new Date(y.start).getTime());
  for (let i = 1; i < spans.length; i++) t.true(new Date(spans[i]!.start) >= new Date(spans[i - 1]!.end), 'no overlap');
  t.true((await snippetsServed('/acme/racing', 'build a beta widget')) > 0, 'the library serves its new docs');
  const lib = await a.services.libraries.get('/acme/racing', { fresh: true });
  const served = lib?.versions.find((v) => v.version === 'latest');
  const stored = await a.services.snippets.read({
    libraryId: '/acme/racing',
    version: 'latest',
    generation: served?.generation ?? -1,
    baseGeneration: served?.baseGeneration,
  });
  t.true(stored.length >= 40, `the served generation has its snippets (${stored.length})`);

  // A later refresh with nothing changed still reuses the served generation's snippets.
  const again = await a.request.post('/v2/refresh').set(auth()).send({ libraryName: '/acme/racing' });
  t.is(again.status, 200, JSON.stringify(again.body));
  t.true((await snippetsServed('/acme/racing', 'build a beta widget')) > 0);
});

test.serial('the same OpenAPI upload sent to two instances at once: one publishes, the other is a 409 duplicate, and the library serves', async (t) => {
  const spec = JSON.stringify({
    openapi: '3.0.0',
    info: { title: 'Racing Pets', version: '1.0.0' },
    paths: { '/pets': { get: { summary: 'List every racing pet', responses: { '200': { description: 'ok' } } } } },
  });
  const upload = (app: TestApp) =>
    app.request.post('/v2/add/openapi-upload').set(auth()).field('public', 'true').attach('openapiFile', Buffer.from(spec), 'pets.json');
  const statuses = (await Promise.all([upload(a), upload(b)])).map((r) => r.status).sort();
  t.deepEqual(statuses, [200, 409]);
  t.true((await snippetsServed('/openapi/racing-pets', 'list racing pets')) > 0);
  // With force, two at once both succeed, one after the other.
  const forced = (app: TestApp) =>
    app.request.post('/v2/add/openapi-upload').set(auth()).field('public', 'true').field('force', 'true').attach('openapiFile', Buffer.from(spec), 'pets.json');
  t.deepEqual(
    (await Promise.all([forced(a), forced(b)])).map((r) => r.status),
    [200, 200],
  );
  t.true((await snippetsServed('/openapi/racing-pets', 'list racing pets')) > 0);
});
