import test from 'ava';
import { excludeFileMatcher, excludeFolderMatcher, globToRegexSource, includeFolderMatcher } from './patterns';

function folder(pattern: string): (path: string) => boolean {
  const m = excludeFolderMatcher(pattern);
  if (!m) throw new Error(`no matcher for ${pattern}`);
  return m;
}

test('globs: * stays within a segment, ** crosses segments (or none), ? is one character', (t) => {
  const re = (g: string) => new RegExp(`^${globToRegexSource(g)}$`);
  t.true(re('*.md').test('a.md'));
  t.false(re('*.md').test('x/a.md'));
  t.true(re('docs/**/x.md').test('docs/x.md'));
  t.true(re('docs/**/x.md').test('docs/a/b/x.md'));
  t.true(re('a/**').test('a/b/c'));
  t.true(re('v?').test('v1'));
  t.false(re('v?').test('v10'));
  t.true(re('a+b(c).md').test('a+b(c).md'), 'regex characters are literal');
});

test('excludeFolders: simple names match at any depth, as whole segments', (t) => {
  const m = folder('internal');
  t.true(m('internal/a.md'));
  t.true(m('docs/internal/a.md'));
  t.false(m('docs/internals/a.md'));
  t.false(m('docs/not-internal/a.md'));
});

test('excludeFolders: paths match as a segment sequence anywhere; ./x only at the root', (t) => {
  t.true(folder('docs/internal')('docs/internal/a.md'));
  t.true(folder('docs/internal')('packages/x/docs/internal/a.md'));
  t.false(folder('docs/internal')('docs/a/internal/a.md'));
  t.true(folder('./build')('build/a.md'));
  t.false(folder('./build')('src/build/a.md'));
  t.true(folder('app-sdk/v2.3/')('app-sdk/v2.3/x/a.md'));
  t.false(folder('app-sdk/v2.3')('app-sdk/v2x3/a.md'), 'dots are literal');
});

test('excludeFolders: globs and file globs (Context7 users put both there)', (t) => {
  t.true(folder('*.test')('src/foo.test/a.md'));
  t.true(folder('temp*')('tempfiles/a.md'));
  t.true(folder('**/dist')('a/b/dist/x.md'));
  t.true(folder('**/dist')('dist/x.md'));
  t.true(folder('docs/**/internal')('docs/internal/x.md'));
  t.true(folder('docs/**/internal')('docs/a/b/internal/x.md'));
  t.false(folder('docs/**/internal')('site/internal/x.md'));
  t.true(folder('src/**/*.test.js')('src/a/b.test.js'));
  t.true(folder('**/*.fix.txt')('a/b/c.fix.txt'));
  t.true(folder('**/*.fix.txt')('c.fix.txt'));
  t.is(excludeFolderMatcher('  '), undefined);
  t.is(excludeFolderMatcher('./'), undefined);
});

test('excludeFiles: names match the file name anywhere; paths and globs too', (t) => {
  const byName = excludeFileMatcher('CHANGELOG.md');
  t.true(byName?.('CHANGELOG.md'));
  t.true(byName?.('packages/a/CHANGELOG.md'));
  t.false(byName?.('packages/a/CHANGELOG.mdx'));
  t.false(byName?.('changelog.md'), 'case-sensitive, like the file system');
  t.true(excludeFileMatcher('*.draft.md')?.('docs/x.draft.md'));
  t.true(excludeFileMatcher('docs/api/old.md')?.('docs/api/old.md'));
  t.false(excludeFileMatcher('docs/api/old.md')?.('docs/old.md'));
  t.true(excludeFileMatcher('./README.md')?.('README.md'));
  t.false(excludeFileMatcher('./docs/README.md')?.('x/docs/README.md'));
});

test('folders: prefixes from the root report how many segments they name', (t) => {
  const docs = includeFolderMatcher('./docs/');
  t.is(docs?.('docs/a.md'), 1);
  t.is(docs?.('docs/legacy/a.md'), 1);
  t.is(docs?.('site/docs/a.md'), undefined);
  t.is(docs?.('docsite/a.md'), undefined);
  t.is(includeFolderMatcher('docs/legacy')?.('docs/legacy/a.md'), 2);
  t.is(includeFolderMatcher('packages/*/docs')?.('packages/core/docs/x/a.md'), 3);
  t.is(includeFolderMatcher('.')?.('anything/a.md'), 0);
  t.is(includeFolderMatcher('CHANGELOG.md')?.('CHANGELOG.md'), 1, 'an entry naming the file names all of it');
});
