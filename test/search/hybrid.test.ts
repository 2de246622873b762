/**
 * Hybrid retrieval on the real app with the real model (SHELFMARK_EMBEDDINGS=on): each
 * snippet is stored with its vector; a question that shares no word with the page that
 * answers it is answered through the kNN leg (the lexical leg alone finds nothing); a
 * refresh takes every unchanged vector from the cache; progress counts embedded snippets.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, commitToRepo, type GitServer } from '../git-server';
import { adminKey, servedSnippets, servedSnippetsWithVectors } from '../helpers';
import { EMBEDDING_DIMS } from '../../src/search/mappings';

let git: GitServer;
let app: TestApp;
let key: string;

const GUIDE = `# Testing guide

## Dependency overrides

Replace a dependency with another callable while the test suite runs, for example an
in-memory session instead of the production connection:

\`\`\`python
app.dependency_overrides[get_session] = override_get_session
\`\`\`

## Routing

Declare paths with decorators on the application object; each path operation answers one
HTTP method.

\`\`\`python
@app.get("/items/{item_id}")
def read_item(item_id: int):
    return {"item_id": item_id}
\`\`\`

## Background tasks

Schedule work that runs after the response is sent, such as sending an email.

\`\`\`python
background_tasks.add_task(send_email, address)
\`\`\`
`;

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/api', [
    {
      files: {
        'docs/testing.md': GUIDE,
        'docs/other.md': '# Other\n\n## Settings\n\nRead settings from the environment.\n\n```python\nsettings = Settings()\n```\n',
      },
    },
  ]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url, SHELFMARK_EMBEDDINGS: 'on' });
  key = await adminKey(app);
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/api` });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
});

// No word of this question (nor its stem) occurs in the docs; its vector is near the answer's
// (cosine ~0.40, above the relevance floor, weights.ts answer.cosineFloor).
const QUESTION = 'mock injected services during unit checks';

test.serial('every snippet is indexed with a unit vector, kept out of _source; the job counts them', async (t) => {
  const plain = await servedSnippets(app, '/acme/api');
  t.true(plain.length >= 4);
  t.false(
    plain.some((d) => 'embedding' in d),
    'hits never load the vectors',
  );
  const docs = await servedSnippetsWithVectors(app, '/acme/api');
  t.is(docs.length, plain.length);
  for (const doc of docs) {
    t.is(doc.embedding?.length, EMBEDDING_DIMS, doc.title);
    t.true(Math.abs(Math.hypot(...doc.embedding!) - 1) < 1e-3);
  }
  const [job] = await app.services.jobs.list({ libraryId: '/acme/api', limit: 1 });
  t.is(job.progress.snippetsEmbedded, docs.length);
  t.true(job.log.some((l) => /vectors for \d+ snippets: 0 from the cache, \d+ embedded/.test(l.message)));
});

test.serial('a question in other words is answered through the kNN leg', async (t) => {
  const embeddings = app.services.embeddings;
  t.truthy(embeddings, 'SHELFMARK_EMBEDDINGS=on loads the model');
  try {
    app.services.embeddings = undefined;
    const lexical = await app.request.get('/v2/context').query({ libraryId: '/acme/api', query: QUESTION, type: 'json' });
    t.is(lexical.status, 404, 'the lexical leg alone finds nothing');
  } finally {
    app.services.embeddings = embeddings;
  }
  const hybrid = await app.request.get('/v2/context').query({ libraryId: '/acme/api', query: QUESTION, type: 'json' });
  t.is(hybrid.status, 200);
  t.is(hybrid.body.snippets[0].title, 'Dependency overrides', JSON.stringify(hybrid.body.snippets.map((s: { title: string }) => s.title)));
  // An exact identifier still wins through the lexical leg.
  const exact = await app.request.get('/v2/context').query({ libraryId: '/acme/api', query: 'background_tasks.add_task', type: 'json' });
  t.regex(exact.body.snippets[0].code ?? '', /background_tasks\.add_task/);
});

test.serial('a refresh of a changed repository embeds only the new texts', async (t) => {
  commitToRepo(`${git.root}/acme/api.git`, {
    'docs/other.md': '# Other\n\n## Settings\n\nRead settings from the environment variables at start-up.\n\n```python\nsettings = Settings()\n```\n',
  });
  const res = await app.request.post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/acme/api' });
  t.is(res.status, 200, JSON.stringify(res.body));
  const [job] = await app.services.jobs.list({ libraryId: '/acme/api', limit: 1 });
  const line = job.log.find((l) => /^vectors for/.test(l.message))?.message ?? '';
  const [, total, cached, embedded] = /vectors for (\d+) snippets: (\d+) from the cache, (\d+) embedded/.exec(line) ?? [];
  // Only the changed file's snippets are written, so only they need vectors (the unchanged
  // files keep their documents, vectors included).
  t.true(Number(total) >= 1 && Number(total) <= 2, line);
  t.true(Number(embedded) >= 1 && Number(embedded) <= 2, `only the changed section is embedded: ${line}`);
  t.is(Number(cached) + Number(embedded), Number(total));
});
