/**
 * `shelfmark mcp [--transport stdio] …`: Shelfmark's MCP tools over stdio, answering from a
 * server's HTTP API. Everything but the protocol goes to stderr (stdout is the protocol).
 */
import { parseArgs } from 'node:util';
import { createLogger } from '../../logger';
import { CliError, EXIT } from '../errors';
import type { Command } from '../command';

const USAGE = `Usage: shelfmark mcp [--transport stdio] [--api-url <server>] [--api-key <key>] [--project <prj_...>] [--log-level <level>]

Serves Shelfmark's MCP tools (resolve-library-id, query-docs, get-library-docs) over stdio,
answering from a Shelfmark server's HTTP API.

  --transport   stdio (default). Streamable HTTP is served by the server itself at <server>/mcp.
  --api-url     the Shelfmark server (default: $SHELFMARK_API_URL or http://localhost:3000)
  --api-key     an API key (smk_...) for higher rate limits and private libraries
                (default: $SHELFMARK_API_KEY)
  --project     a project (prj_...): libraries it pins are answered at the pinned version
                when a call names none (default: $SHELFMARK_PROJECT)
  --log-level   fatal, error, warn, info, debug or silent (default: info; logs go to stderr)`;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function usageError(message: string): CliError {
  return new CliError(`${message}\n\n${USAGE}`, EXIT.usage);
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the MCP tools over stdio',
  usage: USAGE,
  async run(argv) {
    let values: { transport?: string; 'api-url'?: string; 'api-key'?: string; 'log-level'?: string; project?: string; help?: boolean };
    try {
      ({ values } = parseArgs({
        args: argv,
        options: {
          transport: { type: 'string' },
          'api-url': { type: 'string' },
          'api-key': { type: 'string' },
          'log-level': { type: 'string' },
          project: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
        allowPositionals: false,
      }));
    } catch (error) {
      throw usageError((error as Error).message);
    }
    if (values.help) {
      // stdout is the protocol's: help goes to stderr.
      process.stderr.write(`${USAGE}\n`);
      return;
    }
    const transport = values.transport ?? 'stdio';
    if (transport === 'http' || transport === 'streamable-http') {
      throw usageError(
        '--transport http is not needed: a running Shelfmark server already serves MCP over Streamable HTTP at <server>/mcp (start it with `npm start`). Use --transport stdio here.',
      );
    }
    if (transport !== 'stdio') throw usageError(`unknown transport "${transport}" (only stdio).`);
    const apiUrl = values['api-url'] ?? process.env.SHELFMARK_API_URL ?? 'http://localhost:3000';
    let parsed: URL;
    try {
      parsed = new URL(apiUrl);
    } catch {
      throw usageError(`--api-url must be an http(s) URL, got "${apiUrl}".`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw usageError(`--api-url must be an http(s) URL, got "${apiUrl}".`);
    const level = values['log-level'] ?? 'info';
    if (!LOG_LEVELS.includes(level)) throw usageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}.`);
    const apiKey = values['api-key'] ?? (process.env.SHELFMARK_API_KEY || undefined);
    const log = createLogger(level, process.stderr);
    const { runStdioServer } = await import('../../mcp/stdio');
    const projectId = values.project ?? (process.env.SHELFMARK_PROJECT || undefined);
    await runStdioServer({ apiUrl, apiKey, projectId, log });
  },
};
