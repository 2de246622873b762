/**
 * `npm run build` (scripts/run/build.mjs): the compiled server starts from its bundle, serves
 * the API and the dashboard's static files, and runs a job in a job process that is the
 * compiled dist/job-process.js itself (JOB_ISOLATION=process, the default), not tsx, and
 * that embeds in the compiled embedding thread.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import supertest from 'supertest';
import { ROOT_DIR } from '../../src/config';
import { createTestApp, type TestApp } from '../harness';
import { adminKey } from '../helpers';
import { createRepo, startGitServer, type GitServer } from '../git-server';
import { startServerProcess, type ServerProcess } from '../server-process';

const OUT = path.join(ROOT_DIR, '.data', `build-test-${process.pid}`);
let app: TestApp;
let git: GitServer;
let server: ServerProcess;

/** The command lines of a process's children (Linux /proc). */
function childCommands(pid: number): string[] {
  const children = fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean));
  return children.map((child) => fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').join(' '));
}

test.before(async () => {
  execFileSync(process.execPath, [path.join(ROOT_DIR, 'scripts', 'run', 'build.mjs'), '--outdir', OUT], { stdio: 'pipe' });
  git = await startGitServer();
  createRepo(git.root, 'acme/built', [
    {
      files: {
        'README.md': '# Built\n\nThe built server indexes this.\n',
        'docs/guide.md': '# Guide\n\n## Install\n\nRun `npm install built` to add it.\n\n```js\nimport { built } from "built";\nbuilt.start();\n```\n',
      },
    },
  ]);
  app = await createTestApp({ WORKER_MODE: 'off' });
  server = await startServerProcess(
    {
      MONGODB_DB: app.services.config.mongodbDb,
      SHELFMARK_INDEX_PREFIX: app.services.config.indexPrefix,
      SHELFMARK_SECRET: app.services.config.secret,
      GITHUB_BASE_URL: git.url,
      GIT_ALLOWED_URL_PREFIXES: `${git.url}/`,
      JOB_ISOLATION: 'process',
      // On, so the job process embeds in its embedding thread: dist/embed-thread.js.
      SHELFMARK_EMBEDDINGS: 'on',
      ADD_WAIT_SECONDS: '120',
      LOG_LEVEL: 'warn',
    },
    ['--enable-source-maps', path.join(OUT, 'main.js')],
  );
});

test.after.always(async () => {
  await server?.kill();
  await app?.close();
  await git?.close();
  fs.rmSync(OUT, { recursive: true, force: true });
});

test.serial('the build writes one bundle per entry point, each with its source map', (t) => {
  for (const name of ['main', 'cli', 'job-process', 'embed-thread', 'probe-thread']) {
    t.true(fs.existsSync(path.join(OUT, `${name}.js`)), name);
    t.true(fs.existsSync(path.join(OUT, `${name}.js.map`)), name);
  }
  // Packages stay imports (native modules and the model runtime load from node_modules).
  t.regex(fs.readFileSync(path.join(OUT, 'main.js'), 'utf8'), /from "koa"/);
});

test.serial('the compiled server is ready and serves the dashboard and its vendored modules', async (t) => {
  const ready = await supertest(server.url).get('/readyz');
  t.is(ready.status, 200, JSON.stringify(ready.body));
  const index = await supertest(server.url).get('/dashboard/');
  t.is(index.status, 200);
  const script = /src="(js\/main\.js\?v=[^"]+)"/.exec(index.text)?.[1];
  t.truthy(script, index.text.slice(0, 300));
  t.is((await supertest(server.url).get(`/dashboard/${script}`)).status, 200);
  t.is((await supertest(server.url).get('/dashboard/vendor/marked.js')).status, 200);
});

test.serial('a job runs in the compiled job process and its library answers', async (t) => {
  const key = await adminKey(app);
  const added = await supertest(server.url)
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/built` });
  t.is(added.status, 200, JSON.stringify(added.body));
  // The process that ran the job waits for the next one: it is the bundle, with no tsx loader.
  const jobProcesses = childCommands(server.child.pid!).filter((c) => c.includes('job-process'));
  t.is(jobProcesses.length, 1, childCommands(server.child.pid!).join('\n'));
  t.true(jobProcesses[0].includes(path.join(OUT, 'job-process.js')), jobProcesses[0]);
  t.false(jobProcesses[0].includes('tsx'), jobProcesses[0]);
  const docs = await supertest(server.url)
    .get('/v2/context')
    .set('authorization', `Bearer ${key}`)
    .query({ libraryId: '/acme/built', query: 'install built', type: 'json' });
  t.is(docs.status, 200);
  t.true(JSON.stringify(docs.body).includes('npm install built'));
});
