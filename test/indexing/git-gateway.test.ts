import test from 'ava';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { cloneBare, GitSourceError } from '../../src/indexing/sources/git';
import { MAX_REDIRECTS } from '../../src/indexing/sources/git-gateway';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-gw-'));
let git: GitServer;
const helpers: http.Server[] = [];
let dirs = 0;
const dir = () => path.join(tmp, `c${dirs++}`);

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  helpers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/private', [{ files: { 'README.md': '# Private\n' } }]);
  git.protect('acme/private.git', 'tok-gw');
});
test.after.always(async () => {
  for (const s of helpers) s.closeAllConnections();
  await Promise.all(helpers.map((s) => new Promise((resolve) => s.close(resolve))));
  await git?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test(`redirects stop after ${MAX_REDIRECTS} hops, even between allowed URLs`, async (t) => {
  let hits = 0;
  const loop: string = await serve((req, res) => {
    hits++;
    res.writeHead(302, { location: `/r${hits}${(req.url ?? '').replace(/^\/r\d+/, '')}` }).end();
  });
  const err = await t.throwsAsync(cloneBare(`${loop}/r0/x.git`, dir(), undefined, { allowRedirect: () => true }), { instanceOf: GitSourceError });
  t.is(err?.reason, 'redirect');
  t.is(hits, MAX_REDIRECTS + 1);
});

test('the token is not forwarded to another origin a redirect leads to', async (t) => {
  const origin = await serve((req, res) => res.writeHead(301, { location: `${git.url}${req.url ?? ''}` }).end());
  const err = await t.throwsAsync(cloneBare(`${origin}/acme/private.git`, dir(), 'tok-gw', { allowRedirect: () => true }), { instanceOf: GitSourceError });
  t.is(err?.reason, 'auth');
  const seen = git.requests.filter((r) => r.url.startsWith('/acme/private.git'));
  t.true(seen.length > 0, 'the redirect was followed');
  t.false(
    seen.some((r) => r.authorization),
    'but without credentials',
  );
});

test('a redirect whose target does not keep the /info/refs discovery path is refused', async (t) => {
  const odd = await serve((_req, res) => res.writeHead(302, { location: `${git.url}/acme/private.git` }).end());
  const err = await t.throwsAsync(cloneBare(`${odd}/acme/private.git`, dir(), undefined, { allowRedirect: () => true }), { instanceOf: GitSourceError });
  t.is(err?.reason, 'redirect');
});
