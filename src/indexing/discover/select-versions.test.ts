import test from 'ava';
import { selectDocFiles, type SelectOptions } from './select';
import { parseVersionDir, parseVersionHint } from './versions';

const kept = (paths: string[], options?: SelectOptions) =>
  selectDocFiles(
    paths.map((path) => ({ path, size: 1, isSymlink: false })),
    options,
  ).selected;

test('version folder names', (t) => {
  t.deepEqual(parseVersionDir('v1'), { numbers: [1] });
  t.deepEqual(parseVersionDir('v2.3'), { numbers: [2, 3] });
  t.deepEqual(parseVersionDir('v2.x'), { numbers: [2] });
  t.deepEqual(parseVersionDir('1.x'), { numbers: [1] });
  t.deepEqual(parseVersionDir('4x'), { numbers: [4] });
  t.deepEqual(parseVersionDir('2.0'), { numbers: [2, 0] });
  t.deepEqual(parseVersionDir('version-1.2'), { numbers: [1, 2] });
  t.deepEqual(parseVersionDir('docs-v3'), { numbers: [3], base: 'docs' });
  t.deepEqual(parseVersionDir('api_v2'), { numbers: [2], base: 'api' });
  t.deepEqual(parseVersionDir('v3-docs'), { numbers: [3], base: 'docs' });
  for (const name of ['2023', 'es2015', 'oauth2', 'http2', 'plugin-v2', 'guide', 'h2', 'python3']) t.is(parseVersionDir(name), undefined, name);
});

test('version hints from refs', (t) => {
  t.deepEqual(parseVersionHint('v4.4.3'), [4, 4, 3]);
  t.deepEqual(parseVersionHint('svelte@5.56.10'), [5, 56, 10]);
  t.deepEqual(parseVersionHint('rel_2_0_52'), [2, 0, 52]);
  t.is(parseVersionHint('main'), undefined);
  t.is(parseVersionHint(undefined), undefined);
});

test('Docusaurus versioned_docs/ and versioned_sidebars/ are other versions', (t) => {
  const paths = ['docs/intro.md', 'versioned_docs/version-1.2/intro.md', 'website/versioned_docs/version-2.0/intro.md', 'versioned_sidebars/x.md'];
  t.deepEqual(kept(paths), ['docs/intro.md']);
  t.deepEqual(kept(paths, { skipVersionFiltering: true }), paths);
});

test('sibling version folders: the newest is kept (expressjs.com 3x/4x/5x)', (t) => {
  const paths = [
    'src/content/api/3x/api.mdx',
    'src/content/api/4x/api.mdx',
    'src/content/api/5x/api.mdx',
    'a/v1.9/a.md',
    'a/v1.10/a.md',
    'b/2.x/b.md',
    'b/1.x/b.md',
    'c/v2/c.md',
    'c/1.x/c.md',
    'c/version-3.0/c.md',
  ];
  t.deepEqual(kept(paths), ['src/content/api/5x/api.mdx', 'a/v1.10/a.md', 'b/2.x/b.md', 'c/version-3.0/c.md'], 'numerically, whatever the spelling');
  t.deepEqual(kept(paths, { skipVersionFiltering: true }), paths);
});

test('the version being built picks its own folder among siblings', (t) => {
  const paths = ['api/3x/api.mdx', 'api/4x/api.mdx', 'api/5x/api.mdx'];
  t.deepEqual(kept(paths, { versionHint: 'v4.21.2' }), ['api/4x/api.mdx']);
  t.deepEqual(kept(paths, { versionHint: '5.1.0' }), ['api/5x/api.mdx']);
  t.deepEqual(kept(paths, { versionHint: 'v6.0.0' }), ['api/5x/api.mdx'], 'docs lagging behind: the newest');
  t.deepEqual(kept(['docs/v2.0/a.md', 'docs/v2.1/a.md'], { versionHint: 'v2.0.5' }), ['docs/v2.0/a.md']);
});

test('docs-v3/ beside docs/ is the old version (zod 4)', (t) => {
  const paths = ['packages/docs/content/basics.mdx', 'packages/docs-v3/README.md', 'packages/docs-v3/MIGRATION.md'];
  t.deepEqual(kept(paths), ['packages/docs/content/basics.mdx']);
  t.deepEqual(kept(paths, { skipVersionFiltering: true }), paths);
  t.deepEqual(
    kept(['packages/docs-v3/README.md', 'packages/zod/README.md']),
    ['packages/docs-v3/README.md', 'packages/zod/README.md'],
    'without a docs/ twin it is the docs',
  );
});

test('a lone docs/v1/ beside the current pages is dropped; a lone folder holding the docs is kept', (t) => {
  const leftover = ['docs/index.md', 'docs/guide.md', 'docs/api.md', 'docs/v1/index.md'];
  t.deepEqual(kept(leftover), ['docs/index.md', 'docs/guide.md', 'docs/api.md']);
  t.deepEqual(kept(leftover, { skipVersionFiltering: true }), leftover);
  const current = ['docs/index.md', 'docs/v2/a.md', 'docs/v2/b.md', 'docs/v2/c.md'];
  t.deepEqual(kept(current), current);
});

test('with a version being built, a lone older folder is another version, its own is not', (t) => {
  t.deepEqual(kept(['docs/v1/a.md', 'docs/v1/b.md', 'docs/c.md'], { versionHint: 'v4.4.3' }), ['docs/c.md']);
  t.deepEqual(kept(['docs/v4/a.md', 'docs/c.md', 'docs/d.md'], { versionHint: 'v4.4.3' }), ['docs/v4/a.md', 'docs/c.md', 'docs/d.md']);
});
