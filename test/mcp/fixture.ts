/**
 * A live Shelfmark server for the MCP tests: real stores, a local Git server with two small
 * repositories indexed through the real pipeline (POST /v2/add/repo/github), listening on an
 * ephemeral port; and MCP clients over both transports (the official SDK client).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT_DIR } from '../../src/config';
import { createTestApp, type TestApp } from '../harness';
import { createRepo, startGitServer, type GitServer } from '../git-server';
import { adminKey } from '../auth/fixtures';

export const BIN = path.join(ROOT_DIR, 'bin', 'shelfmark.mjs');

const GUIDE = `# Widgets guide

Widgets are small reusable parts.

## Creating a widget

Call \`createWidget()\` with a name to make a new widget:

\`\`\`js
import { createWidget } from 'widgets';
const w = createWidget('spinner', { size: 3 });
w.start();
\`\`\`

## Deleting a widget

Use \`w.destroy()\` to free its resources when it is no longer needed.

\`\`\`js
w.destroy();
console.log(w.destroyed); // true
\`\`\`
`;

const GADGETS = `# Gadgets

Gadgets measure things.

## Measuring a length

Pass a unit to \`measure()\` to read a length:

\`\`\`ts
import { measure } from 'gadgets';
const cm = measure('length', { unit: 'cm' });
console.log(cm.value);
\`\`\`
`;

export interface McpFixture {
  app: TestApp;
  git: GitServer;
  /** An admin's API key (smk_...). */
  adminKey: string;
  /** The live server, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/** Starts the server and indexes /acme/widgets (tags v1.0.0, v2.0.0) and /acme/gadgets. */
export async function startMcpFixture(overrides: Record<string, string> = {}): Promise<McpFixture> {
  const git = await startGitServer();
  createRepo(git.root, 'acme/widgets', [
    { files: { 'README.md': '# Widgets\n\nA widget toolkit for the web.\n', 'docs/guide.md': GUIDE.replace('spinner', 'old-spinner') }, tag: 'v1.0.0' },
    { files: { 'README.md': '# Widgets\n\nA widget toolkit for the web.\n', 'docs/guide.md': GUIDE }, tag: 'v2.0.0' },
  ]);
  createRepo(git.root, 'acme/gadgets', [{ files: { 'README.md': GADGETS } }]);
  let app: TestApp | undefined;
  let key: string;
  try {
    app = await createTestApp({ GITHUB_BASE_URL: git.url, GIT_ALLOWED_URL_PREFIXES: `${git.url}/`, ...overrides });
    key = await adminKey(app);
    for (const repo of ['acme/widgets', 'acme/gadgets']) {
      const res = await app.request
        .post('/v2/add/repo/github')
        .set('Authorization', `Bearer ${key}`)
        .send({ docsRepoUrl: `${git.url}/${repo}` });
      if (res.status !== 200) throw new Error(`indexing ${repo} failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
  } catch (error) {
    await app?.close();
    await git.close();
    throw error;
  }
  const ready: TestApp = app;
  const server = http.createServer(ready.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    app: ready,
    git,
    adminKey: key,
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ready.close();
      await git.close();
    },
  };
}

/** An MCP client connected to `<url>/mcp` over Streamable HTTP, sending `headers`. */
export async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'shelfmark-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers } }));
  return client;
}

/** An MCP client talking to `bin/shelfmark.mjs mcp --transport stdio` (spawned from another cwd). */
export async function connectStdio(
  url: string,
  options: { apiKey?: string; env?: Record<string, string> } = {},
): Promise<{ client: Client; stderr: () => string }> {
  const args = [BIN, 'mcp', '--transport', 'stdio', '--api-url', url];
  if (options.apiKey) args.push('--api-key', options.apiKey);
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: '/', env: { ...options.env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'shelfmark-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The text of a tool result (all text parts joined). */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** Waits, when needed, so that the next requests fall in one fixed rate-limit minute. */
export async function awaitFreshWindow(neededMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
