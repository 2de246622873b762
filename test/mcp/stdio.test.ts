/**
 * MCP over stdio: `bin/shelfmark.mjs mcp --transport stdio` spawned from another directory,
 * answering from a live Shelfmark server's HTTP API, driven by the official SDK client.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import test from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeUser } from '../auth/fixtures';
import { BIN, connectHttp, connectStdio, startMcpFixture, textOf, type McpFixture } from './fixture';

const run = promisify(execFile);

let fx: McpFixture;
let stdio: { client: Client; stderr: () => string };

test.before(async () => {
  fx = await startMcpFixture();
  stdio = await connectStdio(fx.url);
});

test.after.always(async () => {
  await stdio?.client.close();
  await fx?.close();
});

test('lists the same tools, schemas and annotations as /mcp', async (t) => {
  const http = await connectHttp(fx.url);
  try {
    const [overStdio, overHttp] = await Promise.all([stdio.client.listTools(), http.listTools()]);
    t.deepEqual(overStdio.tools, overHttp.tools);
    t.deepEqual(
      overStdio.tools.map((x) => x.name),
      ['resolve-library-id', 'query-docs', 'get-library-docs', 'search-docs', 'get-upgrade-guide', 'query-code'],
    );
    t.true(overStdio.tools.every((x) => x.annotations?.readOnlyHint === true && x.annotations?.openWorldHint === false));
  } finally {
    await http.close();
  }
});

test('resolve-library-id, query-docs and get-library-docs answer through the HTTP API', async (t) => {
  const resolved = await stdio.client.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'widgets', query: 'delete a widget' } });
  t.falsy(resolved.isError, textOf(resolved));
  t.regex(textOf(resolved), /^Available libraries/);
  t.regex(
    textOf(resolved),
    /- Context7-compatible library ID: \/acme\/widgets\n- Description: A widget toolkit for the web\.\n- Code Snippets: \d+\n- Source Reputation: \w+\n- Benchmark Score: [\d.]+\n- Versions: v2\.0\.0/,
  );

  const docs = await stdio.client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'how do I delete a widget', tokens: 2000 } });
  t.falsy(docs.isError, textOf(docs));
  t.regex(textOf(docs), /^Docs: [^\n]+\n\n### [\s\S]*w\.destroy\(\)/);

  const legacy = await stdio.client.callTool({
    name: 'get-library-docs',
    arguments: { context7CompatibleLibraryID: '/acme/gadgets', topic: 'measure a length' },
  });
  t.falsy(legacy.isError, textOf(legacy));
  t.regex(textOf(legacy), /measure\('length'/);
});

test('the same answers as the in-process tools', async (t) => {
  const http = await connectHttp(fx.url);
  try {
    const args = { name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'create a widget', tokens: 1500 } };
    t.is(textOf(await stdio.client.callTool(args)), textOf(await http.callTool(args)));
  } finally {
    await http.close();
  }
});

test('misnamed arguments are accepted', async (t) => {
  const res = await stdio.client.callTool({ name: 'query-docs', arguments: { library_id: '/acme/widgets', userQuery: 'delete a widget', tokens: '700' } });
  t.falsy(res.isError, textOf(res));
  t.regex(textOf(res), /destroy/);
});

test('HTTP error bodies become tool errors with the same guidance', async (t) => {
  const unknown = await stdio.client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/nothing', query: 'anything' } });
  t.true(unknown.isError);
  t.regex(textOf(unknown), /\/acme\/nothing does not exist[\s\S]*Call resolve-library-id/);

  const version = await stdio.client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets@v9.9.9', query: 'create a widget' } });
  t.true(version.isError);
  t.regex(textOf(version), /Version "v9\.9\.9" of \/acme\/widgets does not exist[\s\S]*Use one of the available versions: \/acme\/widgets\/v2\.0\.0/);

  const invalid = await stdio.client.callTool({ name: 'query-docs', arguments: { libraryId: 'widgets', query: 'create a widget' } });
  t.true(invalid.isError);
  t.regex(textOf(invalid), /^Invalid library ID "widgets"[\s\S]*Call resolve-library-id/);
});

test('--api-key and the SHELFMARK_API_KEY variable carry the caller: team policies apply', async (t) => {
  const member = await makeUser(fx.app, { plan: 'free' });
  await fx.app.services.policies.patch(member.teamId ?? '', { libraryFilters: { mode: 'select', allowedLibraries: ['/acme/gadgets'] } }, null);
  for (const options of [{ apiKey: member.key }, { env: { SHELFMARK_API_KEY: member.key } }]) {
    const session = await connectStdio(fx.url, options);
    try {
      const denied = await session.client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'create a widget' } });
      t.true(denied.isError, JSON.stringify(Object.keys(options)));
      t.regex(textOf(denied), /not among your team's allowed libraries[\s\S]*choose another library/);
      const search = await session.client.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'gadgets' } });
      t.regex(textOf(search), /library policy applies/);
      t.regex(session.stderr(), /MCP stdio server ready/, 'logs go to stderr');
    } finally {
      await session.client.close();
    }
  }
});

test('an invalid key is a tool error that asks the user to check it', async (t) => {
  const session = await connectStdio(fx.url, { apiKey: 'smk_not-a-real-key-000000000000' });
  try {
    const res = await session.client.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'widgets' } });
    t.true(res.isError);
    t.regex(textOf(res), /API key configured for this MCP server is missing or invalid/);
  } finally {
    await session.client.close();
  }
});

test('an unreachable server is a tool error naming --api-url', async (t) => {
  const session = await connectStdio('http://127.0.0.1:9');
  try {
    const res = await session.client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'create a widget' } });
    t.true(res.isError);
    t.regex(textOf(res), /Could not reach the Shelfmark server at http:\/\/127\.0\.0\.1:9[\s\S]*--api-url/);
  } finally {
    await session.client.close();
  }
});

test('--transport http is refused with a pointer to /mcp; bad options exit 2', async (t) => {
  for (const args of [['--transport', 'http'], ['--api-url', 'ftp://x'], ['--bogus']]) {
    const error = await t.throwsAsync(run(process.execPath, [BIN, 'mcp', ...args], { cwd: '/' }));
    t.is((error as { code?: number }).code, 2, args.join(' '));
  }
  const http = await run(process.execPath, [BIN, 'mcp', '--transport', 'http'], { cwd: '/' }).catch((e: { stderr: string }) => e);
  t.regex((http as { stderr: string }).stderr, /already serves MCP over Streamable HTTP at <server>\/mcp/);
});

test('calls through the stdio bridge count as MCP usage, not txt', async (t) => {
  await stdio.client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/gadgets', query: 'measure a length in cm' } });
  await fx.app.services.usage.flush();
  const metrics = await fx.app.services.usage.metrics('/acme/gadgets', 1);
  t.true(metrics.totals.byChannel.mcp >= 1, JSON.stringify(metrics.totals));
  t.is(metrics.totals.byChannel.txt, 0);
});
