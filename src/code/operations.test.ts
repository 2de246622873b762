import test from 'ava';
import { filesUnder } from './operations';
import type { LoadedTree } from './tree-cache';

const tree = (paths: string[]) => ({ index: { files: paths.map((path) => ({ path, offset: 0, length: 0 })) } }) as unknown as LoadedTree;
const t1 = tree(['lib/a.js', 'lib/sub/b.ts', 'libx/c.js', 'README.md', '.github/x.yml']);

test('a path scope is a folder or file prefix, or a glob', (t) => {
  t.deepEqual(filesUnder(t1, 'lib'), [0, 1], 'a folder, not a name prefix (libx)');
  t.deepEqual(filesUnder(t1, './lib/'), [0, 1]);
  t.deepEqual(filesUnder(t1, 'lib/a.js'), [0]);
  t.deepEqual(filesUnder(t1, '*.js'), [0, 2], 'a glob without a slash matches base names');
  t.deepEqual(filesUnder(t1, 'lib/**/*.ts'), [1]);
  t.deepEqual(filesUnder(t1, '**/*.yml'), [4], 'dot folders too');
  t.deepEqual(filesUnder(t1, undefined), [0, 1, 2, 3, 4]);
});

test('braces and extglobs are not expanded (18 pairs of braces would be 262,144 patterns, per file)', (t) => {
  const started = process.cpuUsage();
  t.deepEqual(filesUnder(t1, '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}{s,t}{u,v}{w,x}{y,z}{1,2}{3,4}{5,6}{7,8}{9,0}'), []);
  t.deepEqual(filesUnder(t1, '{1..99999999}*'), []);
  t.deepEqual(filesUnder(t1, '+(a|aa)+(a|aa)+(a|aa)+(a|aa)!'), []);
  const used = process.cpuUsage(started);
  t.true(used.user + used.system < 1_000_000, 'well under a CPU second');
});
