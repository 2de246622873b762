import test from 'ava';
import { isDocFile, isSafePath, selectDocFiles, type RepoFileInfo, type SelectOptions } from './select';
import { cpuMs } from '../../util/cpu-time';

const file = (path: string, size = 100): RepoFileInfo => ({ path, size, isSymlink: false });
const select = (paths: string[], options?: SelectOptions) =>
  selectDocFiles(
    paths.map((p) => file(p)),
    options,
  );
const kept = (paths: string[], options?: SelectOptions) => select(paths, options).selected;
const reasonOf = (paths: string[], path: string, options?: SelectOptions) => select(paths, options).skipped.find((s) => s.path === path)?.reason;

test('documentation extensions, in any case', (t) => {
  const paths = ['a.md', 'b.MDX', 'c.markdown', 'd.rst', 'e.txt', 'f.ipynb', 'g.adoc', 'h.Md', 'x.js', 'y.html', 'z.md.bak', 'noext', 'docs/.md'];
  t.deepEqual(kept(paths), ['a.md', 'b.MDX', 'c.markdown', 'd.rst', 'e.txt', 'f.ipynb', 'g.adoc', 'h.Md']);
  t.is(reasonOf(paths, 'x.js'), 'extension');
  t.true(isDocFile('DOCS/README.RST'));
  t.false(isDocFile('.md'));
});

test('every file is either selected or skipped with a reason, in input order', (t) => {
  const paths = ['z.md', 'CHANGELOG.md', 'a.md', 'src/index.ts'];
  const { selected, skipped } = select(paths);
  t.deepEqual(selected, ['z.md', 'a.md']);
  t.deepEqual(
    skipped.map((s) => s.path),
    ['CHANGELOG.md', 'src/index.ts'],
  );
  t.true(skipped.every((s) => s.reason.length > 0));
});

test('symlinks are never selected', (t) => {
  const { selected, skipped } = selectDocFiles([{ path: 'docs/link.md', size: 10, isSymlink: true }, file('docs/real.md')]);
  t.deepEqual(selected, ['docs/real.md']);
  t.deepEqual(skipped, [{ path: 'docs/link.md', reason: 'symlink' }]);
  // Not even when the config names it explicitly.
  t.deepEqual(selectDocFiles([{ path: 'docs/link.md', size: 10, isSymlink: true }], { config: { folders: ['docs'] } }).selected, []);
});

test('paths that are absolute or leave the repository are never selected', (t) => {
  const bad = ['/etc/passwd.md', '../outside.md', 'docs/../../x.md', 'docs/./a.md', 'docs//a.md', 'C:/x.md', 'docs\\a.md', '', 'a\0.md'];
  for (const p of bad) t.false(isSafePath(p), p);
  const { selected, skipped } = select([...bad.filter((p) => p.endsWith('.md')), 'docs/ok.md']);
  t.deepEqual(selected, ['docs/ok.md']);
  t.true(skipped.every((s) => s.reason === 'unsafe path'));
  t.true(isSafePath('docs/..hidden.md'), 'a name starting with dots is not a parent reference');
});

test('files over the size limit are skipped (2 MB by default)', (t) => {
  const files = [file('big.md', 2 * 1024 * 1024 + 1), file('limit.md', 2 * 1024 * 1024), file('small.md', 10)];
  t.deepEqual(selectDocFiles(files).selected, ['limit.md', 'small.md']);
  t.deepEqual(selectDocFiles(files).skipped, [{ path: 'big.md', reason: 'too large' }]);
  t.deepEqual(selectDocFiles(files, { maxFileBytes: 100 }).selected, ['small.md']);
});

test('folders restrict to those prefixes; root-level files are always included (Context7)', (t) => {
  const paths = ['README.md', 'guide.md', 'docs/a.md', 'docs/sub/b.md', 'docsite/c.md', 'examples/d.md', 'website/docs/e.md'];
  t.deepEqual(kept(paths, { config: { folders: ['docs'] } }), ['README.md', 'guide.md', 'docs/a.md', 'docs/sub/b.md']);
  t.deepEqual(kept(paths, { config: { folders: ['./docs/', 'examples'] } }), ['README.md', 'guide.md', 'docs/a.md', 'docs/sub/b.md', 'examples/d.md']);
  t.is(reasonOf(paths, 'docsite/c.md', { config: { folders: ['docs'] } }), 'outside the configured folders');
  t.deepEqual(kept(paths, { config: { folders: [] } }), paths, 'an empty list means the whole repository');
});

test('excludeFolders and excludeFiles are honoured, with the pattern in the reason', (t) => {
  const paths = ['docs/a.md', 'docs/internal/b.md', 'internal/c.md', 'docs/api/internal/d.md', 'docs/x.draft.md', 'docs/NOTES.md', 'NOTES.md'];
  const config = { excludeFolders: ['internal'], excludeFiles: ['NOTES.md', '*.draft.md'] };
  t.deepEqual(kept(paths, { config }), ['docs/a.md']);
  t.is(reasonOf(paths, 'docs/api/internal/d.md', { config }), 'excluded by excludeFolders "internal"');
  t.is(reasonOf(paths, 'NOTES.md', { config }), 'excluded by excludeFiles "NOTES.md"');
  // internal/ folders are maintainers' pages by default; with that default off, only the patterns decide.
  t.is(reasonOf(paths, 'internal/c.md'), "in internal/ (maintainers' pages)");
  const only = (excludeFolders: string[]) => ({ config: { excludeFolders, defaultExclusions: { maintainerNotes: false } } });
  t.deepEqual(kept(paths, only(['docs/internal'])), ['docs/a.md', 'internal/c.md', 'docs/api/internal/d.md', 'docs/x.draft.md', 'docs/NOTES.md', 'NOTES.md']);
  t.deepEqual(kept(paths, only(['docs/**/internal'])), ['docs/a.md', 'internal/c.md', 'docs/x.draft.md', 'docs/NOTES.md', 'NOTES.md']);
  t.deepEqual(kept(paths, only(['./internal'])), ['docs/a.md', 'docs/internal/b.md', 'docs/api/internal/d.md', 'docs/x.draft.md', 'docs/NOTES.md', 'NOTES.md']);
  t.is(reasonOf(paths, 'internal/c.md', only(['./internal'])), 'excluded by excludeFolders "./internal"', 'the config pattern is the reason given');
});

test('default exclusions: changelogs', (t) => {
  const paths = [
    'CHANGELOG.md',
    'changelog.mdx',
    'packages/svelte/CHANGELOG-pre-5.md',
    'packages/vite/CHANGELOG.md',
    'CHANGES.rst',
    'HISTORY.md',
    'History.md',
    'docs/History.md',
    'NEWS.md',
    'NEWS.txt',
    'RELEASES.md',
    'history.md',
    'docs/release-notes.md',
    'RELEASE_NOTES.md',
    'HISTORY-1.x.md',
    'docs/release-notes-2.1.md',
    'doc/build/changelog/changelog_14.rst',
    'docs/changes-2.x.md',
    'docs/ok.md',
  ];
  t.deepEqual(kept(paths), ['docs/ok.md']);
  t.is(reasonOf(paths, 'History.md'), 'changelog');
});

test('changelog words in lower case inside folders are pages', (t) => {
  // zod's migration guide is content/v4/changelog.mdx; Vite documents its release policy in docs/releases.md.
  const paths = [
    'packages/docs/content/v4/changelog.mdx',
    'docs/releases.md',
    'docs/changes.rst',
    'docs/history-design-future.md',
    'docs/changes/hotupdate-hook.md',
    'docs/newsletters.md',
    'docs/release-process.md',
    'docs/dev/authors.rst',
  ];
  t.deepEqual(kept(paths), paths);
});

test("maintainers' pages are left out by default: their folders, release items, template READMEs", (t) => {
  const paths = [
    'docs/guide.md',
    'wiki/Design.md',
    'docs/internal/storage.md',
    'docs/internals/architecture.md',
    'sandbox/test-page.md',
    'rfcs/0001-x.md',
    'release-items.md',
    'docs/dev/release-checklist.md',
    'packages/create-app/template-react/README.md',
    'packages/create-app/README.md',
    'docs/community/release-process.rst',
    'docs/api/internal.md',
  ];
  t.deepEqual(kept(paths), ['docs/guide.md', 'packages/create-app/README.md', 'docs/community/release-process.rst', 'docs/api/internal.md']);
  t.is(reasonOf(paths, 'docs/internals/architecture.md'), "in internals/ (maintainers' pages)");
  t.is(reasonOf(paths, 'release-items.md'), "maintainers' notes");
  t.is(reasonOf(paths, 'packages/create-app/template-react/README.md'), "a project template's README (maintainers' pages)");
  // Naming only a parent folder does not keep them (defaults apply below it, as for the others) ...
  t.deepEqual(kept(paths, { config: { folders: ['docs'] } }), ['docs/guide.md', 'docs/community/release-process.rst', 'docs/api/internal.md']);
  // ... naming their folder does, and so does switching the default off.
  t.deepEqual(kept(paths, { config: { folders: ['docs/internals'] } }), ['docs/internals/architecture.md']);
  t.deepEqual(kept(paths, { config: { defaultExclusions: { maintainerNotes: false } } }), paths);
});

test('default exclusions: licences, codes of conduct, contributor and policy files', (t) => {
  const paths = [
    'LICENSE.md',
    'license.rst',
    'LICENSE.txt',
    'LICENSE-DOCS.md',
    'LICENCE.md',
    'COPYING.txt',
    'examples/app/LICENSE.rst',
    'CODE_OF_CONDUCT.md',
    'code-of-conduct.md',
    'docs/code_of_conduct.md',
    'src/about/coc.md',
    'CONTRIBUTING.md',
    'docs/contributing.rst',
    'COLLABORATOR_GUIDE.md',
    'AUTHORS.rst',
    'authors.md',
    'CONTRIBUTORS.md',
    'MAINTAINERS.md',
    'SECURITY.md',
    'security.md',
    'packages/x/SECURITY.md',
    'SUPPORT.md',
    'GOVERNANCE.md',
    'FUNDING.md',
    'AGENTS.md',
    'CLAUDE.md',
    'GEMINI.md',
    'docs/guide.md',
  ];
  t.deepEqual(kept(paths), ['docs/guide.md']);
  t.is(reasonOf(paths, 'LICENSE-DOCS.md'), 'licence');
  t.is(reasonOf(paths, 'src/about/coc.md'), 'code of conduct');
  t.is(reasonOf(paths, 'CONTRIBUTING.md'), 'contributor file');
  t.is(reasonOf(paths, 'SECURITY.md'), 'project policy file');
});

test('security and support pages inside the docs are pages, not policy files', (t) => {
  const paths = ['docs/security.md', 'src/content/pages/en/support.mdx', 'docs/advanced/best-practice-security.md'];
  t.deepEqual(kept(paths), paths);
});

test('default exclusions: .txt files that are not prose', (t) => {
  const paths = [
    'requirements.txt',
    'requirements-dev.txt',
    'docs/requirements.txt',
    'dev-requirements.txt',
    'requirements/docs.txt',
    'robots.txt',
    'public/robots.txt',
    'CMakeLists.txt',
    'yarn.lock.txt',
    'project-words.txt',
    'constraints.txt',
    'static/hello.txt',
    'docs/guide.txt',
    'llms.txt',
    'README.txt',
  ];
  t.deepEqual(kept(paths), ['docs/guide.txt', 'llms.txt', 'README.txt']);
  t.is(reasonOf(paths, 'robots.txt'), 'not documentation');
  t.deepEqual(kept(['requirements/docs.md']), ['requirements/docs.md'], 'only .txt files of data folders are skipped');
});

test('default exclusions: archived, deprecated, legacy and old folders', (t) => {
  const paths = [
    'archive/a.md',
    'docs/archived/b.md',
    'docs/deprecated/c.md',
    'docs/legacy/d.md',
    'docs/old/e.md',
    'outdated/f.md',
    'legacy-docs/g.md',
    'docs/99-legacy/h.md',
    'docs-archive/i.md',
    'previous/j.md',
    'superseded/k.md',
    'old-versions/l.md',
    'docs/ok.md',
  ];
  t.deepEqual(kept(paths), ['docs/ok.md']);
  t.regex(reasonOf(paths, 'docs/legacy/d.md') ?? '', /archived or deprecated/);
});

test('packages that merely have such a word in their name are kept', (t) => {
  const paths = ['packages/plugin-legacy/README.md', 'docs/deprecations.md', 'docs/archiver-streams/a.md', 'docs/golden/b.md', 'docs/bold/c.md'];
  t.deepEqual(kept(paths), paths);
});

test('default exclusions: dependencies, build output, tooling and tests', (t) => {
  const paths = [
    'node_modules/x/README.md',
    'packages/a/node_modules/y/README.md',
    'vendor/lib/README.md',
    'third_party/z/README.md',
    'lib/python3.12/site-packages/p/README.md',
    '.git/x.md',
    '.github/ISSUE_TEMPLATE/bug.md',
    '.changeset/README.md',
    '.claude/skills/x/SKILL.md',
    'pkg/.agents/skills/y.md',
    'docs/.vitepress/theme/a.md',
    'dist/README.md',
    'packages/a/dist/README.md',
    'build/x.md',
    'packages/a/build/y.md',
    'out/z.md',
    'docs/_build/html/_sources/i.rst.txt',
    'tests/README.md',
    'test/fixtures/a.md',
    'src/__tests__/fixtures/b.md',
    '__fixtures__/c.md',
    'src/__snapshots__/d.md',
    'pkg/testdata/e.md',
    'playground/ssr/README.md',
    'x.egg-info/PKG-INFO.txt',
    'doc/build/changelog/unreleased_20/123.rst',
    'docs/guide.md',
  ];
  t.deepEqual(kept(paths), ['docs/guide.md']);
  t.is(reasonOf(paths, '.github/ISSUE_TEMPLATE/bug.md'), 'in .github/ (hidden folder)');
  t.is(reasonOf(paths, 'dist/README.md'), 'in dist/ (excluded by default)');
});

test('doc/build holds sources when a docs folder keeps them there (SQLAlchemy)', (t) => {
  t.deepEqual(kept(['doc/build/orm/quickstart.rst', 'docs/build/a.md', 'build/b.md']), ['doc/build/orm/quickstart.rst', 'docs/build/a.md']);
});

test('generated pages that the docs include are kept (Svelte .generated/)', (t) => {
  t.deepEqual(kept(['documentation/docs/98-reference/.generated/client-errors.md']), ['documentation/docs/98-reference/.generated/client-errors.md']);
});

test('fixtures outside test folders are kept: the rule stays conservative', (t) => {
  t.deepEqual(kept(['docs/fixtures.md', 'examples/fixtures/README.md', 'docs/testing.md']), [
    'docs/fixtures.md',
    'examples/fixtures/README.md',
    'docs/testing.md',
  ]);
});

test('folders that name an excluded folder explicitly waive the default exclusion', (t) => {
  const paths = ['docs/legacy/a.md', 'docs/zh/b.md', 'docs/en/c.md', 'docs/v1/d.md', 'docs/v2/e.md', 'docs/guide.md'];
  t.deepEqual(kept(paths, { config: { folders: ['docs/legacy'] } }), ['docs/legacy/a.md']);
  t.deepEqual(kept(paths, { config: { folders: ['docs/zh'] } }), ['docs/zh/b.md']);
  t.deepEqual(kept(paths, { config: { folders: ['docs/v1'] } }), ['docs/v1/d.md']);
  // Naming only the parent does not: defaults still apply below it.
  t.deepEqual(kept(paths, { config: { folders: ['docs'] } }), ['docs/en/c.md', 'docs/v2/e.md', 'docs/guide.md']);
  // A folders entry naming a file includes it despite the default file exclusions.
  t.deepEqual(kept(['docs/CHANGELOG.md', 'CHANGELOG.md'], { config: { folders: ['docs/CHANGELOG.md'] } }), ['docs/CHANGELOG.md']);
  // excludeFolders still wins over folders.
  t.deepEqual(kept(paths, { config: { folders: ['docs/legacy'], excludeFolders: ['legacy'] } }), []);
});

test('selection is deterministic and fast on a large tree', (t) => {
  const paths: string[] = [];
  for (let i = 0; i < 50_000; i++) paths.push(`packages/p${i % 500}/${i % 3 === 0 ? 'docs' : 'src'}/f${i}.${i % 2 ? 'md' : 'ts'}`);
  const { value: first, ms } = cpuMs(() => select(paths));
  t.true(ms < 2000, `${ms.toFixed(0)} ms of CPU`);
  t.deepEqual(select(paths), first);
});

test('defaultExclusions switches off the default exclusions of non-doc pages kind by kind', (t) => {
  const paths = [
    'src/SUMMARY.md',
    'TODO.md',
    'docs/listings/output.txt',
    'docs/sample-data/notes.md',
    'CHANGELOG.md',
    'docs/release-notes-2.0.md',
    'docs/guide.md',
    'LICENSE.md',
  ];
  t.deepEqual(kept(paths), ['docs/guide.md']);
  t.is(reasonOf(paths, 'docs/listings/output.txt'), 'output listing');
  t.is(reasonOf(paths, 'docs/sample-data/notes.md'), 'in sample-data/ (sample data)');
  t.deepEqual(kept(paths, { config: { defaultExclusions: { navigation: false, releaseNotes: false } } }), [
    'src/SUMMARY.md',
    'CHANGELOG.md',
    'docs/release-notes-2.0.md',
    'docs/guide.md',
  ]);
  t.deepEqual(kept(paths, { config: { defaultExclusions: { maintainerNotes: false, outputListings: false, sampleData: false } } }), [
    'TODO.md',
    'docs/listings/output.txt',
    'docs/sample-data/notes.md',
    'docs/guide.md',
  ]);
  // The licence is not a switchable kind: it stays out.
  t.is(
    reasonOf(paths, 'LICENSE.md', {
      config: {
        defaultExclusions: { navigation: false, maintainerNotes: false, outputListings: false, sampleData: false, releaseNotes: false, redirectStubs: false },
      },
    }),
    'licence',
  );
});
