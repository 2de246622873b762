/**
 * The MCP server factory: one McpServer with the Shelfmark tools, bound to a backend.
 * Both transports build it the same way — `/mcp` once per HTTP request (with the caller's
 * principal inside the backend), stdio once per process (with an HTTP client backend).
 */
import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DocsBackend, ToolLog } from './backend';
import type { ToolArguments } from './arguments';
import { toolFailure } from './errors';
import { SHELFMARK_TOOLS, type ShelfmarkTool } from './tools';
import { ROOT_DIR } from '../config';

export const SHELFMARK_VERSION: string = (JSON.parse(fs.readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string }).version;

export const SERVER_INSTRUCTIONS =
  'Shelfmark serves up-to-date library documentation. Call resolve-library-id with a library name to get its ID (unless the user gave one like /org/project), then query-docs with that ID and a specific question.';

/** Runs one tool call: the text answer, or an `isError` result the model can act on. */
export async function callTool(tool: ShelfmarkTool, args: ToolArguments, backend: DocsBackend, log: ToolLog): Promise<CallToolResult> {
  try {
    const text = await tool.run(args, backend);
    return { content: [{ type: 'text', text }] };
  } catch (error) {
    const failure = toolFailure(error);
    if (failure.unexpected) log.error({ err: error, tool: tool.name }, 'MCP tool call failed');
    return { content: [{ type: 'text', text: failure.text }], isError: true };
  }
}

export function createMcpServer(backend: DocsBackend, options: { log: ToolLog }): McpServer {
  const server = new McpServer({ name: 'shelfmark', title: 'Shelfmark', version: SHELFMARK_VERSION }, { instructions: SERVER_INSTRUCTIONS });
  for (const tool of SHELFMARK_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false },
      },
      (args: ToolArguments) => callTool(tool, args, backend, options.log),
    );
  }
  return server;
}
