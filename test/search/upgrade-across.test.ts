/**
 * Upgrade guides and search across libraries, end to end on the real app and stores: two
 * libraries from a local Git server (one indexed at two tags), the HTTP routes, their errors,
 * team policies, the MCP tools over Streamable HTTP, and the CLI against a live server.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import test from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestApp, type TestApp, listenApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey, memberKey } from '../helpers';
import { BIN, connectHttp, textOf } from '../mcp/fixture';

let git: GitServer;
let app: TestApp;
let server: Awaited<ReturnType<typeof listenApp>> | undefined;
let url: string;
let mcp: Client;
let admin: string;

const API = (v: 1 | 2) => `# Kit API

The kit object drives the engine.

## kit.start(options${v === 2 ? ', callback' : ''})

Starts the engine with the given options${v === 2 ? ' and calls the callback once it runs' : ''}.

\`\`\`js
kit.start({ speed: 3 }${v === 2 ? ', () => {}' : ''});
\`\`\`
${
  v === 1
    ? `
## kit.stop()

Stops the engine at once.

\`\`\`js
kit.stop();
\`\`\`
`
    : `
## kit.pause()

Pauses the engine; \`kit.start()\` resumes it.

\`\`\`js
kit.pause();
\`\`\`

## kit.speed

Deprecated: read \`kit.options.speed\` instead.
`
}`;

const MIGRATION = `# Migrating from Kit 1.x to 2.x

Kit 2 changes how the engine stops.

## Breaking Changes

### kit.stop() removed

The \`kit.stop()\` method has been removed: call \`kit.pause()\` and drop the engine instead.

### Node.js 20 required

Kit 2 requires Node.js 20 or higher. Older Node.js releases lack the stream APIs the engine now uses, so installing on them fails.

## Deprecations

### kit.speed deprecated

The \`kit.speed\` property is deprecated in favour of \`kit.options.speed\`.

## Codemods

Run the \`kit-v1-to-v2\` codemod to rewrite calls of \`kit.stop()\`.
`;

const CHANGELOG = `# Changelog

## 2.0.0

- Removed \`kit.stop()\`.
- Fixed a race in \`kit.start()\`.

## 1.0.0

- First release.
`;

const GEARS = `# Gears

## Turning a gear

Call \`gear.turn()\` to turn a gear of the engine by one tooth.

\`\`\`js
gear.turn({ teeth: 1 });
\`\`\`
`;

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/kit', [
    {
      files: { 'README.md': '# Kit\n\nAn engine kit.\n', 'docs/api/kit.md': API(1), 'docs/changelog.md': CHANGELOG.replace(/## 2\.0\.0[\s\S]*?## 1/, '## 1') },
      tag: 'v1.0.0',
    },
    {
      files: { 'README.md': '# Kit\n\nAn engine kit.\n', 'docs/api/kit.md': API(2), 'docs/migration-v1-to-v2.md': MIGRATION, 'docs/changelog.md': CHANGELOG },
      tag: 'v2.0.0',
    },
  ]);
  createRepo(git.root, 'acme/gears', [{ files: { 'README.md': GEARS } }]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url });
  admin = await adminKey(app);
  for (const docsRepoUrl of [`${git.url}/acme/kit`, `${git.url}/acme/kit/tree/v1.0.0`, `${git.url}/acme/gears`]) {
    const res = await app.request.post('/v2/add/repo/github').set('authorization', `Bearer ${admin}`).send({ docsRepoUrl });
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

const guide = (q: Record<string, string | number>) =>
  app.request.get('/v2/upgrade-guide').query({ libraryId: '/acme/kit', from: 'v1.0.0', to: 'v2.0.0', ...q });

test('upgrade guide page 1: breaking changes, deprecations, codemods and the API diff, from what is indexed', async (t) => {
  const res = await guide({});
  t.is(res.status, 200);
  const text = res.text;
  t.regex(
    text,
    /^# Upgrading \/acme\/kit from v1\.0\.0 to v2\.0\.0\n\nDocs: from v1\.0\.0 @ [0-9a-f]{12} \(indexed \d{4}-\d\d-\d\d\) to v2\.0\.0 @ [0-9a-f]{12}/,
  );
  t.regex(text, /## Breaking changes \(\d+\)\n- kit\.stop\(\) removed: The `kit\.stop\(\)` method has been removed/);
  t.regex(text, /- Node\.js 20 required: Kit 2 requires Node\.js 20 or higher\. \[2\]/);
  t.regex(text, /- Removed `kit\.stop\(\)`\. \[2\.0\.0\]/, 'a release note line that breaks, with its version');
  t.regex(text, /## Deprecations \(\d+\)\n- kit\.speed deprecated/);
  t.regex(text, /## Codemods \(\d+\)\n[^#]*kit-v1-to-v2/);
  t.regex(
    text,
    /## API diff \(2 → 3 documented symbols\): 1 removed, 1 changed signature, 1 deprecated, 2 added\.\n- removed: `kit\.stop\(\)`\n- changed: `kit\.start\(options\)` → `kit\.start\(options, callback\)`\n- deprecated: `kit\.speed`\n- added: `kit\.pause\(\)`\n- added: `kit\.speed`/,
  );
  t.regex(text, /1 other release-note lines \(fixes, additions\) are on the detail pages/);
  t.notRegex(text, /First release/, '1.0.0 itself is not part of the upgrade');
  const json = await guide({ type: 'json' });
  t.like(json.body, {
    libraryId: '/acme/kit',
    page: 1,
    from: { version: 'v1.0.0' },
    to: { version: 'v2.0.0' },
    counts: { apiRemoved: 1, apiChanged: 1, apiAdded: 2 },
  });
  t.true(json.body.counts.breaking >= 2);
  t.true(json.body.totalPages >= 2);
  const page2 = await guide({ page: 2 });
  t.regex(
    page2.text,
    /\(page 2 of \d+\)\n\n### Migrating from Kit 1\.x to 2\.x > Breaking Changes > kit\.stop\(\) removed\n\nSource: http\S+\n\nThe `kit\.stop\(\)` method has been removed/,
  );
  const small = await guide({ tokens: 150, type: 'json' });
  t.true(small.body.tokens <= 150, `page 1 within the budget (${small.body.tokens})`);
  t.regex(small.body.text, /## Breaking changes \(\d+\)\n- \.\.\. and \d+ more \(on the detail pages\)/);
  const tiny = await guide({ tokens: 100, type: 'json' });
  t.true(tiny.body.tokens <= 100);
  t.regex(tiny.body.text, /The summary needs more than 100 tokens: ask again with a larger tokens value\./);
  const medium = await guide({ tokens: 260, type: 'json' });
  t.true(medium.body.tokens <= 260, `page 1 within the budget (${medium.body.tokens})`);
  t.regex(medium.body.text, /- \.\.\. and \d+ more \(on the detail pages\)/, 'lists cut to the budget say so');
});

test('upgrade guide errors: a version that is not indexed is named with what to add; bad spans are 400s', async (t) => {
  const missing = await guide({ from: 'v0.9.0' });
  t.is(missing.status, 404);
  t.is(missing.body.error, 'tag_not_found');
  t.regex(
    missing.body.message,
    /Available versions: v2\.0\.0, v1\.0\.0\. .*\(from\) To compare with it, index it: POST \/v2\/add\/repo\/github with docsRepoUrl http\S+\/acme\/kit\/tree\/v0\.9\.0/,
  );
  const swapped = await guide({ from: 'v2.0.0', to: 'v1.0.0' });
  t.is(swapped.status, 400);
  t.regex(swapped.body.message, /newer than to/);
  const same = await guide({ from: 'v2.0.0', to: 'latest' });
  t.is(same.status, 400);
  const withVersion = await guide({ libraryId: '/acme/kit/v1.0.0' });
  t.is(withVersion.status, 400);
  t.is(withVersion.body.field, 'libraryId');
  const noFrom = await app.request.get('/v2/upgrade-guide').query({ libraryId: '/acme/kit' });
  t.is(noFrom.status, 400);
  t.is(noFrom.body.field, 'from');
  const hidden = await guide({ libraryId: '/acme/nothing' });
  t.is(hidden.status, 404);
  t.is(hidden.body.error, 'library_not_found');
});

test('search across named libraries: one budget, each snippet labelled with its library and version', async (t) => {
  const res = await app.request
    .get('/v2/search')
    .query({ query: 'start the engine with kit.start and turn a gear with gear.turn', libraries: '/acme/kit,/acme/gears', type: 'json' });
  t.is(res.status, 200);
  t.is(res.body.scope, 'named');
  const libs = new Set(res.body.snippets.map((s: { libraryId: string }) => s.libraryId));
  t.deepEqual([...libs].sort(), ['/acme/gears', '/acme/kit'], 'each named library leads with its best section');
  for (const s of res.body.snippets) t.true(typeof s.version === 'string' && s.version.length > 0);
  t.deepEqual(res.body.libraries.map((l: { libraryId: string }) => l.libraryId).sort(), ['/acme/gears', '/acme/kit']);
  t.is(res.body.libraries.find((l: { libraryId: string }) => l.libraryId === '/acme/kit').provenance.versionServed.version, 'v2.0.0');
  const old = await app.request.get('/v2/search').query({ query: 'stop the engine with kit.stop', libraries: '/acme/kit/v1.0.0, /acme/gears' });
  t.is(old.status, 200);
  t.regex(old.text, /^Docs: \/acme\/kit v1\.0\.0 @ /m, 'a version in the id is served as asked');
  t.regex(old.text, /Library: \/acme\/kit v1\.0\.0\n### Kit API > kit\.stop\(\)/);
  const tooMany = await app.request.get('/v2/search').query({ query: 'x', libraries: Array.from({ length: 11 }, (_, i) => `/acme/l${i}`).join(',') });
  t.is(tooMany.status, 400);
  const both = await app.request.get('/v2/search').query({ query: 'x', libraries: '/acme/kit', scope: 'all' });
  t.is(both.status, 400);
  const badId = await app.request.get('/v2/search').query({ query: 'x', libraries: 'kit' });
  t.is(badId.body.error, 'invalid_library_id');
  const badVersion = await app.request.get('/v2/search').query({ query: 'x', libraries: '/acme/kit/v9.9.9' });
  t.is(badVersion.body.error, 'tag_not_found');
  const nothing = await app.request.get('/v2/search').query({ query: 'qqqzzz xxyyww', libraries: '/acme/kit,/acme/gears' });
  t.is(nothing.status, 404);
  t.is(nothing.body.error, 'no_snippets_found');
});

test("search across a team's allowed set and the catalogue: policies and visibility apply", async (t) => {
  const owner = await memberKey(app, { teamPlan: 'pro' });
  const bearer = { authorization: `Bearer ${owner.key}` };
  const set = await app.request
    .patch('/v2/policies')
    .set(bearer)
    .send({ libraryFilters: { blockedLibraries: ['/acme/gears'] } });
  t.is(set.status, 200);
  const team = await app.request.get('/v2/search').set(bearer).query({ query: 'turn a gear with gear.turn and start the kit', scope: 'team', type: 'json' });
  t.is(team.status, 200);
  t.false(
    team.body.snippets.some((s: { libraryId: string }) => s.libraryId === '/acme/gears'),
    'the blocked library is not searched',
  );
  t.false(team.body.libraries.some((l: { libraryId: string }) => l.libraryId === '/acme/gears'));
  const named = await app.request.get('/v2/search').set(bearer).query({ query: 'turn a gear', libraries: '/acme/gears' });
  t.is(named.status, 403);
  t.is(named.body.error, 'access_denied');
  const anonymous = await app.request.get('/v2/search').query({ query: 'turn a gear with gear.turn', type: 'json' });
  t.is(anonymous.status, 200);
  t.is(anonymous.body.scope, 'all');
  t.is(anonymous.body.snippets[0].libraryId, '/acme/gears');
  const anonymousTeam = await app.request.get('/v2/search').query({ query: 'turn a gear', scope: 'team' });
  t.is(anonymousTeam.status, 400, 'a team scope needs a caller in a team');
});

test('MCP: search-docs and get-upgrade-guide (a library given by name is resolved first)', async (t) => {
  const { tools } = await mcp.listTools();
  t.deepEqual(
    tools.map((x) => x.name),
    ['resolve-library-id', 'query-docs', 'get-library-docs', 'search-docs', 'get-upgrade-guide', 'query-code'],
  );
  const byName = Object.fromEntries(tools.map((x) => [x.name, x]));
  t.deepEqual(byName['get-upgrade-guide']!.inputSchema.required, ['library', 'from']);
  t.deepEqual(byName['search-docs']!.inputSchema.required, ['query']);
  const across = await mcp.callTool({
    name: 'search-docs',
    arguments: { query: 'turn a gear and start the kit engine', libraries: ['/acme/gears', '/acme/kit'] },
  });
  t.falsy(across.isError);
  t.regex(textOf(across), /Library: \/acme\/gears latest\n### Gears > Turning a gear/);
  const upgrade = await mcp.callTool({ name: 'get-upgrade-guide', arguments: { library: 'kit', from: '1.0.0', to: '2.0.0' } });
  t.falsy(upgrade.isError, textOf(upgrade));
  t.regex(textOf(upgrade), /^\(library "kit" resolved to \/acme\/kit\)\n\n# Upgrading \/acme\/kit from v1\.0\.0 to v2\.0\.0/);
  const page2 = await mcp.callTool({ name: 'get-upgrade-guide', arguments: { library: '/acme/kit', from: 'v1.0.0', page: 2 } });
  t.regex(textOf(page2), /\(page 2 of \d+\)/);
  const missing = await mcp.callTool({ name: 'get-upgrade-guide', arguments: { library: '/acme/kit', from: '0.5.0' } });
  t.true(missing.isError);
  t.regex(textOf(missing), /Available versions: v2\.0\.0, v1\.0\.0/);
});

test('CLI: ask and upgrade against a live server', async (t) => {
  const run = promisify(execFile);
  const env = { ...process.env, SHELFMARK_API_URL: url, SHELFMARK_API_KEY: admin };
  const ask = await run(process.execPath, [BIN, 'ask', 'turn a gear with gear.turn', '--libraries', '/acme/gears,/acme/kit'], { env });
  t.regex(ask.stdout, /Library: \/acme\/gears latest\n### Gears > Turning a gear/);
  const upgrade = await run(process.execPath, [BIN, 'upgrade', '/acme/kit', 'v1.0.0', 'v2.0.0', '--json'], { env });
  t.like(JSON.parse(upgrade.stdout), { libraryId: '/acme/kit', page: 1, counts: { apiRemoved: 1 } });
  const missing = await run(process.execPath, [BIN, 'upgrade', '/acme/kit', '0.1.0'], { env }).catch((e: { code: number; stderr: string }) => e);
  t.is((missing as { code: number }).code, 4, 'not found');
  t.regex((missing as { stderr: string }).stderr, /Available versions/);
  const context = await run(process.execPath, [BIN, 'context', '/acme/kit', 'start the engine', '--version', '^1'], { env });
  t.regex(context.stdout.split('\n')[0]!, /served v1\.0\.0 \(v1\.0\.0 is the newest indexed version in the range "\^1"\)/);
});
