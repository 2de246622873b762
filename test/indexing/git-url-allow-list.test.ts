import test from 'ava';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey } from '../helpers';

const GUIDE = '# Guide\n\n## Starting\n\nCall `start()` to begin, then `stop()` when done:\n\n```js\nconst s = start({ port: 1 });\ns.stop();\n```\n';

let git: GitServer;
const helpers: http.Server[] = [];

/** A server answering every request with a redirect to `target` + the same path. */
async function redirector(target: string): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(301, { location: `${target}${req.url ?? ''}` }).end();
  });
  helpers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, hits };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function appWith(
  prefixes: string[],
): Promise<{ app: TestApp; add(url: string): Promise<{ status: number; body: { error?: string; message?: string; libraryName?: string } }> }> {
  const app = await createTestApp({ GIT_ALLOWED_URL_PREFIXES: prefixes.join(',') });
  const key = await adminKey(app);
  return {
    app,
    add: (url) => app.request.post('/v2/add/repo/git').set('authorization', `Bearer ${key}`).send({ docsRepoUrl: url }),
  };
}

test.before(async () => {
  git = await startGitServer();
  for (const name of ['allowed/docs', 'allowed/moved', 'secret/repo', 'secret/file-repo', 'team/ported'])
    createRepo(git.root, name, [{ files: { 'docs/guide.md': GUIDE } }]);
});
test.after.always(async () => {
  for (const s of helpers) s.closeAllConnections();
  await Promise.all(helpers.map((s) => new Promise((resolve) => s.close(resolve))));
  await git?.close();
});

test('dot segments cannot leave an allowed folder (file: and http:)', async (t) => {
  const { app, add } = await appWith([`file://${git.root}/allowed/`, `${git.url}/allowed/`]);
  t.teardown(() => app.close());
  for (const url of [
    `file://${git.root}/allowed/../secret/file-repo.git`,
    `file://${git.root}/allowed/%2e%2e/secret/file-repo.git`,
    `${git.url}/allowed/../secret/repo.git`,
  ]) {
    const res = await add(url);
    t.is(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
    t.regex(res.body.message ?? '', /GIT_ALLOWED_URL_PREFIXES/);
  }
  t.is(await app.services.libraries.get('/git/file-repo', { fresh: true }), null);
  t.is(await app.services.libraries.get('/git/repo', { fresh: true }), null);
});

test('an allowed port is not a prefix of other ports', async (t) => {
  const port = new URL(git.url).port;
  const { app, add } = await appWith([`http://127.0.0.1:${port.slice(0, -1)}/`]);
  t.teardown(() => app.close());
  const res = await add(`${git.url}/team/ported.git`);
  t.is(res.status, 400, JSON.stringify(res.body));
  t.is(res.body.error, 'validation_error');
  t.is(await app.services.libraries.get('/git/ported', { fresh: true }), null);
});

test('a redirect from an allowed origin to a disallowed one is refused; one to an allowed URL is followed', async (t) => {
  const out = await redirector(git.url);
  const { app, add } = await appWith([`${out.url}/`]);
  t.teardown(() => app.close());
  const refused = await add(`${out.url}/secret/repo.git`);
  t.is(refused.status, 400, JSON.stringify(refused.body));
  t.is(refused.body.error, 'validation_error');
  t.regex(
    refused.body.message ?? '',
    /^docsRepoUrl: Could not clone http:\/\/127\.0\.0\.1:\d+\/secret\/repo\.git: the server redirects to a URL that is not allowed\.$/,
  );
  t.false(
    git.requests.some((r) => r.url.startsWith('/secret/repo.git')),
    'the disallowed server was never asked',
  );
  t.is(await app.services.libraries.get('/git/repo', { fresh: true }), null);

  const inside = await redirector(`${git.url}/allowed`);
  const second = await appWith([`${inside.url}/`, `${git.url}/allowed/`]);
  t.teardown(() => second.app.close());
  const followed = await second.add(`${inside.url}/moved.git`);
  t.is(followed.status, 200, JSON.stringify(followed.body));
  t.is(followed.body.libraryName, '/git/moved');
  // One redirect per attempt at the job (a loaded machine may hand it to a second attempt); the clone then talks to the final URL.
  const [job] = await second.app.services.jobs.list({ libraryId: '/git/moved', limit: 1 });
  t.true(inside.hits.length >= 1 && inside.hits.length <= Math.max(1, job?.attempts ?? 1), `${inside.hits.length} redirects for ${job?.attempts} attempt(s)`);
});

test('a missing repository and a closed port give the same 400 validation_error naming docsRepoUrl', async (t) => {
  const closed = await closedPort();
  const { app, add } = await appWith([`${git.url}/`, `http://127.0.0.1:${closed}/`]);
  t.teardown(() => app.close());
  const missing = await add(`${git.url}/acme/missing.git`);
  const unreachable = await add(`http://127.0.0.1:${closed}/acme/missing.git`);
  for (const res of [missing, unreachable]) {
    t.is(res.status, 400, JSON.stringify(res.body));
    t.is(res.body.error, 'validation_error');
  }
  const general = (m?: string) => m?.replace(/127\.0\.0\.1:\d+/, '<origin>');
  t.is(general(missing.body.message), 'docsRepoUrl: Could not clone http://<origin>/acme/missing.git: the repository does not exist or is not reachable.');
  t.is(general(unreachable.body.message), general(missing.body.message));
  t.false(fs.existsSync(`${git.root}/acme/missing.git`));
});
