/**
 * Listing a remote's refs without cloning (`listRemote`, git ls-remote through the git
 * gateway), and the check of latest that needs no clone when nothing changed: against a
 * local smart-HTTP Git server, and an HTTPS one for the TLS rules.
 */
import { execFileSync } from 'node:child_process';
import test from 'ava';
import { createRepo, commitToRepo, startGitServer, type GitServer } from '../git-server';
import { createCa, removeTestCerts, selfSigned } from '../tls-certs';
import { createTestApp, type TestApp } from '../harness';
import { adminKey } from '../helpers';
import { GitSourceError, listRemote } from '../../src/indexing/sources/git';
import { TlsTrust } from '../../src/net/tls-trust';

let git: GitServer;
let app: TestApp;
let key: string;
const others: GitServer[] = [];

const page = (v: string) => ({
  'README.md': `# Kit ${v}\n\nKit release ${v}.\n\n## Setup\n\nRun \`kit --version\` to see ${v}:\n\n\`\`\`sh\nkit --version # ${v}\n\`\`\`\n`,
});

test.before(async () => {
  git = await startGitServer();
  app = await createTestApp({ GITHUB_BASE_URL: git.url, REFRESH_DEFAULT_HOURS: 'github=0' });
  key = await adminKey(app);
  createCa();
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
  await Promise.all(others.map((s) => s.close()));
  removeTestCerts();
});

const auth = () => ({ authorization: `Bearer ${key}` });
/** Requests that fetched objects (a clone or fetch), as opposed to reading the ref advertisement. */
const packRequests = (server: GitServer, repo: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.url.startsWith(`/${repo}`) && r.url.includes('git-upload-pack')).length;

test.serial("the remote's branches, HEAD and tags (annotated ones peeled to their commit) are listed without fetching objects", async (t) => {
  const bare = createRepo(git.root, 'acme/refs', [{ files: page('1.0.0'), tag: 'v1.0.0' }, { files: page('1.1.0') }]);
  execFileSync('git', ['-C', bare, 'tag', '-a', 'v1.1.0', '-m', 'release 1.1.0', 'main'], { stdio: 'pipe' });
  execFileSync('git', ['-C', bare, 'branch', 'next', 'v1.0.0'], { stdio: 'pipe' });
  const sha = (ref: string) => execFileSync('git', ['-C', bare, 'rev-parse', ref], { encoding: 'utf8' }).trim();
  const refs = await listRemote(`${git.url}/acme/refs`);
  t.is(refs.head, sha('main'));
  t.is(refs.defaultBranch, 'main');
  t.deepEqual(Object.fromEntries(refs.branches), { main: sha('main'), next: sha('v1.0.0^{commit}') });
  t.deepEqual(Object.fromEntries(refs.tags), { 'v1.0.0': sha('v1.0.0^{commit}'), 'v1.1.0': sha('main') });
  t.not(sha('v1.1.0'), sha('main'), 'the annotated tag is an object of its own, listed as its commit');
  t.is(packRequests(git, 'acme/refs'), 0, 'no objects were fetched');
});

test.serial('a missing repository reads like any unreachable one', async (t) => {
  const err = await t.throwsAsync(listRemote(`${git.url}/acme/nothing-here`), { instanceOf: GitSourceError });
  t.is(err?.reason, 'unavailable');
});

test.serial('the listing goes through the gateway: an untrusted certificate is refused before any request', async (t) => {
  const https = await startGitServer(undefined, { tls: selfSigned('other.example', ['DNS:other.example']) });
  others.push(https);
  createRepo(https.root, 'acme/tls', [{ files: page('1.0.0') }]);
  const err = await t.throwsAsync(listRemote(`${https.url}/acme/tls.git`, 'secret-token', { tls: new TlsTrust() }), { instanceOf: GitSourceError });
  t.is(err?.reason, 'tls');
  t.deepEqual(https.requests, [], 'not even the ref advertisement was asked for (so the token never left)');
});

test.serial('a check of latest with no new commit clones nothing; a new tag the rule selects still becomes a version', async (t) => {
  const bare = createRepo(git.root, 'acme/kit', [{ files: page('1.0.0'), tag: 'v1.0.0' }, { files: page('1.1.0') }]);
  t.is(
    (
      await app.request
        .post('/v2/add/repo/github')
        .set(auth())
        .send({ docsRepoUrl: `${git.url}/acme/kit` })
    ).status,
    200,
  );
  t.is(
    (
      await app.request
        .patch('/v2/libraries/acme/kit')
        .set(auth())
        .send({ versionRule: { kind: 'range', range: '>=1.0.0' } })
    ).status,
    200,
  );
  const before = packRequests(git, 'acme/kit');
  const served = (await app.services.libraries.get('/acme/kit', { fresh: true }))?.versions.find((v) => v.version === 'latest');

  // A tag on the current head: no new commit, but a new version.
  execFileSync('git', ['-C', bare, 'tag', 'v1.1.0', 'main'], { stdio: 'pipe' });
  const refresh = await app.request.post('/v2/refresh').set(auth()).send({ libraryName: '/acme/kit' });
  t.is(refresh.status, 200, JSON.stringify(refresh.body));
  const [check] = (await app.services.jobs.list({ libraryId: '/acme/kit', limit: 20 })).filter((j) => j.version === 'latest' && j.kind === 'refresh');
  const job = check ? await app.services.jobs.get(check._id) : null;
  t.is(job?.state, 'finalized');
  t.true(job?.log.some((l) => /without cloning/.test(l.message)) ?? false, JSON.stringify(job?.log));
  t.false(job?.log.some((l) => /^cloned in/.test(l.message)) ?? true);
  t.like(job?.progress, { snippetsIndexed: 0, filesAdded: 0, filesChanged: 0, filesRemoved: 0 });
  const after = (await app.services.libraries.get('/acme/kit', { fresh: true }))?.versions.find((v) => v.version === 'latest');
  t.is(after?.generation, served?.generation, 'the served generation stays');
  // The rule queued both tags as versions; only those builds cloned.
  const end = Date.now() + 90_000;
  while ((await app.services.jobs.countOpen()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  const versions = (await app.services.libraries.get('/acme/kit', { fresh: true }))?.versions
    .filter((v) => v.version !== 'latest')
    .map((v) => v.version)
    .sort();
  t.deepEqual(versions, ['v1.0.0', 'v1.1.0']);
  const newTag = (await app.services.jobs.list({ libraryId: '/acme/kit', limit: 20 })).filter((j) => j.trigger === 'new-tag');
  t.is(packRequests(git, 'acme/kit') - before, newTag.length, 'one clone per version build, none for the check');

  // A new commit: the check clones and builds.
  commitToRepo(bare, { 'docs/new.md': '# New\n\nA new page about kits.\n' });
  t.is((await app.request.post('/v2/refresh').set(auth()).send({ libraryName: '/acme/kit' })).status, 200);
  const rebuilt = (await app.services.libraries.get('/acme/kit', { fresh: true }))?.versions.find((v) => v.version === 'latest');
  t.not(rebuilt?.generation, served?.generation);
});
