import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { cloneBare, listTags, listTree, readBlob, resolveCommit, GitSourceError } from '../../src/indexing/sources/git';

let server: GitServer;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-clone-'));

test.before(async () => {
  server = await startGitServer();
  createRepo(server.root, 'acme/widgets', [
    { files: { 'README.md': '# Widgets v1\n', 'docs/a.md': '# A\n' }, tag: 'v1.0.0' },
    { files: { 'README.md': '# Widgets v2\n', 'docs/a.md': '# A2\n', 'docs/link.md': { symlink: '../README.md' } }, tag: 'v2.0.0' },
  ]);
  createRepo(server.root, 'acme/secret', [{ files: { 'README.md': '# Secret\n' } }]);
  server.protect('acme/secret.git', 'tok123');
});
test.after.always(async () => {
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('clones over smart HTTP, lists tags, walks trees and reads blobs', async (t) => {
  const { repo, defaultBranch } = await cloneBare(`${server.url}/acme/widgets.git`, path.join(tmp, 'w'));
  t.is(defaultBranch, 'main');
  t.deepEqual((await listTags(repo)).sort(), ['v1.0.0', 'v2.0.0']);
  const head = await resolveCommit(repo, 'HEAD');
  const files = await listTree(head);
  t.deepEqual(files.map((f) => f.path).sort(), ['README.md', 'docs/a.md', 'docs/link.md']);
  t.true(files.find((f) => f.path === 'docs/link.md')?.isSymlink);
  t.is((await readBlob(head, 'README.md')).toString(), '# Widgets v2\n');
  const v1 = await resolveCommit(repo, 'v1.0.0');
  t.is((await readBlob(v1, 'README.md')).toString(), '# Widgets v1\n');
  await t.throwsAsync(resolveCommit(repo, 'v9'), { instanceOf: GitSourceError });
});

test('private repositories need the token', async (t) => {
  const err = await t.throwsAsync(cloneBare(`${server.url}/acme/secret.git`, path.join(tmp, 's1')), { instanceOf: GitSourceError });
  t.is(err?.reason, 'auth');
  t.false(fs.existsSync(path.join(tmp, 's1')), 'a failed clone leaves nothing behind');
  const bad = await t.throwsAsync(cloneBare(`${server.url}/acme/secret.git`, path.join(tmp, 's2'), 'wrong'), { instanceOf: GitSourceError });
  t.false(bad?.message.includes('wrong'));
  const { repo } = await cloneBare(`${server.url}/acme/secret.git`, path.join(tmp, 's3'), 'tok123');
  t.is((await readBlob(await resolveCommit(repo, 'HEAD'), 'README.md')).toString(), '# Secret\n');
});

test('missing repositories and unreachable hosts read the same (errors must not map the network)', async (t) => {
  const missing = await t.throwsAsync(cloneBare(`${server.url}/acme/nope.git`, path.join(tmp, 'n')), { instanceOf: GitSourceError });
  const unreachable = await t.throwsAsync(cloneBare('http://127.0.0.1:1/acme/nope.git', path.join(tmp, 'u')), { instanceOf: GitSourceError });
  t.is(missing?.reason, 'unavailable');
  t.is(unreachable?.reason, 'unavailable');
  const general = (e: Error | undefined) => e?.message.replace(/http:\/\/127\.0\.0\.1:\d+/, '<origin>');
  t.is(general(missing), 'Could not clone <origin>/acme/nope.git: the repository does not exist or is not reachable.');
  t.is(general(unreachable), general(missing));
});
