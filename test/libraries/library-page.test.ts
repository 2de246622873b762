/**
 * What a library's page needs from the API (issue 31), against the real stores, the in-process
 * worker and a local Git server: the team's policy said for every library (list, page, search,
 * MCP), title and description edited and kept across builds, a webhook removed, the snippet
 * browser (words, kind, page, version, facets, paging), and descriptions from the project's
 * own summary through a real build.
 */
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, commitToRepo, type GitServer } from '../git-server';
import { adminKey, makeUser, bearer, type TestUser } from '../auth/fixtures';

let git: GitServer;
let app: TestApp;
let admin: string;
let member: TestUser;

const GUIDE = `# Widgets guide

Widgets are small reusable parts for web pages.

## Creating a widget

Call \`createWidget()\` with a name to make a new widget:

\`\`\`js
import { createWidget } from 'widgets';
const w = createWidget('spinner', { size: 3 });
\`\`\`

## Deleting a widget

Use \`w.destroy()\` to free its resources when it is no longer needed.

\`\`\`js
w.destroy();
\`\`\`
`;

// react.dev's README shape: a note about the repository, then contributing guidelines.
const DOCS_SITE_README = `# gadgets.dev

This repo contains the source code and documentation powering [gadgets.dev](https://gadgets.dev/).

## Contributing

### Guidelines

The documentation is divided into several sections with a different tone and purpose. If you plan to write more than a few sentences, read the contributing guidelines first.
`;

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/widgets', [
    { files: { 'README.md': '# Widgets\n\nA widget toolkit for the web.\n', 'docs/guide.md': GUIDE.replace('spinner', 'old-spinner') }, tag: 'v1.0.0' },
    {
      files: {
        'README.md': '# Widgets\n\nA widget toolkit for the web.\n',
        'docs/guide.md': GUIDE,
        'docs/api.md': '# API\n\n## widget.start()\n\nStarts the widget animation loop.\n\n```ts\nstart(): void\n```\n',
      },
      tag: 'v2.0.0',
    },
  ]);
  createRepo(git.root, 'acme/gadgets', [
    {
      files: {
        'README.md': DOCS_SITE_README,
        'src/index.md': '---\ntitle: Gadgets - Small parts for big dashboards\n---\n\n<Home />\n',
        'src/learn/intro.md': '# Intro\n\nGadgets are parts for dashboards.\n',
      },
    },
  ]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url, GIT_ALLOWED_URL_PREFIXES: `${git.url}/` });
  admin = await adminKey(app);
  for (const repo of ['acme/widgets', 'acme/gadgets']) {
    const res = await app.request
      .post('/v2/add/repo/github')
      .set(bearer(admin))
      .send({ docsRepoUrl: `${git.url}/${repo}` });
    if (res.status !== 200) throw new Error(`${repo}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const v1 = await app.request.post('/v2/refresh').set(bearer(admin)).send({ libraryName: '/acme/widgets/v1.0.0' });
  if (v1.status !== 200) throw new Error(`v1: ${v1.status} ${JSON.stringify(v1.body)}`);
  // A member whose team may use only /acme/widgets.
  member = await makeUser(app, { plan: 'pro', teamRole: 'member' });
  const policy = await app.request
    .patch('/v2/policies')
    .set(bearer(admin))
    .query({ teamId: member.teamId })
    .send({ libraryFilters: { mode: 'select', allowedLibraries: ['/acme/widgets'] } });
  if (policy.status !== 200) throw new Error(`policy: ${JSON.stringify(policy.body)}`);
});

test.after.always(async () => {
  await app?.close();
  await git?.close();
});

test('the list says which libraries the caller may use under its team policy, and how many it hides', async (t) => {
  const mine = await app.request.get('/v2/libraries').set(bearer(member.key));
  t.is(mine.status, 200);
  t.true(mine.body.policyApplied);
  t.is(mine.body.hiddenByPolicy, 1);
  const usable = Object.fromEntries(mine.body.libraries.map((l: { id: string; usable: boolean }) => [l.id, l.usable]));
  t.deepEqual(usable, { '/acme/widgets': true, '/acme/gadgets': false });
  const all = await app.request.get('/v2/libraries').set(bearer(admin));
  t.false(all.body.policyApplied);
  t.is(all.body.hiddenByPolicy, 0);
});

test("a library the member's policy excludes: its page is 403 access_denied (as context), an admin's page says it is not usable", async (t) => {
  const denied = await app.request.get('/v2/libraries/acme/gadgets').set(bearer(member.key));
  t.is(denied.status, 403);
  t.is(denied.body.error, 'access_denied');
  t.is((await app.request.get('/v2/libraries/acme/widgets').set(bearer(member.key))).body.usable, true);
  t.is((await app.request.get('/v2/libraries/acme/gadgets').set(bearer(admin))).body.usable, true);
  const browse = await app.request.get('/v2/libraries/acme/gadgets/snippets').set(bearer(member.key));
  t.is(browse.status, 403, 'the snippet browser refuses it too');
});

test("search says a matching name is hidden by the team's policy, over HTTP and MCP", async (t) => {
  const res = await app.request.get('/v2/libs/search').set(bearer(member.key)).query({ libraryName: 'gadgets' });
  t.is(res.status, 404);
  t.is(res.body.error, 'no_libraries_found');
  t.regex(res.body.message, /policy hides the library with this name: \/acme\/gadgets/);
  t.deepEqual(res.body.hiddenByPolicy, ['/acme/gadgets']);
  const unknown = await app.request.get('/v2/libs/search').set(bearer(member.key)).query({ libraryName: 'zzzqqq' });
  t.notRegex(unknown.body.message, /policy/, 'a name nobody has is still "no match"');

  const server = http.createServer(app.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new Client({ name: 'test', version: '1.0.0' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), {
        requestInit: { headers: { SHELFMARK_API_KEY: member.key } },
      }),
    );
    const result = (await client.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'gadgets', query: 'dashboards' } })) as {
      content: Array<{ text: string }>;
    };
    t.regex(result.content[0].text, /policy hides \/acme\/gadgets[\s\S]*ask a team admin to allow it/);
  } finally {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('the description comes from the project summary, never a contributing guide, through a real build', async (t) => {
  const gadgets = await app.request.get('/v2/libraries/acme/gadgets').set(bearer(admin));
  t.is(gadgets.body.description, 'Small parts for big dashboards', 'the docs home page, since the README has no summary');
  t.notRegex(gadgets.body.description, /contribut|divided into several sections/i);
  t.is(gadgets.body.title, 'gadgets.dev');
  const resolved = await app.request.get('/v2/libs/search').set(bearer(admin)).query({ libraryName: 'gadgets.dev' });
  t.is(resolved.body.results[0].description, 'Small parts for big dashboards', 'and that is what resolve hands assistants');
});

test('title and description set by an admin stay across builds; null hands them back to the docs; bad values are 400s', async (t) => {
  const path = '/v2/libraries/acme/widgets';
  const set = await app.request
    .patch(path)
    .set(bearer(admin))
    .send({ title: 'Acme Widgets', description: 'Reusable widgets for web pages.', aliases: ['widgetkit'] });
  t.is(set.status, 200, JSON.stringify(set.body));
  t.like(set.body, {
    title: 'Acme Widgets',
    description: 'Reusable widgets for web pages.',
    aliases: ['widgetkit'],
    edited: { title: true, description: true },
  });
  commitToRepo(`${git.root}/acme/widgets.git`, { 'docs/extra.md': '# Extra\n\nAn extra page about widget themes and colours.\n' });
  t.is((await app.request.post('/v2/refresh').set(bearer(admin)).send({ libraryName: '/acme/widgets' })).status, 200);
  const after = await app.request.get(path).set(bearer(admin));
  t.like(after.body, { title: 'Acme Widgets', description: 'Reusable widgets for web pages.' });
  t.is(
    (await app.request.get('/v2/libs/search').set(bearer(admin)).query({ libraryName: 'widgetkit' })).body.results[0].id,
    '/acme/widgets',
    'an alias resolves',
  );

  for (const body of [{ title: '' }, { title: 'x'.repeat(201) }, { description: 5 }, { title: 'ok', colour: 'red' }]) {
    const res = await app.request.patch(path).set(bearer(admin)).send(body);
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error, 'validation_error');
  }
  t.is((await app.request.patch(path).set(bearer(member.key)).send({ title: 'Mine' })).status, 403, 'members cannot edit');
  t.is((await app.request.get(path).set(bearer(admin))).body.title, 'Acme Widgets', 'nothing half-written');

  const reset = await app.request.patch(path).set(bearer(admin)).send({ title: null, description: null });
  t.like(reset.body, { edited: { title: false, description: false } });
  commitToRepo(`${git.root}/acme/widgets.git`, { 'docs/extra.md': '# Extra\n\nAn extra page about widget themes, colours and sizes.\n' });
  t.is((await app.request.post('/v2/refresh').set(bearer(admin)).send({ libraryName: '/acme/widgets' })).status, 200);
  t.like((await app.request.get(path).set(bearer(admin))).body, { title: 'Widgets', description: 'A widget toolkit for the web.' });
});

test('a webhook is removed: its secret no longer verifies', async (t) => {
  const made = await app.request.post('/v2/libraries/acme/widgets/webhook').set(bearer(admin)).send({});
  t.is(made.status, 201);
  t.true((await app.request.get('/v2/libraries/acme/widgets').set(bearer(admin))).body.webhook.configured);
  t.is((await app.request.delete('/v2/libraries/acme/widgets/webhook').set(bearer(member.key))).status, 403);
  const removed = await app.request.delete('/v2/libraries/acme/widgets/webhook').set(bearer(admin));
  t.is(removed.status, 200);
  t.regex(removed.body.message, /removed/);
  t.false((await app.request.get('/v2/libraries/acme/widgets').set(bearer(admin))).body.webhook.configured);
  const delivery = await app.request
    .post(`/v2/webhooks/git?library=${encodeURIComponent('/acme/widgets')}`)
    .set('X-Shelfmark-Signature', 'sha256=00')
    .send({ ref: 'refs/heads/main' });
  t.is(delivery.status, 401);
  t.regex((await app.request.delete('/v2/libraries/acme/widgets/webhook').set(bearer(admin))).body.message, /had no push webhook/);
  t.is((await app.request.delete('/v2/libraries/acme/nothing/webhook').set(bearer(admin))).status, 404);
});

test('the snippet browser: a version, words, kind and page filters with facets, paging', async (t) => {
  const browse = (query: Record<string, string | number>, key = member.key) =>
    app.request.get('/v2/libraries/acme/widgets/snippets').set(bearer(key)).query(query);
  const all = await browse({});
  t.is(all.status, 200, JSON.stringify(all.body));
  t.is(all.body.version, 'latest');
  t.true(all.body.total >= 4, `total ${all.body.total}`);
  t.deepEqual(all.body.facets.kinds.map((k: { value: string }) => k.value).sort(), ['code', 'info']);
  const pages = all.body.facets.pages.map((p: { value: string }) => p.value);
  t.true(pages.includes('docs/guide.md') && pages.includes('docs/api.md'), pages.join(' '));
  // Page kinds facet when the index stores them (an empty list where it does not: never an error).
  t.true(
    Array.isArray(all.body.facets.pageKinds) &&
      all.body.facets.pageKinds.every((k: { value: string; count: number }) => typeof k.value === 'string' && k.count > 0),
  );
  const first = all.body.snippets[0];
  const fields = ['breadcrumb', 'code', 'content', 'description', 'id', 'kind', 'language', 'pageTitle', 'path', 'startLine', 'title', 'tokens', 'url'];
  t.deepEqual(
    Object.keys(first)
      .filter((k) => k !== 'pageKind')
      .sort(),
    fields.sort(),
    'field by field: no analysed copies, no vectors',
  );
  if (all.body.facets.pageKinds.length > 0) {
    const kind = all.body.facets.pageKinds[0];
    const ofKind = await browse({ pageKind: kind.value });
    t.is(ofKind.body.total, kind.count, 'the page kind filter keeps what its facet counted');
  }

  const code = await browse({ kind: 'code', page: 'docs/guide.md' });
  t.true(code.body.total >= 2);
  t.true(code.body.snippets.every((s: { kind: string; path: string }) => s.kind === 'code' && s.path === 'docs/guide.md'));
  t.true(code.body.facets.pages.length >= 2, 'the page facet still lists the other pages');

  const words = await browse({ q: 'destroy resources' });
  t.true(words.body.total >= 1);
  t.true(
    words.body.snippets.every((s: { title: string; content: string; code: string; description: string }) =>
      /destroy/i.test(`${s.title} ${s.content} ${s.code} ${s.description}`),
    ),
  );
  t.is((await browse({ q: 'zzzunknownword' })).body.total, 0);

  const old = await browse({ version: 'v1.0.0', q: 'createWidget' });
  t.is(old.body.version, 'v1.0.0');
  t.true(
    old.body.snippets.some((s: { code: string }) => s.code.includes('old-spinner')),
    'the older version is browsed',
  );
  t.false((await browse({ q: 'createWidget' })).body.snippets.some((s: { code: string }) => s.code.includes('old-spinner')));

  const page1 = await browse({ size: 2 });
  const page2 = await browse({ size: 2, from: 2 });
  t.is(page1.body.snippets.length, 2);
  t.notDeepEqual(
    page1.body.snippets.map((s: { id: string }) => s.id),
    page2.body.snippets.map((s: { id: string }) => s.id),
  );

  const tag = await browse({ version: 'v9.9.9' });
  t.is(tag.status, 404);
  t.is(tag.body.error, 'tag_not_found');
  for (const bad of [{ kind: 'prose' }, { size: 500 }, { from: -1 }] as Array<Record<string, string | number>>) {
    const res = await browse(bad);
    t.is(res.status, 400, JSON.stringify(bad));
    t.is(res.body.error, 'validation_error');
  }
  t.is((await app.request.get('/v2/libraries/acme/none/snippets').set(bearer(admin))).status, 404);
});
