/**
 * MCP over stdio for local clients: the same tools, answered by calling a Shelfmark
 * server's HTTP API. stdout carries the protocol only; logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from '../logger';
import { httpBackend } from './backends/http';
import { createMcpServer, SHELFMARK_VERSION } from './server';

export interface StdioOptions {
  apiUrl: string;
  apiKey?: string;
  /** A project whose pinned versions answer calls that name no version. */
  projectId?: string;
  log: Logger;
}

/**
 * Serves until stdin closes (the process then exits once the calls in flight are
 * answered, as nothing else keeps it alive) or it is told to stop.
 */
export async function runStdioServer(options: StdioOptions): Promise<void> {
  const backend = httpBackend({
    apiUrl: options.apiUrl,
    apiKey: options.apiKey,
    projectId: options.projectId,
    userAgent: `shelfmark-mcp-stdio/${SHELFMARK_VERSION}`,
  });
  const server = createMcpServer(backend, { log: options.log });
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = (reason: string) => {
    if (closing) return;
    closing = true;
    options.log.info({ reason }, 'MCP stdio server stopping');
    void server.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await server.connect(transport);
  options.log.info({ apiUrl: options.apiUrl, withKey: Boolean(options.apiKey) }, 'MCP stdio server ready');
}
