/**
 * Versions that tell the truth, end to end on the real app and stores: the `version` and
 * `language` inputs of GET /v2/context (as Context7's newer clients send them: `version` beside
 * `libraryId` and `query`) and of the MCP docs tools, provenance in every answer form, and
 * indexed-vs-latest in library search. A repository with three release tags, indexed as
 * latest (v2.0.0) and the tags v1.0.0 and v1.2.0, through a local Git server.
 */
import test from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestApp, type TestApp, listenApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey } from '../helpers';
import { connectHttp, textOf } from '../mcp/fixture';

let git: GitServer;
let app: TestApp;
let server: Awaited<ReturnType<typeof listenApp>> | undefined;
let url: string;
let mcp: Client;

const GUIDE = (v: string) => `# Router ${v}

The router of release ${v} maps paths to handlers.

## Defining routes in ${v}

Use \`router.get()\` to answer GET requests on a path (release ${v}):

\`\`\`js
const router = new Router();
router.get('/users/:id', (ctx) => { ctx.body = ctx.params.id; });
\`\`\`
`;

// The same task shown in two languages, in two sections.
const CLIENTS = `# Clients

## Calling the API from Python

Create a client and fetch a user by id with the client library:

\`\`\`python
client = Client(token="t")
user = client.users.fetch(42)
\`\`\`

## Calling the API from JavaScript

Create a client and fetch a user by id with the client library:

\`\`\`js
const client = new Client({ token: 't' });
const user = await client.users.fetch(42);
\`\`\`
`;

const files = (v: string) => ({ 'docs/guide.md': GUIDE(v), 'docs/clients.md': CLIENTS, 'README.md': `# Router\n\nRouting for servers, release ${v}.\n` });

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/router', [
    { files: files('v1.0.0'), tag: 'v1.0.0' },
    { files: files('v1.2.0'), tag: 'v1.2.0' },
    { files: files('v2.0.0'), tag: 'v2.0.0' },
  ]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url });
  const key = await adminKey(app);
  for (const docsRepoUrl of [`${git.url}/acme/router`, `${git.url}/acme/router/tree/v1.0.0`, `${git.url}/acme/router/tree/v1.2.0`]) {
    const res = await app.request.post('/v2/add/repo/github').set('authorization', `Bearer ${key}`).send({ docsRepoUrl });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  server = await listenApp(app);
  url = server.url;
  mcp = await connectHttp(url);
});

test.after.always(async () => {
  await mcp?.close();
  await server?.close();
  await app?.close();
  await git?.close();
});

const context = (q: Record<string, string | number | boolean | undefined>) =>
  app.request.get('/api/v2/context').query({ query: 'define routes with router.get', ...q });

test('version as a newer Context7 client sends it: beside libraryId and query, exact, served and said', async (t) => {
  const res = await context({ libraryId: '/acme/router', version: 'v1.2.0', type: 'json' });
  t.is(res.status, 200);
  t.is(res.headers['x-shelfmark-version-served'], 'v1.2.0');
  t.regex(res.body.snippets[0].content, /release v1\.2\.0/, 'the answer comes from that version');
  const p = res.body.provenance;
  t.like(p, {
    libraryId: '/acme/router',
    versionRequested: 'v1.2.0',
    resolution: 'exact',
    latestIndexed: 'v2.0.0',
    newerRelease: 'v2.0.0',
    behindSource: null,
  });
  t.like(p.versionServed, { version: 'v1.2.0', record: 'v1.2.0', ref: 'v1.2.0' });
  t.regex(p.versionServed.commit, /^[0-9a-f]{40}$/);
  t.false(Number.isNaN(Date.parse(p.versionServed.indexedAt)));
  const txt = await context({ libraryId: '/acme/router', version: 'v1.2.0' });
  t.is(txt.status, 200);
  const [first, blank, third] = txt.text.split('\n');
  t.regex(
    first,
    /^Docs: \/acme\/router v1\.2\.0 @ [0-9a-f]{12}, indexed \d{4}-\d\d-\d\d; asked v1\.2\.0, served v1\.2\.0; latest indexed: v2\.0\.0; newer release: v2\.0\.0\.$/,
  );
  t.is(blank, '');
  t.regex(third, /^### /, 'then the Context7 text as before');
});

test('no silent substitution: an exact version that is not indexed is 404 tag_not_found listing the indexed ones', async (t) => {
  for (const q of [{ libraryId: '/acme/router', version: '1.1.0' }, { libraryId: '/acme/router/1.1.0' }, { libraryId: '/acme/router', version: '2' }]) {
    const res = await context(q);
    t.is(res.status, 404, JSON.stringify(q));
    t.is(res.body.error, 'tag_not_found');
    t.regex(res.body.message, /Available versions: v2\.0\.0, v1\.2\.0, v1\.0\.0/);
    t.deepEqual(res.body.availableVersions, ['v2.0.0', 'v1.2.0', 'v1.0.0']);
  }
  const both = await context({ libraryId: '/acme/router/v1.0.0', version: 'v1.2.0' });
  t.is(both.status, 400);
  t.is(both.body.error, 'validation_error');
  const bad = await context({ libraryId: '/acme/router', version: '^^1' });
  t.is(bad.status, 400);
  t.is(bad.body.field, 'version');
});

test('ranges and closest are served when asked, and the answer says which version and why', async (t) => {
  const caret = await context({ libraryId: '/acme/router', version: '^1', type: 'json' });
  t.is(caret.status, 200);
  t.like(caret.body.provenance, { versionRequested: '^1', resolution: 'range', reason: 'v1.2.0 is the newest indexed version in the range "^1".' });
  t.is(caret.body.provenance.versionServed.version, 'v1.2.0');
  const tilde = await context({ libraryId: '/acme/router', version: '~1.0' });
  t.regex(tilde.text.split('\n')[0], /served v1\.0\.0 \(v1\.0\.0 is the newest indexed version in the range "~1\.0"\)/);
  const none = await context({ libraryId: '/acme/router', version: '^3' });
  t.is(none.status, 404);
  t.is(none.body.error, 'tag_not_found');
  const closest = await context({ libraryId: '/acme/router', version: 'closest:1.2.5', type: 'json' });
  t.is(closest.status, 200);
  t.like(closest.body.provenance, { resolution: 'closest', versionRequested: 'closest:1.2.5' });
  t.is(closest.body.provenance.versionServed.version, 'v1.2.0');
  t.regex(closest.body.provenance.reason, /1\.2\.5 is not indexed; v1\.2\.0 is the closest indexed version/);
  const inId = await context({ libraryId: '/acme/router/1.1.9', version: 'closest', type: 'json' });
  t.is(inId.status, 200);
  t.is(inId.body.provenance.resolution, 'closest');
  const latest = await context({ libraryId: '/acme/router', version: 'latest', type: 'json' });
  t.like(latest.body.provenance, { resolution: 'default', versionRequested: 'latest' });
  t.is(latest.body.provenance.versionServed.version, 'v2.0.0', 'the default branch named by its tag');
  t.is(latest.body.provenance.versionServed.record, 'latest');
});

test('behind its source: the source state a build records, and a head seen to move', async (t) => {
  const lib = await app.services.libraries.get('/acme/router', { fresh: true });
  t.truthy(lib?.sourceState, 'the clone of latest recorded what it saw');
  const latest = lib?.versions.find((v) => v.version === 'latest');
  t.is(lib?.sourceState?.head, latest?.commit);
  t.is(lib?.sourceState?.newestTag, 'v2.0.0');
  const now = await context({ libraryId: '/acme/router', type: 'json' });
  t.is(now.body.provenance.behindSource, false);
  t.regex((await context({ libraryId: '/acme/router' })).text.split('\n')[0], /; up to date with its source\.$/);
  // A later check saw another head (what a scheduled listing of the remote records).
  await app.services.libraries.modify('/acme/router', () => ({
    sourceState: { checkedAt: new Date(Date.now() + 1000), head: 'f'.repeat(40), newestTag: 'v2.1.0' },
  }));
  const behind = await context({ libraryId: '/acme/router', type: 'json' });
  t.like(behind.body.provenance, { behindSource: true, newerRelease: 'v2.1.0' });
  t.deepEqual(behind.body.provenance.source.newestRelease, 'v2.1.0');
  const search = await app.request.get('/v2/libs/search').query({ libraryName: 'router' });
  t.like(search.body.results[0], { id: '/acme/router', latestIndexed: 'v2.0.0', sourceLatest: 'v2.1.0' });
  await app.services.libraries.modify('/acme/router', () => ({ sourceState: { checkedAt: new Date(), head: latest?.commit ?? null, newestTag: 'v2.0.0' } }));
});

test('language ranks the sections with examples in it first; languageOnly keeps only those', async (t) => {
  const ask = (q: Record<string, string | boolean>) =>
    context({ libraryId: '/acme/router', query: 'create a client and fetch a user by id', type: 'json', ...q });
  const py = await ask({ language: 'py' });
  t.is(py.status, 200);
  t.is(py.body.snippets[0].title, 'Calling the API from Python');
  const js = await ask({ language: 'javascript' });
  t.is(js.body.snippets[0].title, 'Calling the API from JavaScript');
  const only = await ask({ language: 'python', languageOnly: true });
  t.true(only.body.snippets.length > 0);
  t.true(
    only.body.snippets.every((s: { content: string }) => !/```js/.test(s.content)),
    'no section whose examples are JavaScript only',
  );
  const none = await ask({ language: 'rust', languageOnly: true });
  t.is(none.status, 404);
  t.is(none.body.error, 'no_snippets_found');
  t.regex(none.body.message, /examples in rust/);
  const lonely = await ask({ languageOnly: true });
  t.is(lonely.status, 400);
});

test('MCP query-docs takes version and language as a newer client sends them; the answer opens with its provenance', async (t) => {
  const res = await mcp.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/router', query: 'define routes with router.get', version: '1.0.0' } });
  t.falsy(res.isError);
  const text = textOf(res);
  t.regex(text.split('\n')[0], /^Docs: \/acme\/router v1\.0\.0 @ [0-9a-f]{12}, indexed .*; asked 1\.0\.0, served v1\.0\.0;/);
  t.regex(text, /release v1\.0\.0/);
  const missing = await mcp.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/router', query: 'define routes', version: '1.1.0' } });
  t.true(missing.isError);
  t.regex(textOf(missing), /Available versions: v2\.0\.0, v1\.2\.0, v1\.0\.0/);
  t.regex(textOf(missing), /call again with version "closest:1\.1\.0"/);
  t.regex(textOf(missing), /Do not substitute another version without telling the user/);
  const near = await mcp.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/router', query: 'define routes', version: 'closest:1.1.0' } });
  t.falsy(near.isError);
  t.regex(textOf(near).split('\n')[0], /asked closest:1\.1\.0, served v1\.[02]\.0 \(1\.1\.0 is not indexed; v1\.[02]\.0 is the closest indexed version/);
  const legacy = await mcp.callTool({
    name: 'get-library-docs',
    arguments: { context7CompatibleLibraryID: '/acme/router', topic: 'create a client and fetch a user', language: 'python' },
  });
  t.regex(textOf(legacy), /^Docs: \/acme\/router v2\.0\.0/);
  t.regex(textOf(legacy), /### Clients > Calling the API from Python[\s\S]*Calling the API from JavaScript/, 'python first');
  const resolve = await mcp.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'router' } });
  t.regex(textOf(resolve), /- Latest indexed: v2\.0\.0/);
});

test('the stdio bridge passes version and language on to the server', async (t) => {
  const { connectStdio } = await import('../mcp/fixture');
  const key = await adminKey(app);
  const stdio = await connectStdio(url, { apiKey: key });
  try {
    const res = await stdio.client.callTool({
      name: 'query-docs',
      arguments: { libraryId: '/acme/router', query: 'define routes with router.get', version: '^1', language: 'js' },
    });
    t.falsy(res.isError, textOf(res));
    t.regex(textOf(res).split('\n')[0], /served v1\.2\.0 \(v1\.2\.0 is the newest indexed version in the range "\^1"\)/);
    const overview = await stdio.client.callTool({ name: 'get-library-docs', arguments: { context7CompatibleLibraryID: '/acme/router', version: 'v1.0.0' } });
    t.regex(textOf(overview).split('\n')[0], /served v1\.0\.0/);
  } finally {
    await stdio.client.close();
  }
});
