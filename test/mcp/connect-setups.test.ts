/**
 * Every setup the dashboard's Connect page shows, taken at its word: each text is parsed back
 * as its client would read it (JSON, TOML, a shell command line), and the MCP calls an
 * assistant makes — list the tools, resolve a library, query its docs — are made with exactly
 * the URL, headers, command and arguments it names, over Streamable HTTP and over stdio
 * (Shelfmark's bridge, started as a child process) against a live server on real stores.
 */
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { parse as parseToml } from 'smol-toml';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, seedLibrary } from '../helpers';
// The page's own module (plain JavaScript, no DOM): what is shown is what is tested.
import { connectSetups } from '../../src/dashboard/public/js/connect-setups.js';

interface Setup {
  id: string;
  name: string;
  format: 'json' | 'toml' | 'shell';
  transport: 'http' | 'stdio';
  text: string;
}
interface Described {
  kind: 'http';
  url: string;
  headers: Record<string, string>;
}
interface Started {
  kind: 'stdio';
  command: string;
  args: string[];
}

let app: TestApp;
let server: http.Server;
let base: string;
let key: string;

test.before(async () => {
  app = await createTestApp({ RATE_LIMIT_KEY_PER_MINUTE: '10000', RATE_LIMIT_ANON_PER_MINUTE: '10000' });
  key = await adminKey(app);
  await seedLibrary(app, '/acme/widgets', {
    'docs/guide.md':
      '# Widgets guide\n\n## Creating a widget\n\nCall `createWidget()` with a name to make a new widget:\n\n```js\nconst w = createWidget("spinner", { size: 3 });\n```\n',
  });
  server = http.createServer(app.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after.always(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.close();
});

/** The words of a POSIX shell command line as the page quotes them (plain words and '…'). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]);
  return words;
}

/** What a client reads from the setup's text: a server to reach over HTTP, or a command to start. */
function read(setup: Setup): Described | Started {
  if (setup.format === 'shell') {
    const words = shellWords(setup.text);
    if (setup.transport === 'stdio') return { kind: 'stdio', command: words[0], args: words.slice(1) };
    // claude mcp add --transport http --scope user shelfmark <url> [--header "Name: value"]
    const url = words[words.indexOf('shelfmark') + 1];
    const headers: Record<string, string> = {};
    words.forEach((w, i) => {
      if (w === '--header') {
        const [name, ...value] = words[i + 1].split(':');
        headers[name.trim()] = value.join(':').trim();
      }
    });
    return { kind: 'http', url, headers };
  }
  if (setup.format === 'toml') {
    const server = (parseToml(setup.text) as { mcp_servers: Record<string, { url: string; http_headers?: Record<string, string> }> }).mcp_servers.shelfmark;
    return { kind: 'http', url: server.url, headers: server.http_headers ?? {} };
  }
  const config = JSON.parse(setup.text) as Record<string, Record<string, Record<string, unknown>>>;
  const entry = (config.mcpServers ?? config.servers ?? config.context_servers).shelfmark;
  if (typeof entry.command === 'string') return { kind: 'stdio', command: entry.command, args: entry.args as string[] };
  const url = (entry.url ?? entry.serverUrl ?? entry.httpUrl) as string;
  return { kind: 'http', url, headers: (entry.headers as Record<string, string>) ?? {} };
}

function transportFor(target: Described | Started): Transport {
  if (target.kind === 'http') return new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers } });
  return new StdioClientTransport({ command: target.command, args: target.args, stderr: 'pipe' });
}

/** What an assistant does with the server: its tools, then resolve → query-docs. */
async function assistantCalls(target: Described | Started): Promise<{ tools: string[]; resolved: string; docs: string }> {
  const client = new Client({ name: 'connect-setup-test', version: '1.0.0' });
  await client.connect(transportFor(target));
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const resolved = (await client.callTool({ name: 'resolve-library-id', arguments: { libraryName: 'widgets', query: 'create a widget' } })) as {
      content: Array<{ text: string }>;
    };
    const docs = (await client.callTool({ name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'how do I create a widget?' } })) as {
      content: Array<{ text: string }>;
      isError?: boolean;
    };
    if (docs.isError) throw new Error(docs.content[0].text);
    return { tools, resolved: resolved.content[0].text, docs: docs.content[0].text };
  } finally {
    await client.close();
  }
}

test('the Connect endpoint names this server, its MCP URL and the stdio bridge, and warns about a loopback address', async (t) => {
  const res = await fetch(`${base}/v2/connect`, { headers: { Authorization: `Bearer ${key}` } });
  t.is(res.status, 200);
  const info = (await res.json()) as { publicUrl: string; mcpUrl: string; source: string; warning: string | null; stdio: { command: string; script: string } };
  t.is(info.publicUrl, base);
  t.is(info.mcpUrl, `${base}/mcp`);
  t.is(info.source, 'request');
  t.regex(info.warning ?? '', /loopback[\s\S]*SHELFMARK_PUBLIC_URL/);
  t.regex(info.stdio.script, /\/bin\/shelfmark\.mjs$/);
  t.is((await fetch(`${base}/v2/connect`)).status, 401, 'signed-in users only');
});

test('every setup on the Connect page works as written: tools listed, a library resolved, its docs answered (HTTP and stdio)', async (t) => {
  const info = (await (await fetch(`${base}/v2/connect`, { headers: { Authorization: `Bearer ${key}` } })).json()) as {
    mcpUrl: string;
    publicUrl: string;
    stdio: { command: string; script: string };
  };
  const setups = connectSetups({ mcpUrl: info.mcpUrl, apiUrl: info.publicUrl, key, stdio: info.stdio }) as Setup[];
  t.deepEqual(
    setups.map((s) => s.name),
    ['Claude Code', 'Claude Desktop', 'Cursor', 'VS Code', 'Windsurf', 'Codex CLI', 'Zed', 'JetBrains IDEs', 'Gemini CLI', 'Any client (stdio)'],
  );
  const transports = new Set<string>();
  for (const setup of setups) {
    const target = read(setup);
    t.is(target.kind, setup.transport, setup.name);
    transports.add(target.kind);
    if (target.kind === 'http') t.is(target.headers.Authorization, `Bearer ${key}`, `${setup.name} sends the key`);
    else t.true(target.args.includes(key), `${setup.name} passes the key`);
    const seen = await assistantCalls(target);
    t.deepEqual(seen.tools, ['get-library-docs', 'get-upgrade-guide', 'query-code', 'query-docs', 'resolve-library-id', 'search-docs'], setup.name);
    t.regex(seen.resolved, /\/acme\/widgets/, setup.name);
    t.regex(seen.docs, /createWidget\("spinner"/, setup.name);
  }
  t.deepEqual([...transports].sort(), ['http', 'stdio']);
  // The key each HTTP setup sends is the one counted: the calls above were made with it.
  await app.services.usage.flush();
  const usage = await app.services.usage.metrics('/acme/widgets', 1);
  t.true(usage.totals.byChannel.mcp >= setups.length, `mcp requests counted: ${usage.totals.byChannel.mcp}`);
});

test('without a key the setups carry no credentials, and a wrong key is refused as the assistant would see it', async (t) => {
  const stdio = { command: 'node', script: '/srv/shelfmark/bin/shelfmark.mjs' };
  for (const setup of connectSetups({ mcpUrl: `${base}/mcp`, apiUrl: base, key: '', stdio }) as Setup[]) {
    t.false(/Bearer|--api-key|smk_/.test(setup.text), setup.name);
  }
  const [cursor] = (connectSetups({ mcpUrl: `${base}/mcp`, apiUrl: base, key: 'smk_not_a_real_key', stdio }) as Setup[]).filter((s) => s.id === 'cursor');
  const client = new Client({ name: 'connect-setup-test', version: '1.0.0' });
  await t.throwsAsync(client.connect(transportFor(read(cursor))), { message: /401|invalid/i });
});
