import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deleteKeptTrees, hasKeptTree, keepTree, keptTreeDir, planKeptFiles, pruneKeptTrees } from './kept-tree';
import { TreeCache } from '../../code/tree-cache';

const file = (p: string, size: number, isSymlink = false) => ({ path: p, size, isSymlink });

test('the plan keeps text files under the caps, vendored and lock files last, in path order', (t) => {
  const plan = planKeptFiles(
    [
      file('src/b.ts', 40),
      file('node_modules/x/index.js', 30),
      file('package-lock.json', 20),
      file('src/a.ts', 40),
      file('big.bin', 5000),
      file('link', 0, true),
    ],
    { treeMaxBytes: 100, fileMaxBytes: 1000 },
  );
  t.deepEqual(
    plan.chosen.map((f) => f.path),
    ['package-lock.json', 'src/a.ts', 'src/b.ts'],
    'node_modules did not fit; the lock file came after the sources',
  );
  t.deepEqual([plan.tooLarge, plan.overCap, plan.symlinks], [1, 1, 1]);
});

test('a kept tree is written once per commit, read back whole, binary left out; unserved commits are pruned', async (t) => {
  const codeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-code-'));
  t.teardown(() => fs.rmSync(codeDir, { recursive: true, force: true }));
  const blobs: Record<string, Buffer> = {
    'a.js': Buffer.from('const a = 1;\n'),
    'img.png': Buffer.from([0x89, 0x50, 0x00, 0x01]),
    'z/é.py': Buffer.from('def f():\n    return "é"\n'),
  };
  const files = Object.entries(blobs).map(([p, b]) => file(p, b.length));
  let reads = 0;
  const read = async (p: string) => {
    reads++;
    return blobs[p];
  };
  const key = '/acme/app~team_1';
  const index = await keepTree({ codeDir, libraryKey: key, commit: 'a'.repeat(40), files, read, limits: { treeMaxBytes: 1 << 20, fileMaxBytes: 1 << 20 } });
  t.deepEqual(
    index?.files.map((f) => f.path),
    ['a.js', 'z/é.py'],
  );
  t.is(index?.omitted.binary, 1);
  t.true(hasKeptTree(codeDir, key, 'a'.repeat(40)));
  t.false(keptTreeDir(codeDir, key, 'a'.repeat(40)).includes('acme'), 'the folder name is a hash of the key (keys hold team ids and slashes)');

  await keepTree({ codeDir, libraryKey: key, commit: 'a'.repeat(40), files, read, limits: { treeMaxBytes: 1 << 20, fileMaxBytes: 1 << 20 } });
  t.is(reads, 3, 'the second keep of the same commit reads nothing');

  const tree = new TreeCache(1 << 20).load(keptTreeDir(codeDir, key, 'a'.repeat(40)));
  t.truthy(tree);
  if (!tree) return;
  t.is(TreeCache.text(tree, tree.byPath.get('z/é.py') ?? -1), 'def f():\n    return "é"\n');

  await keepTree({ codeDir, libraryKey: key, commit: 'b'.repeat(40), files, read, limits: { treeMaxBytes: 1 << 20, fileMaxBytes: 1 << 20 } });
  t.deepEqual(pruneKeptTrees(codeDir, key, ['b'.repeat(40)]), ['a'.repeat(40)]);
  t.false(hasKeptTree(codeDir, key, 'a'.repeat(40)));
  t.true(hasKeptTree(codeDir, key, 'b'.repeat(40)));
  deleteKeptTrees(codeDir, key);
  t.false(hasKeptTree(codeDir, key, 'b'.repeat(40)));
  t.is(
    await keepTree({ codeDir, libraryKey: key, commit: 'c'.repeat(40), files, read, limits: { treeMaxBytes: 0, fileMaxBytes: 1 << 20 } }),
    undefined,
    'a cap of 0 keeps nothing',
  );
  t.throws(() => keptTreeDir(codeDir, key, '../../etc'), { message: /not a commit id/ });
});
