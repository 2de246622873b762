import test from 'ava';
import { generateDocsSnippets, isDocumentableSource, MAX_SOURCE_FILES, selectSourceFiles } from './index';

test('source files are TS/JS/Python library code', (t) => {
  const kept = [
    'src/app.ts',
    'src/ui/Button.tsx',
    'lib/koa.js',
    'lib/util.mjs',
    'lib/old.cjs',
    'src/mod.mts',
    'types/index.d.ts',
    'pkg/core.py',
    'index.js',
    'examples/basic/app.js',
    'src/testing/harness.ts',
    'src/contest.ts',
  ];
  for (const p of kept) t.true(isDocumentableSource(p), p);
});

test('tests, dependencies, build output, fixtures, configs and generated files are left out', (t) => {
  const skipped = [
    'README.md',
    'src/app.test.ts',
    'src/app.spec.tsx',
    'src/app_test.js',
    'src/types.test-d.ts',
    'test/app.js',
    'tests/test_client.py',
    'src/__tests__/app.ts',
    'src/__mocks__/fs.ts',
    'pkg/test_client.py',
    'pkg/client_test.py',
    'conftest.py',
    'pkg/sub/conftest.py',
    'setup.py',
    'docs/conf.py',
    'node_modules/koa/lib/application.js',
    'packages/a/node_modules/x/index.js',
    'dist/index.js',
    'build/lib/pkg/core.py',
    'vendor/jquery.js',
    'coverage/lcov-report/prettify.js',
    '.git/hooks/pre-commit.js',
    '.github/scripts/release.js',
    'test/fixtures/app.js',
    'src/fixtures/data.ts',
    'public/app.min.js',
    'static/app.bundle.js',
    'src/api.generated.ts',
    'pkg/api_pb2.py',
    'docs/_build/html/_static/searchtools.js',
    'site/assets/main.js',
    'vite.config.ts',
    'packages/a/jest.config.js',
    '.eslintrc.js',
    'src/Button.stories.tsx',
    'benchmarks/run.js',
    'pkg/__pycache__/x.py',
    '.venv/lib/site.py',
  ];
  for (const p of skipped) t.false(isDocumentableSource(p), p);
});

test('the most central files come first: entry files, src/lib/packages, Python packages, other folders, private modules, then examples and scripts', (t) => {
  const paths = [
    'scripts/release.js',
    'examples/basic.js',
    'src/deep/nested/util.ts',
    'src/router.ts',
    'src/index.ts',
    'packages/core/src/index.ts',
    'packages/core/src/api.ts',
    'other/thing.ts',
    'mypkg/__init__.py',
    'mypkg/core.py',
    'mypkg/_internal.py',
    'index.js',
  ];
  t.deepEqual(selectSourceFiles(paths), [
    'index.js',
    'mypkg/__init__.py',
    'src/index.ts',
    'packages/core/src/index.ts',
    'mypkg/core.py',
    'src/router.ts',
    'packages/core/src/api.ts',
    'src/deep/nested/util.ts',
    'other/thing.ts',
    'mypkg/_internal.py',
    'examples/basic.js',
    'scripts/release.js',
  ]);
});

test('the selection is capped and files over the size limit are dropped', (t) => {
  const many = Array.from({ length: MAX_SOURCE_FILES + 500 }, (_, i) => `src/m${String(i).padStart(5, '0')}.ts`);
  const chosen = selectSourceFiles(many);
  t.is(chosen.length, MAX_SOURCE_FILES);
  t.is(chosen[0], 'src/m00000.ts');
  t.deepEqual(selectSourceFiles(['src/a.ts', 'src/b.ts', 'src/c.ts'], { maxFiles: 2 }), ['src/a.ts', 'src/b.ts']);
  const sizes = new Map([
    ['src/big.js', 600 * 1024],
    ['src/small.js', 10 * 1024],
  ]);
  t.deepEqual(selectSourceFiles(['src/big.js', 'src/small.js', 'src/unknown.js'], { sizeOf: (p) => sizes.get(p) }), ['src/small.js', 'src/unknown.js']);
});

test('generateDocsSnippets dispatches by extension and skips what it cannot use', async (t) => {
  const snippets = await generateDocsSnippets([
    { path: 'src/a.ts', text: '/** A. */\nexport function a() {}\n' },
    { path: 'pkg/b.py', text: 'def b():\n    """B."""\n' },
    { path: 'README.md', text: '# Not code' },
    { path: 'src/huge.js', text: `/** Huge. */\nexport function huge() {}\n${'//'.padEnd(600 * 1024, 'x')}` },
    { path: 'src/broken.ts', text: 'export class {{{ /** ' },
  ]);
  t.deepEqual(
    snippets.map((s) => [s.path, s.title, s.language]),
    [
      ['src/a.ts', 'a()', 'typescript'],
      ['pkg/b.py', 'b()', 'python'],
    ],
  );
});
