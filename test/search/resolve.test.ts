/**
 * Resolve precision (GET /v2/libs/search and MCP resolve-library-id) on the real app:
 * only libraries whose name, id or alias matches are answers; an unknown name is 404
 * `no_libraries_found` even when some library's docs mention the words; padding after the
 * real matches is cut; a single name match costs no Elasticsearch search.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey, countCalls } from '../helpers';
import { catalogDocument } from '../../src/search/catalog-document';
import { catalogEntryOf } from '../../src/catalog/catalog-entry';
import { inProcessBackend } from '../../src/mcp/backends/in-process';
import { resolveLibraryIdTool } from '../../src/mcp/tools/resolve-library-id';

let git: GitServer;
let app: TestApp;

// The widgets docs talk about Django, Prisma and HTTP clients: words of names we do not have.
const WIDGETS = `# Widgets

Widgets render panels. Use them from Django templates, with a Prisma data layer, or behind any
Python HTTP client; the Django integration registers a template tag.

## Django integration

\`\`\`python
INSTALLED_APPS = ["django.contrib.admin", "widgets.django"]
\`\`\`
`;
const GADGETS = `# Gadgets\n\nGadgets are small tools for dashboards.\n\n## Install\n\n\`\`\`sh\nnpm install gadgets\n\`\`\`\n`;
const KIT = `# Widget kit\n\nA kit of extra widgets: charts and tables.\n\n## Tables\n\n\`\`\`js\nkit.table({ rows })\n\`\`\`\n`;
const OTHER = `# Sprockets\n\nSprockets turn gears for the widgets organisation.\n\n## Usage\n\n\`\`\`js\nsprocket.turn({ teeth: 12 })\n\`\`\`\n`;

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/widgets', [{ files: { 'docs/guide.md': WIDGETS } }]);
  createRepo(git.root, 'acme/gadgets', [{ files: { 'docs/guide.md': GADGETS } }]);
  createRepo(git.root, 'acme/widget-kit', [{ files: { 'docs/guide.md': KIT } }]);
  // Only its owner is called "widgets": a weak match, padding beside /acme/widgets.
  createRepo(git.root, 'widgets/sprockets', [{ files: { 'docs/guide.md': OTHER } }]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url });
  const key = await adminKey(app);
  for (const repo of ['acme/widgets', 'acme/gadgets', 'acme/widget-kit', 'widgets/sprockets']) {
    const res = await app.request
      .post('/v2/add/repo/github')
      .set('authorization', `Bearer ${key}`)
      .send({ docsRepoUrl: `${git.url}/${repo}` });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const search = (libraryName: string, query?: string) => app.request.get('/v2/libs/search').query(query ? { libraryName, query } : { libraryName });

test('a name no library has is 404 no_libraries_found, even when docs mention it', async (t) => {
  for (const [name, query] of [
    ['django', 'django template tag'],
    ['prisma', 'prisma data layer'],
    ['python http client', 'http client'],
    ['nextjs', undefined],
  ] as const) {
    const res = await search(name, query);
    t.is(res.status, 404, name);
    t.is(res.body.error, 'no_libraries_found', name);
    t.deepEqual(Object.keys(res.body).sort(), ['error', 'message']);
    t.notRegex(res.body.message, /\/acme\//, `${name}: no unrelated library is named`);
  }
});

test('a near name is suggested in the 404 message, never answered', async (t) => {
  const res = await search('gadjetz');
  t.is(res.status, 404);
  t.regex(res.body.message, /No libraries match "gadjetz"\. Libraries with a similar name: \/acme\/gadgets\./);
});

test('only name matches answer; content reorders but never adds', async (t) => {
  const res = await search('gadgets', 'django template tag');
  t.is(res.status, 200);
  t.deepEqual(
    res.body.results.map((r: { id: string }) => r.id),
    ['/acme/gadgets'],
  );
  const typo = await search('gadgts');
  t.deepEqual(
    typo.body.results.map((r: { id: string }) => r.id),
    ['/acme/gadgets'],
    'a one-letter typo still resolves',
  );
  const both = await search('widget', 'charts and tables');
  t.is(both.status, 200);
  t.deepEqual(
    both.body.results.map((r: { id: string }) => r.id),
    ['/acme/widget-kit', '/acme/widgets'],
    'two name matches, the one whose docs answer first',
  );
});

test('padding after the real matches is cut', async (t) => {
  const res = await search('widgets');
  t.deepEqual(
    res.body.results.map((r: { id: string }) => r.id),
    ['/acme/widgets'],
    'the owner-only match is cut beside the exact name',
  );
  const owner = await search('widgets/sprockets');
  t.is(owner.body.results[0].id, '/widgets/sprockets');
});

// Serial (AVA runs serial tests before the concurrent ones), so no other search is counted.
test.serial('a single name match asks Elasticsearch nothing; several ask once', async (t) => {
  const counter = countCalls(app.services.snippets, 'searchHits');
  try {
    t.is((await search('gadgets', 'install gadgets')).status, 200);
    t.is(counter.calls(), 0);
    t.is((await search('widget', 'charts')).status, 200);
    t.is(counter.calls(), 1);
  } finally {
    counter.restore();
  }
});

test.serial('an answer (a 404 too) is remembered until the catalogue changes; a change answers anew at once on this instance', async (t) => {
  const counter = countCalls(app.services.catalogIndex, 'search');
  const calls = () => counter.calls();
  try {
    const first = await search('widget', 'tables');
    const before = calls();
    t.true(before >= 1);
    const again = await search('widget', 'tables');
    t.deepEqual(again.body, first.body, 'the same answer');
    t.is(calls(), before, 'remembered: no catalogue query');
    t.is((await search('widget', 'panels and templates')).status, 200);
    t.true(calls() > before, 'another question is another answer');
    t.is((await search('gizmos')).status, 404);
    const missed = calls();
    t.is((await search('gizmos')).status, 404);
    t.is(calls(), missed, 'a 404 is remembered too');
    // A library record changes (an alias added): the generation moves and the name is found.
    await app.services.libraries.modify('/acme/gadgets', () => ({ aliases: ['gizmos'] }));
    const found = await search('gizmos');
    t.is(found.status, 200);
    t.is(found.body.results[0].id, '/acme/gadgets');
    t.true(calls() > missed);
  } finally {
    counter.restore();
    await app.services.libraries.modify('/acme/gadgets', () => ({ aliases: [] }));
  }
});

test.serial('a remembered answer is not served once this process wrote the catalogue index, before any generation moved', async (t) => {
  // A record write moves the generation first and writes its catalogue document after: an
  // answer computed between the two must not outlive the document's write.
  t.is((await search('doohickeys')).status, 404);
  const record = await app.services.libraries.get('/acme/gadgets', { fresh: true });
  if (!record) throw new Error('gadgets missing');
  const entry = catalogEntryOf(record);
  try {
    await app.services.catalogIndex.put([catalogDocument({ ...entry, summary: { ...entry.summary, aliases: ['doohickeys'] } })]);
    const found = await search('doohickeys');
    t.is(found.status, 200);
    t.is(found.body.results[0].id, '/acme/gadgets');
  } finally {
    await app.services.catalogIndex.put([catalogDocument(entry)]);
  }
});

test('MCP resolve-library-id follows: no unrelated library, near names as suggestions', async (t) => {
  const backend = inProcessBackend(app.services, { kind: 'anonymous', clientId: 'test' });
  const none = await resolveLibraryIdTool.run({ libraryName: 'django', query: 'django template tag' }, backend);
  t.regex(String(none), /Nothing on this Shelfmark server matches "django"\./);
  t.notRegex(String(none), /\/acme\//);
  const near = await resolveLibraryIdTool.run({ libraryName: 'gadjetz' }, backend);
  t.regex(String(near), /Libraries with a similar name: \/acme\/gadgets\. Use one only if it is the library the user meant\./);
  const found = await resolveLibraryIdTool.run({ libraryName: 'gadgets' }, backend);
  t.regex(String(found), /Context7-compatible library ID: \/acme\/gadgets/);
  t.notRegex(String(found), /\/acme\/widgets/);
});
