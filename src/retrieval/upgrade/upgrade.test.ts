import test from 'ava';
import { classifyNote, notesBetween, sectionVersion, summaryNotes, type GuideSnippet } from './notes';
import { apiSymbols, diffApis, symbolOfHeading } from './api-diff';
import { packPages, upgradeGuidePage } from './pages';

let line = 0;
const doc = (over: Partial<GuideSnippet>): GuideSnippet => ({
  id: `s${++line}`,
  kind: 'info',
  title: over.breadcrumb?.at(-1) ?? 'T',
  breadcrumb: [],
  pageTitle: 'P',
  description: '',
  content: '',
  code: '',
  language: '',
  path: 'docs/x.md',
  url: `https://h/x.md#L${line}`,
  startLine: line,
  tokens: 50,
  pageKind: 'guide',
  ...over,
});

test('the version a changelog heading names', (t) => {
  t.is(sectionVersion({ breadcrumb: ['Changes', 'Version 3.1.0'], title: 'Version 3.1.0' }), '3.1.0');
  t.is(sectionVersion({ breadcrumb: ['Changelog', 'v2.0.0 (2024-01-02)', 'Bug fixes'], title: 'Bug fixes' }), '2.0.0');
  t.is(sectionVersion({ breadcrumb: ['Changelog', 'Unreleased'], title: 'Unreleased' }), undefined);
});

test('notes between two versions: migration guides by the version they lead to, changelog sections in (from, to]', (t) => {
  const docs = [
    doc({
      pageKind: 'migration',
      pageVersion: '3',
      path: 'docs/migration-v2-to-v3.md',
      breadcrumb: ['Migrating to v3', 'Breaking Changes', 'Redirect Changes'],
      content: "`res.redirect('back')` has been removed.",
    }),
    doc({ pageKind: 'migration', pageVersion: '2', path: 'docs/migration-v1-to-v2.md', breadcrumb: ['Migrating to v2', 'Generators'] }),
    doc({
      pageKind: 'changelog',
      path: 'CHANGES.md',
      breadcrumb: ['Changes', 'Version 3.0.0'],
      content: '- Drop support for Node 16.\n- Fix a typo in the docs.',
    }),
    doc({ pageKind: 'changelog', path: 'CHANGES.md', breadcrumb: ['Changes', 'Version 2.16.4'], content: '- Fix something old.' }),
    doc({ pageKind: 'changelog', path: 'CHANGES.md', breadcrumb: ['Changes', 'Version 3.3.0'], content: '- Later.' }),
    doc({ pageKind: 'guide', breadcrumb: ['Guide', 'Routing'] }),
  ];
  const { guides, releaseNotes } = notesBetween(docs, '2.16.4', '3.2.0');
  t.deepEqual(
    guides.map((g) => g.breadcrumb.at(-1)),
    ['Redirect Changes'],
    'the guide to 2 is an earlier upgrade',
  );
  t.deepEqual(
    releaseNotes.map((g) => g.breadcrumb.at(-1)),
    ['Version 3.0.0'],
    '2.16.4 itself and 3.3.0 lie outside (2.16.4, 3.2.0]',
  );
  const { notes, otherReleaseNotes } = summaryNotes(guides, releaseNotes);
  t.deepEqual(
    notes.map((n) => [n.kind, n.text.slice(0, 30)]),
    [
      ['breaking', 'Redirect Changes: `res.redirec'],
      ['breaking', 'Drop support for Node 16.'],
    ],
  );
  t.is(otherReleaseNotes, 1, 'the fix is counted, not listed');
  // A section both versions hold is taken once (the later version's, listed first).
  const twice = notesBetween([docs[0]!, { ...docs[0]!, id: 'other', url: 'https://h/old' }], '2.0.0', '3.0.0');
  t.is(twice.guides.length, 1);
  t.is(twice.guides[0]!.url, docs[0]!.url);
});

test('notes are classified by their heading path and words', (t) => {
  t.is(classifyNote('Node.js Version Requirement', ['Guide', 'Breaking Changes']), 'breaking');
  t.is(classifyNote('deprecates .merge(): use .extend()'), 'deprecated');
  t.is(classifyNote('A codemod zod-v3-to-v4 is available'), 'codemod');
  t.is(classifyNote('AsyncLocalStorage Support', ['Guide', 'New Features']), 'new');
  t.is(classifyNote('The dev server starts faster'), 'change');
  t.is(classifyNote('This long-deprecated alias has been removed'), 'breaking', 'removed wins over a mention of deprecation');
});

test('API symbols: headings that read as code, HTTP operations; prose headings are not API', (t) => {
  t.deepEqual(symbolOfHeading('ctx.cookies.set(name, value, [options])'), { key: 'ctx.cookies.set', signature: 'ctx.cookies.set(name, value, [options])' });
  t.deepEqual(symbolOfHeading('`server.port`'), { key: 'server.port', signature: 'server.port' });
  t.deepEqual(symbolOfHeading('request.header='), { key: 'request.header=', signature: 'request.header=' });
  t.deepEqual(symbolOfHeading('GET /users/{id}'), { key: 'GET /users/{id}', signature: 'GET /users/{id}' });
  t.deepEqual(symbolOfHeading('`Router`'), { key: 'Router', signature: 'Router' });
  t.is(symbolOfHeading('Getting started'), undefined);
  t.is(symbolOfHeading('Strings'), undefined);
  t.is(symbolOfHeading('Getting started (beta)'), undefined);
});

test('the API diff: added, removed, changed signature, newly deprecated; only reference-like pages count', (t) => {
  const ref = (heading: string, content = '', path = 'docs/api/response.md') =>
    doc({ pageKind: 'reference', path, breadcrumb: ['Response', heading], content });
  const from = apiSymbols([
    ref('response.redirect(url, [alt])'),
    ref('response.body'),
    ref('response.attachment([filename])'),
    doc({ breadcrumb: ['Guide', 'app.use(fn)'] }),
  ]);
  const to = apiSymbols([
    ref('response.redirect(url)'),
    ref('response.body', 'Deprecated: use ctx.body.'),
    ref('response.back(url)'),
    ref('server.port', '', 'docs/config/server-options.md'),
  ]);
  t.false(from.has('app.use'), 'a guide page is not API reference');
  const diff = diffApis(from, to);
  t.deepEqual(
    diff.added.map((s) => s.key),
    ['response.back', 'server.port'],
  );
  t.deepEqual(
    diff.removed.map((s) => s.key),
    ['response.attachment'],
  );
  t.deepEqual(diff.changed, [{ key: 'response.redirect', from: 'response.redirect(url, [alt])', to: 'response.redirect(url)', url: diff.changed[0]!.url }]);
  t.deepEqual(
    diff.deprecated.map((s) => s.key),
    ['response.body'],
  );
  t.deepEqual(diff.counted, { from: 3, to: 4 });
});

test('pages: page 1 the summary within the budget, later pages whole sections, past the last an empty page', (t) => {
  const count = (s: string) => Math.ceil(s.length / 4);
  t.deepEqual(
    packPages(['a'.repeat(400), 'b'.repeat(400), 'c'.repeat(2000)], 250, count).map((p) => p.length),
    [2, 1],
    'whole units; one larger than a page gets its own',
  );
  const guides = Array.from({ length: 30 }, (_, i) =>
    doc({
      pageKind: 'migration',
      pageVersion: '9',
      breadcrumb: ['Migrating to 9', `Removed option number ${i}`],
      content: `The option ${i} was removed. ${'More words. '.repeat(30)}`,
    }),
  );
  const { notes, otherReleaseNotes } = summaryNotes(guides, []);
  const parts = {
    libraryId: '/a/b',
    from: { version: '8.0.0', commit: 'a'.repeat(40), indexedAt: '2026-01-01T00:00:00.000Z' },
    to: { version: '9.0.0', commit: 'b'.repeat(40), indexedAt: '2026-02-01T00:00:00.000Z' },
    guides,
    releaseNotes: [],
    notes,
    otherReleaseNotes,
    diff: diffApis(new Map(), new Map()),
    missing: ['No release notes are indexed.'],
  };
  const first = upgradeGuidePage(parts, 1, 400, count);
  t.true(first.tokens <= 400, `page 1 holds ${first.tokens} tokens`);
  t.regex(first.text, /^# Upgrading \/a\/b from 8\.0\.0 to 9\.0\.0\n\nDocs: from 8\.0\.0 @ aaaaaaaaaaaa \(indexed 2026-01-01\) to 9\.0\.0 @ bbbbbbbbbbbb/);
  t.regex(first.text, /## Breaking changes \(30\)\n- Removed option number 0: The option 0 was removed\./);
  t.regex(first.text, /- \.\.\. and \d+ more \(on the detail pages\)/);
  t.true(first.totalPages > 2);
  const second = upgradeGuidePage(parts, 2, 400, count);
  t.regex(
    second.text,
    new RegExp(`^# Upgrading /a/b from 8\\.0\\.0 to 9\\.0\\.0 \\(page 2 of ${first.totalPages}\\)\\n\\n### Migrating to 9 > Removed option number 0`),
  );
  t.regex(upgradeGuidePage(parts, 99, 400, count).text, new RegExp(`There is no page 99: the guide has ${first.totalPages} pages\\.`));
});
