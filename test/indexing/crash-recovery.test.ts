import test from 'ava';
import supertest from 'supertest';
import { startGitServer, createRepo, commitToRepo, type GitServer } from '../git-server';
import { createTestApp, type TestApp } from '../harness';
import { adminKey } from '../helpers';
import { startServerProcess, type ServerProcess } from '../server-process';

// A kill -9 of the server in the middle of a rebuild: the previous generation keeps
// serving, and after a restart the job's lapsed lease lets it be taken over and finished.
let git: GitServer;
let app: TestApp;
let server: ServerProcess | undefined;

function manyDocs(marker: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1500; i++) {
    const body = Array.from(
      { length: 30 },
      (_, k) => `## Section ${k}\n\nParagraph ${k} of page ${i} about ${marker} widgets and gadgets.\n\n\`\`\`js\nwidget${i}.step${k}('${marker}');\n\`\`\`\n`,
    ).join('\n');
    files[`docs/page-${i}.md`] = `# Page ${i}\n\n${body}`;
  }
  return files;
}

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/big', [{ files: { 'README.md': '# Big\n\nA big documentation set.\n', ...manyDocs('alpha') } }]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url, JOB_LEASE_SECONDS: '5', WORKER_MODE: 'off' });
});

test.after.always(async () => {
  await server?.kill('SIGKILL');
  await app?.close();
  await git?.close();
});

test('kill -9 during indexing leaves the previous generation serving; the restarted server completes the job', async (t) => {
  const env = {
    MONGODB_DB: app.services.config.mongodbDb,
    SHELFMARK_INDEX_PREFIX: app.services.config.indexPrefix,
    SHELFMARK_SECRET: app.services.config.secret,
    GITHUB_BASE_URL: git.url,
    JOB_LEASE_SECONDS: '5',
    ADD_WAIT_SECONDS: '1',
    LOG_LEVEL: 'warn',
  };
  const key = await adminKey(app);
  server = await startServerProcess({ ...env, ADD_WAIT_SECONDS: '600' });
  const first = await supertest(server.url)
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/big` });
  t.is(first.status, 200, JSON.stringify(first.body));
  const gen1 = (await app.services.libraries.get('/acme/big', { fresh: true }))?.versions[0].generation;

  commitToRepo(`${git.root}/acme/big.git`, manyDocs('beta'));
  await server.kill('SIGTERM');
  server = await startServerProcess(env);
  const refresh = await supertest(server.url).post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/acme/big' });
  t.is(refresh.status, 504, 'still running after the short wait');
  t.is(refresh.body.error, 'timeout');
  const [job] = await app.services.jobs.list({ libraryId: '/acme/big', limit: 1 });
  // Kill the process while the job is being built.
  for (let i = 0; i < 200; i++) {
    const j = await app.services.jobs.get(job._id);
    if (j && ['parsing', 'indexing'].includes(j.state)) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  await server.kill('SIGKILL');
  const killed = await app.services.jobs.get(job._id);
  t.not(killed?.state, 'finalized', `killed mid-build (state ${killed?.state})`);

  // The previous generation still answers.
  const during = await app.request.get('/v2/context').query({ libraryId: '/acme/big', query: 'widget step alpha', type: 'json' });
  t.is(during.status, 200);
  t.true(during.body.snippets.some((s: { code: string }) => s.code.includes("'alpha'")));
  t.is((await app.services.libraries.get('/acme/big', { fresh: true }))?.versions[0].generation, gen1);

  server = await startServerProcess(env);
  // The next attempt starts a job process of its own before it builds: minutes on a loaded machine.
  const done = await app.services.jobs.waitFor(job._id, 240_000);
  t.is(done?.state, 'finalized', `${JSON.stringify(done?.log.slice(-5))}\nserver output:\n${server.output().slice(-3000)}`);
  t.true((done?.attempts ?? 0) >= 2);
  // This test's app is another instance: it sees the server's write within about a second (the catalogue generation).
  let served = false;
  for (const until = Date.now() + 5000; !served && Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    const after = await app.request.get('/v2/context').query({ libraryId: '/acme/big', query: 'widget step beta', type: 'json' });
    served = after.status === 200 && after.body.snippets.some((s: { code: string }) => s.code.includes("'beta'"));
  }
  t.true(served, 'the new generation serves');
});
