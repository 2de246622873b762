/**
 * MCP over Streamable HTTP at /mcp on the real app (real stores, a repository indexed
 * through the real pipeline), driven by the official SDK client.
 */
import test from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeUser } from '../auth/fixtures';
import { connectHttp, startMcpFixture, textOf, type McpFixture } from './fixture';

let fx: McpFixture;
let client: Client;

test.before(async () => {
  fx = await startMcpFixture();
  client = await connectHttp(fx.url);
});

test.after.always(async () => {
  await client?.close();
  await fx?.close();
});

test('lists the tools with their schemas and read-only annotations', async (t) => {
  const { tools } = await client.listTools();
  t.deepEqual(
    tools.map((x) => x.name),
    ['resolve-library-id', 'query-docs', 'get-library-docs', 'search-docs', 'get-upgrade-guide', 'query-code'],
  );
  const byName = Object.fromEntries(tools.map((x) => [x.name, x]));
  for (const tool of tools) {
    t.true(tool.annotations?.readOnlyHint, tool.name);
    t.is(tool.annotations?.openWorldHint, false, tool.name);
    t.true((tool.description ?? '').length > 50, tool.name);
  }
  t.deepEqual(byName['resolve-library-id'].inputSchema.required, ['libraryName']);
  t.deepEqual(Object.keys(byName['resolve-library-id'].inputSchema.properties ?? {}), ['libraryName', 'query']);
  t.deepEqual(byName['query-docs'].inputSchema.required, ['libraryId', 'query']);
  t.deepEqual(Object.keys(byName['query-docs'].inputSchema.properties ?? {}), [
    'libraryId',
    'query',
    'tokens',
    'version',
    'language',
    'languageOnly',
    'projectId',
  ]);
  t.deepEqual(byName['get-library-docs'].inputSchema.required, ['context7CompatibleLibraryID']);
  t.deepEqual(Object.keys(byName['get-library-docs'].inputSchema.properties ?? {}), [
    'context7CompatibleLibraryID',
    'topic',
    'tokens',
    'version',
    'language',
    'languageOnly',
    'projectId',
  ]);
  t.regex(byName['resolve-library-id'].description ?? '', /before query-docs[\s\S]*\/org\/project/);
});

test('resolve-library-id answers in the Context7 text format under a header', async (t) => {
  const res = await client.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'widgets', query: 'delete a widget' } });
  t.falsy(res.isError);
  const text = textOf(res);
  t.regex(text, /^Available libraries/);
  t.regex(
    text,
    /- Title: Widgets\n- Context7-compatible library ID: \/acme\/widgets\n- Description: A widget toolkit for the web\.\n- Code Snippets: \d+\n- Source Reputation: (High|Medium|Low|Unknown)\n- Benchmark Score: [\d.]+\n- Versions: v2\.0\.0/,
  );
  t.notRegex(text, /policy applies/);
  t.true(text.indexOf('/acme/widgets') < (text.indexOf('/acme/gadgets') === -1 ? Infinity : text.indexOf('/acme/gadgets')), 'the name match ranks first');
});

test('resolve-library-id with no match answers (not an error) with advice', async (t) => {
  const res = await client.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'zzqx-nothing-like-it' } });
  t.falsy(res.isError);
  t.regex(textOf(res), /No documentation libraries found[\s\S]*Try another spelling/);
});

test('query-docs returns the txt context of the library', async (t) => {
  const res = await client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'how do I delete a widget', tokens: 2000 } });
  t.falsy(res.isError, textOf(res));
  const text = textOf(res);
  t.regex(text, /^Docs: \/acme\/\S+ [^\n]+\n\n### /);
  t.regex(text, /Source: \S+\/acme\/widgets\/blob\//);
  t.regex(text, /w\.destroy\(\)/);
});

test('query-docs records usage on the mcp channel', async (t) => {
  await client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/gadgets', query: 'measure a length in cm' } });
  await fx.app.services.usage.flush();
  const metrics = await fx.app.services.usage.metrics('/acme/gadgets', 1);
  t.true(metrics.totals.byChannel.mcp >= 1, JSON.stringify(metrics.totals));
  t.is(metrics.totals.byChannel.txt, 0);
});

test('get-library-docs serves older clients, with and without a topic', async (t) => {
  const withTopic = await client.callTool({
    name: 'get-library-docs',
    arguments: { context7CompatibleLibraryID: '/acme/widgets', topic: 'create a widget', tokens: 1000 },
  });
  t.falsy(withTopic.isError, textOf(withTopic));
  t.regex(textOf(withTopic), /createWidget\('spinner'/);
  const overview = await client.callTool({ name: 'get-library-docs', arguments: { context7CompatibleLibraryID: '/acme/widgets' } });
  t.falsy(overview.isError, textOf(overview));
  t.regex(textOf(overview), /### /);
});

test('misnamed arguments are accepted', async (t) => {
  for (const args of [
    { libraryName: '/acme/widgets', userQuery: 'delete a widget' },
    { libraryID: '/acme/widgets', question: 'delete a widget' },
    { context7CompatibleLibraryID: '/acme/widgets', topic: 'delete a widget' },
    { library_id: '/acme/widgets', query: 'delete a widget', tokens: '800' },
  ]) {
    const res = await client.callTool({ name: 'query-docs', arguments: args });
    t.falsy(res.isError, `${JSON.stringify(args)}: ${textOf(res)}`);
    t.regex(textOf(res), /destroy/, JSON.stringify(args));
  }
  const legacy = await client.callTool({ name: 'get-library-docs', arguments: { libraryId: '/acme/widgets', query: 'delete a widget' } });
  t.regex(textOf(legacy), /destroy/);
});

test('missing arguments are tool errors that say what to send', async (t) => {
  const res = await client.callTool({ name: 'query-docs', arguments: { query: 'delete a widget' } });
  t.true(res.isError);
  t.regex(textOf(res), /needs `libraryId`[\s\S]*resolve-library-id/);
  const noQuery = await client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets' } });
  t.true(noQuery.isError);
  t.regex(textOf(noQuery), /needs `query`/);
});

test('an unknown library tells the model to call resolve-library-id first', async (t) => {
  const res = await client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/nothing', query: 'anything' } });
  t.true(res.isError);
  t.regex(textOf(res), /\/acme\/nothing does not exist[\s\S]*Call resolve-library-id/);
});

test('an unknown version lists the available ones', async (t) => {
  const res = await client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets/v9.9.9', query: 'create a widget' } });
  t.true(res.isError);
  const text = textOf(res);
  t.regex(text, /Version "v9\.9\.9" of \/acme\/widgets does not exist/);
  t.regex(text, /Use one of the available versions: \/acme\/widgets\/v2\.0\.0/);
  t.regex(text, /or \/acme\/widgets \(without a version\)/);
});

test('an invalid library id is explained', async (t) => {
  const res = await client.callTool({ name: 'query-docs', arguments: { libraryId: 'widgets', query: 'create a widget' } });
  t.true(res.isError);
  t.regex(textOf(res), /^Invalid library ID "widgets"/);
  t.regex(textOf(res), /Call resolve-library-id .* \(like \/org\/project\)/);
});

test('a question the docs do not answer is a plain answer saying so, with a next step', async (t) => {
  const res = await client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/gadgets', query: 'zzqx qqvv' } });
  t.falsy(res.isError, 'nothing relevant is an answer, not a failure');
  t.regex(textOf(res), /^No relevant documentation in \/acme\/gadgets for "zzqx qqvv"\./);
  t.regex(textOf(res), /call resolve-library-id for that one; if it is about this library, ask again naming the function/);
});

test('the key in SHELFMARK_API_KEY reaches the tools: team policies apply (access denied, filtered search)', async (t) => {
  const member = await makeUser(fx.app, { plan: 'free' });
  await fx.app.services.policies.patch(member.teamId ?? '', { libraryFilters: { mode: 'select', allowedLibraries: ['/acme/gadgets'] } }, null);
  const restricted = await connectHttp(fx.url, { SHELFMARK_API_KEY: member.key });
  try {
    const denied = await restricted.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'create a widget' } });
    t.true(denied.isError);
    t.regex(textOf(denied), /not among your team's allowed libraries[\s\S]*choose another library/);
    const search = await restricted.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'gadgets' } });
    t.regex(textOf(search), /library policy applies/);
    t.regex(textOf(search), /\/acme\/gadgets/);
    t.notRegex(textOf(search), /\/acme\/widgets/);
    const allowed = await restricted.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/gadgets', query: 'measure a length' } });
    t.falsy(allowed.isError, textOf(allowed));
  } finally {
    await restricted.close();
  }
  // The same key as a bearer token and as X-API-Key.
  for (const headers of [{ Authorization: `Bearer ${member.key}` }, { 'X-API-Key': member.key }] as Record<string, string>[]) {
    const other = await connectHttp(fx.url, headers);
    const denied = await other.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'create a widget' } });
    t.true(denied.isError, JSON.stringify(Object.keys(headers)));
    await other.close();
  }
});

test('an invalid key is refused with 401 before any tool runs', async (t) => {
  const res = await fetch(new URL('/mcp', fx.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', SHELFMARK_API_KEY: 'smk_not-a-real-key-000000000000' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  t.is(res.status, 401);
  t.is(((await res.json()) as { error: string }).error, 'invalid_api_key');
});

test('GET and DELETE /mcp are 405 JSON-RPC errors with Allow: POST', async (t) => {
  for (const method of ['GET', 'DELETE']) {
    const res = await fx.app.request[method === 'GET' ? 'get' : 'delete']('/mcp').set('Accept', 'text/event-stream');
    t.is(res.status, 405, method);
    t.is(res.headers.allow, 'POST');
    t.deepEqual(res.body, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
  }
});

test('malformed JSON is a JSON-RPC parse error (400)', async (t) => {
  const res = await fx.app.request
    .post('/mcp')
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json, text/event-stream')
    .send('{"jsonrpc": "2.0", "method": ');
  t.is(res.status, 400);
  t.is(res.body.jsonrpc, '2.0');
  t.is(res.body.error.code, -32700);
  t.is(res.body.id, null);
});

test('a raw JSON-RPC tools/call works without a session (stateless) and carries rate-limit headers', async (t) => {
  const res = await fx.app.request
    .post('/mcp')
    .set('Accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'resolve-library-id', arguments: { libraryName: 'gadgets' } } });
  t.is(res.status, 200);
  t.false('mcp-session-id' in res.headers);
  t.truthy(res.headers['ratelimit-limit']);
  t.is(res.body.id, 7);
  t.regex(res.body.result.content[0].text, /\/acme\/gadgets/);
});

test('GET /ping still answers pong', async (t) => {
  const res = await fx.app.request.get('/ping');
  t.deepEqual(res.body, { status: 'ok', message: 'pong' });
});

test('a hidden or a policy-denied library is refused the same way over HTTP and MCP (one check, catalog/access.ts)', async (t) => {
  const member = await makeUser(fx.app, { plan: 'free' });
  await fx.app.services.policies.patch(member.teamId ?? '', { libraryFilters: { blockedLibraries: ['/acme/widgets'] } }, null);
  // Another team's private library: the member cannot see it, so it is as absent as /acme/absent.
  await fx.app.services.libraries.ensure({
    _id: '/acme/secret~team_other',
    source: 'github',
    title: 'Secret',
    description: '',
    repoUrl: '',
    cloneUrl: '',
    branch: '',
    private: true,
    teamId: 'team_other',
    trustScore: 5,
    options: {},
  } as never);
  const http = async (libraryId: string) => {
    const res = await fx.app.request.get('/v2/context').query({ libraryId, query: 'create a widget' }).set('Authorization', `Bearer ${member.key}`);
    return { status: res.status, error: res.body.error as string, message: (res.body.message as string).replaceAll(libraryId, '<id>') };
  };
  const mcp = await connectHttp(fx.url, { Authorization: `Bearer ${member.key}` });
  try {
    const tools = async (libraryId: string) => {
      const out = [];
      for (const call of [
        { name: 'query-docs', arguments: { libraryId, query: 'create a widget' } },
        { name: 'get-library-docs', arguments: { context7CompatibleLibraryID: libraryId, topic: 'create a widget' } },
      ]) {
        const res = await mcp.callTool(call);
        t.true(res.isError, `${call.name} ${libraryId}`);
        out.push(textOf(res).replaceAll(libraryId, '<id>'));
      }
      return out;
    };

    const hidden = await http('/acme/secret');
    t.deepEqual(hidden, await http('/acme/absent'), 'HTTP: hidden is absent');
    t.is(hidden.status, 404);
    t.is(hidden.error, 'library_not_found');
    const hiddenTools = await tools('/acme/secret');
    t.deepEqual(hiddenTools, await tools('/acme/absent'), 'MCP: hidden is absent');
    t.regex(hiddenTools[0], /<id>/);

    const denied = await http('/acme/widgets');
    t.is(denied.status, 403);
    t.is(denied.error, 'access_denied');
    for (const text of await tools('/acme/widgets')) t.true(text.startsWith(denied.message), `${text} begins with the HTTP message: ${denied.message}`);
    const allowed = await fx.app.request
      .get('/v2/context')
      .query({ libraryId: '/acme/gadgets', query: 'measure a length' })
      .set('Authorization', `Bearer ${member.key}`);
    t.is(allowed.status, 200, 'the policy blocks only what it names');
  } finally {
    await mcp.close();
  }
});
