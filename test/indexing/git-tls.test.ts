import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { createCa, removeTestCerts, selfSigned, type TestCa } from '../tls-certs';
import { createTestApp } from '../harness';
import { adminKey } from '../helpers';
import { cloneBare, GitSourceError } from '../../src/indexing/sources/git';
import { gitTransport } from '../../src/indexing/pipeline/git-transport';
import { loadConfig } from '../../src/config';
import { TlsTrust } from '../../src/net/tls-trust';

const TOKEN = 'tls-test-token-42';
const GUIDE =
  '# Guide\n\n## Connecting\n\nOpen a connection with `connect()` before sending anything:\n\n```js\nconst c = connect({ host: "db" });\nawait c.ready();\n```\n';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-tls-clone-'));
const servers: GitServer[] = [];
let ca: TestCa;
let dirs = 0;

/** An HTTPS git server with a public repo and a token-protected one. */
async function httpsServer(tls: { key: string; cert: string }): Promise<GitServer> {
  const server = await startGitServer(undefined, { tls });
  createRepo(server.root, 'acme/docs', [{ files: { 'README.md': '# Docs\n', 'docs/guide.md': GUIDE } }]);
  createRepo(server.root, 'acme/private', [{ files: { 'README.md': '# Private\n' } }]);
  server.protect('acme/private.git', TOKEN);
  servers.push(server);
  return server;
}

const dir = () => path.join(tmp, `c${dirs++}`);
const configWith = (env: Record<string, string>) =>
  loadConfig({ ELASTICSEARCH_URL: 'http://127.0.0.1:9200', MONGODB_URI: 'mongodb://127.0.0.1:27017/', SHELFMARK_SECRET: 'x'.repeat(32), ...env });

test.before(() => {
  ca = createCa();
});
test.after.always(async () => {
  await Promise.all(servers.map((s) => s.close()));
  fs.rmSync(tmp, { recursive: true, force: true });
  removeTestCerts();
});

test('a certificate for another name is refused before any request, so the token never reaches the server', async (t) => {
  const wrongName = await httpsServer(selfSigned('other.example', ['DNS:other.example']));
  const err = await t.throwsAsync(cloneBare(`${wrongName.url}/acme/private.git`, dir(), TOKEN, { tls: new TlsTrust() }), { instanceOf: GitSourceError });
  t.is(err?.reason, 'tls');
  t.deepEqual(wrongName.requests, [], 'not even an unauthenticated request was sent');

  // Signed by a trusted CA but for 127.0.0.2 (libgit2 1.9's own IP check would accept it).
  const otherIp = await httpsServer(ca.issue(['IP:127.0.0.2']));
  const err2 = await t.throwsAsync(cloneBare(`${otherIp.url}/acme/private.git`, dir(), TOKEN, gitTransport(configWith({ GIT_CA_FILE: ca.certFile }), 'git')), {
    instanceOf: GitSourceError,
  });
  t.is(err2?.reason, 'tls');
  t.regex(err2?.message ?? '', /another host name/);
  t.deepEqual(otherIp.requests, []);
});

test('a certificate signed by the CA in GIT_CA_FILE is accepted, and the token is sent to it (control)', async (t) => {
  const server = await httpsServer(ca.issue(['IP:127.0.0.1']));
  const transport = gitTransport(configWith({ GIT_CA_FILE: ca.certFile }), 'git');
  const { defaultBranch } = await cloneBare(`${server.url}/acme/private.git`, dir(), TOKEN, transport);
  t.is(defaultBranch, 'main');
  t.true(server.requests.some((r) => r.authorization === `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`));
});

test('the same server without the CA configured is refused with a message saying what to do', async (t) => {
  const server = await httpsServer(ca.issue(['IP:127.0.0.1']));
  const err = await t.throwsAsync(cloneBare(`${server.url}/acme/private.git`, dir(), TOKEN, gitTransport(configWith({}), 'git')), {
    instanceOf: GitSourceError,
  });
  t.is(err?.reason, 'tls');
  t.regex(err?.message ?? '', /not trusted \(issued by an unknown CA\).*GIT_CA_FILE/);
  t.deepEqual(server.requests, []);
});

test('GIT_TLS_PINNED admits a self-signed certificate only at its host:port and only with its fingerprint', async (t) => {
  const cert = selfSigned('git.internal', ['DNS:git.internal']);
  const pinned = await httpsServer(cert);
  const samePairElsewhere = await httpsServer(cert);
  const port = (s: GitServer) => new URL(s.url).port;
  const transport = gitTransport(configWith({ GIT_TLS_PINNED: `127.0.0.1:${port(pinned)}=sha256/${cert.fingerprint}` }), 'git');

  const { defaultBranch } = await cloneBare(`${pinned.url}/acme/private.git`, dir(), TOKEN, transport);
  t.is(defaultBranch, 'main', 'the pin stands in for the CA and the name check at that endpoint');

  const elsewhere = await t.throwsAsync(cloneBare(`${samePairElsewhere.url}/acme/private.git`, dir(), TOKEN, transport), { instanceOf: GitSourceError });
  t.is(elsewhere?.reason, 'tls', 'the same certificate on another port is not pinned');
  t.deepEqual(samePairElsewhere.requests, []);

  const other = selfSigned('git.internal', ['DNS:git.internal']);
  const wrongPin = gitTransport(configWith({ GIT_TLS_PINNED: `127.0.0.1:${port(pinned)}=sha256/${other.fingerprint}` }), 'git');
  const before = pinned.requests.length;
  const mismatch = await t.throwsAsync(cloneBare(`${pinned.url}/acme/private.git`, dir(), TOKEN, wrongPin), { instanceOf: GitSourceError });
  t.regex(mismatch?.message ?? '', /not the one pinned in GIT_TLS_PINNED/);
  t.is(pinned.requests.length, before);
});

test('end to end: POST /v2/add/repo/git uses GIT_CA_FILE and refuses an untrusted server with a 400', async (t) => {
  const good = await httpsServer(ca.issue(['IP:127.0.0.1']));
  const bad = await httpsServer(selfSigned('other.example', ['DNS:other.example']));
  const app = await createTestApp({ GIT_CA_FILE: ca.certFile, GIT_ALLOWED_URL_PREFIXES: `${good.url}/,${bad.url}/` });
  t.teardown(() => app.close());
  const key = await adminKey(app);
  const add = (url: string) => app.request.post('/v2/add/repo/git').set('authorization', `Bearer ${key}`).send({ docsRepoUrl: url, gitToken: TOKEN });

  const ok = await add(`${good.url}/acme/docs.git`);
  t.is(ok.status, 200, JSON.stringify(ok.body));
  const refused = await add(`${bad.url}/acme/private.git`);
  t.is(refused.status, 400, JSON.stringify(refused.body));
  t.is(refused.body.error, 'validation_error');
  t.regex(refused.body.message, /docsRepoUrl: Could not clone .* not trusted/);
  t.deepEqual(bad.requests, []);
});
