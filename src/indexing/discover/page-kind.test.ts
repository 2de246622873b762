import test from 'ava';
import { classifyPage, pageVersion, withPageKind, type PageFacts, type PageKind } from './page-kind';

const kind = (path: string, over: Partial<PageFacts> = {}) => classifyPage({ path, title: 'Page', headings: [], text: '', ...over });

test("the kind from the path: reference, examples, error catalogues, changelogs, migration guides, posts, maintainers' pages; else a guide", (t) => {
  const cases: [string, PageKind][] = [
    ['docs/guide/routing.md', 'guide'],
    ['README.md', 'guide'],
    ['docs/api/context.md', 'reference'],
    ['docs/reference/config.md', 'reference'],
    ['docs/api.md', 'reference'],
    ['docs/api-reference.md', 'reference'],
    ['examples/basic/README.md', 'example'],
    ['docs/recipes/caching.md', 'example'],
    ['CHANGELOG.md', 'changelog'],
    ['docs/release-notes-2.1.md', 'changelog'],
    ['doc/build/changelog/changelog_14.rst', 'changelog'],
    ['doc/build/changelog/whatsnew_20.rst', 'changelog'],
    ['docs/migration-v2-to-v3.md', 'migration'],
    ['docs/migrating_to_9.md', 'migration'],
    ['docs/07-misc/07-v5-migration-guide.md', 'migration'],
    ['docs/upgrade-guides.md', 'migration'],
    ['blog/2024-01-01-launch.md', 'blog'],
    ['src/content/news/v3.md', 'blog'],
    ['wiki/Design.md', 'internal'],
    ['docs/internals/architecture.md', 'internal'],
    ['release-items.md', 'internal'],
    ['TODO.md', 'internal'],
    ['packages/create-app/template-react/README.md', 'internal'],
    // A catalogue of error or warning messages, named so as a file or a folder; a guide about handling errors is not one.
    ['documentation/docs/98-reference/.generated/compile-errors.md', 'errors'],
    ['documentation/docs/98-reference/30-compiler-warnings.md', 'errors'],
    ['packages/svelte/messages/client-errors/errors.md', 'errors'],
    ['packages/svelte/messages/compile-errors/template.md', 'errors'],
    ['docs/errors/usage_errors.md', 'errors'],
    ['doc/build/errors.rst', 'errors'],
    ['src/content/errors/377.md', 'errors'],
    ['src/error-reference/index.md', 'errors'],
    ['docs/error-handling.md', 'guide'],
    ['docs/en/docs/tutorial/handling-errors.md', 'guide'],
    ['packages/docs/content/error-customization.mdx', 'guide'],
    ['src/content/reference/eslint-plugin-react-hooks/lints/error-boundaries.md', 'reference'],
  ];
  for (const [path, expected] of cases) t.is(kind(path), expected, path);
});

test('words inside other words do not make a migration guide ("importing", "reporting")', (t) => {
  t.is(kind('src/content/learn/importing-and-exporting-components.md'), 'guide');
  t.is(kind('src/content/blog/2025-06-05-vulnerability-reporting-process-overhaul.md'), 'blog');
  t.is(kind('docs/porting-guide.md'), 'migration');
});

test('the kind from the title, the front matter and version headings', (t) => {
  t.is(kind('docs/x.md', { title: 'Migrating to Mongoose 9' }), 'migration');
  t.is(kind('docs/x.md', { title: 'Breaking changes in 5.0' }), 'migration');
  t.is(kind('docs/x.md', { title: 'Release notes' }), 'changelog');
  t.is(kind('docs/x.md', { title: "What's new in 2.0" }), 'changelog');
  // A post: a date and an author in the front matter (a date alone is not enough).
  t.is(kind('docs/x.md', { text: '---\ndate: 2024-01-01\nauthors: [ann]\n---\nHello' }), 'blog');
  t.is(kind('docs/x.md', { text: '---\ndate: 2024-01-01\n---\nHello' }), 'guide');
  // Most headings are versions: a changelog whatever its name.
  t.is(kind('docs/history-of-x.md', { headings: ['3.1.0', 'v2.0.0 (2024-01-02)', 'Version 1.0', 'Notes'] }), 'changelog');
  t.is(kind('docs/x.md', { headings: ['3.1.0', '3.0.0', '2.0.0', 'Install', 'Usage', 'API', 'FAQ'] }), 'guide', 'a few version headings among many');
  t.is(kind('docs/x.md', { headings: ['2.0.0', '1.0.0'] }), 'guide', 'two are not enough');
  t.is(kind('docs/x.md', { title: 'Error messages' }), 'errors');
  t.is(kind('docs/errors.md', { title: 'Migrating from v1' }), 'migration', 'a migration guide stays one');
  // Maintainers' pages win over everything else.
  t.is(kind('wiki/Changelog.md', { title: 'Changelog' }), 'internal');
});

test('pageVersion: the version a changelog or migration guide is about', (t) => {
  const cases: [string, string, string | undefined][] = [
    ['docs/migration-v2-to-v3.md', '', '3'],
    ['docs/migrating_to_9.md', '', '9'],
    ['doc/build/changelog/whatsnew_20.rst', '', '2.0'],
    ['doc/build/changelog/migration_14.rst', '', '1.4'],
    ['packages/docs/content/v4/changelog.mdx', 'Migration guide', '4'],
    ['docs/guide/upgrading.md', 'Migrating to Mongoose 9', '9'],
    ['docs/v5-migration-guide.md', '', '5'],
    ['docs/release-notes-2.1.md', '', '2.1'],
    // An ordering prefix is not a version.
    ['documentation/docs/07-misc/07-v5-migration-guide.md', 'Svelte 5 migration guide', '5'],
    // The version it leads to, not the one it leaves.
    ['docs/how-to/migrate-from-pydantic-v1-to-pydantic-v2.md', '', '2'],
    ['docs/migration.md', 'Migrating from Koa v1.x to v2.x', '2'],
    ['docs/guide/migration.md', 'Migration from v7', '8'],
    ['docs/migration.md', 'Migrating from 3.x to 4.x', '4'],
    ['docs/upgrade.md', 'Upgrading to 2.x', '2'],
    ['doc/build/changelog/migration_20.rst', 'SQLAlchemy 2.0 - Major Migration Guide', '2.0'],
    ['docs/x.md', '3.0 Migration Guide', '3.0'],
    ['CHANGELOG.md', 'Changelog', undefined],
    ['docs/migration.md', 'Migration guide', undefined],
  ];
  for (const [path, title, expected] of cases) t.is(pageVersion({ path, title }), expected, `${path} "${title}"`);
});

test('withPageKind gives every snippet of a page its kind, and the version only to changelogs and migration guides', (t) => {
  const snippets = [
    { pageTitle: 'Migrating from 8.x to 9.x', title: 'Migrating from 8.x to 9.x' },
    { pageTitle: 'Migrating from 8.x to 9.x', title: 'Removed callbacks' },
  ];
  t.deepEqual(
    withPageKind('docs/migrating_to_9.md', '', snippets),
    snippets.map((s) => ({ ...s, pageKind: 'migration', pageVersion: '9' })),
  );
  t.deepEqual(
    withPageKind('docs/v4/guide.md', '', [{ pageTitle: 'Guide', title: 'Guide' }]),
    [{ pageTitle: 'Guide', title: 'Guide', pageKind: 'guide' }],
    'a guide in v4/ has no page version',
  );
  t.deepEqual(withPageKind('docs/guide.md', '', []), []);
  // The headings it judges are the snippets' titles below the page title.
  const history: { pageTitle: string; title: string; pageKind?: PageKind }[] = ['3.1.0', '3.0.0', '2.0.0'].map((title) => ({
    pageTitle: 'Project history',
    title,
  }));
  t.is(withPageKind('docs/project.md', '', history)[0].pageKind, 'changelog');
});
