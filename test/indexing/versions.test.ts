import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey } from '../helpers';

// Issue 22 item 7: every stored version and tag is one a client can address (the rule of
// VERSION in src/domain/library-ids.ts); names that are not are refused where a caller sent them
// (400 naming the field) and skipped where a repository holds them (git allows `release/1.0`).
let git: GitServer;
let app: TestApp;
let admin: string;

const ADDRESSABLE = /^[A-Za-z0-9_.][A-Za-z0-9_.+-]{0,99}$/;
const page = (v: string) => `# Tagged ${v}\n\nRelease ${v} of the tagged library.\n\n## Usage\n\n\`\`\`js\ntagged.run('${v}');\n\`\`\`\n`;

test.before(async () => {
  git = await startGitServer();
  const bare = createRepo(git.root, 'acme/tagged', [
    { files: { 'README.md': page('0.9') }, tag: 'release/0.9' },
    { files: { 'README.md': page('1.0'), 'shelfmark.json': JSON.stringify({ previousVersions: ['release/0.9', 'v0.9'] }) }, tag: 'release/1.0' },
  ]);
  execFileSync('git', ['--git-dir', bare, 'tag', 'v1.0', 'release/1.0'], { stdio: 'pipe' });
  execFileSync('git', ['--git-dir', bare, 'tag', 'v0.9', 'release/0.9'], { stdio: 'pipe' });
  app = await createTestApp({ GITHUB_BASE_URL: git.url, RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  admin = await adminKey(app);
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const library = () => app.request.get('/v2/libraries/acme/tagged').set('authorization', `Bearer ${admin}`);

test.serial('git tags a client cannot address are neither stored nor built; previousVersions skips them with a warning', async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${admin}`)
    .send({ docsRepoUrl: `${git.url}/acme/tagged` });
  t.is(res.status, 200, JSON.stringify(res.body));
  let lib = (await library()).body;
  for (let i = 0; i < 120 && !lib.versions.includes('v0.9'); i++) {
    await new Promise((r) => setTimeout(r, 500));
    lib = (await library()).body;
  }
  t.true(lib.versions.includes('v1.0'), JSON.stringify(lib.versions));
  t.true(lib.versions.includes('v0.9'), 'a previous version with an addressable name is built');
  for (const name of [...lib.versions, ...lib.builds.flatMap((b: { version: string; tags: string[] }) => [b.version, ...b.tags])]) {
    t.regex(name, ADDRESSABLE, `stored version or tag "${name}"`);
  }
  t.false(JSON.stringify(lib.versions).includes('release/'));
  const job = (await app.request.get('/v2/jobs').query({ libraryId: '/acme/tagged' }).set('authorization', `Bearer ${admin}`)).body.jobs.find(
    (j: { kind: string }) => j.kind === 'add-repo',
  );
  const detail = await app.request.get(`/v2/jobs/${job.id}`).set('authorization', `Bearer ${admin}`);
  t.true(
    detail.body.log.some((l: { message: string }) => /previousVersions: "release\/0\.9" is not a version name a client can address/.test(l.message)),
    JSON.stringify(detail.body.log),
  );
});

test.serial('versions a caller sends must be addressable: 400 validation_error naming the field', async (t) => {
  const refresh = (body: object) => app.request.post('/v2/refresh').set('authorization', `Bearer ${admin}`).send(body);
  for (const [body, field] of [
    [{ libraryName: '/acme/tagged', branch: '../../1' }, 'branch'],
    [{ libraryName: '/acme/tagged', branch: 'release/1.0' }, 'branch'],
    [{ libraryName: '/acme/tagged', branch: 'latest' }, 'branch'],
    [{ libraryName: '/acme/tagged/..' }, 'libraryName'],
  ] as const) {
    const res = await refresh(body);
    t.is(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    t.is(res.body.error, 'validation_error');
    t.regex(res.body.message, new RegExp(field), JSON.stringify(body));
  }
  const add = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${admin}`)
    .send({ docsRepoUrl: `${git.url}/acme/tagged/tree/latest` });
  t.is(add.status, 400);
  t.regex(add.body.message, /docsRepoUrl/);
  const lib = (await library()).body;
  for (const name of lib.versions) t.regex(name, ADDRESSABLE);
});
