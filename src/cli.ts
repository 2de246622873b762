/**
 * The `shelfmark` command (bin/shelfmark.mjs runs this file through tsx).
 *
 *   shelfmark mcp [--transport stdio] [--api-url <server>] [--api-key <key>] [--log-level <level>]
 *
 * `--api-key` falls back to SHELFMARK_API_KEY and `--api-url` to SHELFMARK_API_URL, then
 * http://localhost:3000. Everything but the MCP protocol is written to stderr.
 */
import { parseArgs } from 'node:util';
import { createLogger } from './logger';

const USAGE = `Usage: shelfmark mcp [--transport stdio] [--api-url <server>] [--api-key <key>] [--log-level <level>]

Serves Shelfmark's MCP tools (resolve-library-id, query-docs, get-library-docs) over stdio,
answering from a Shelfmark server's HTTP API.

  --transport   stdio (default). Streamable HTTP is served by the server itself at <server>/mcp.
  --api-url     the Shelfmark server (default: $SHELFMARK_API_URL or http://localhost:3000)
  --api-key     an API key (smk_...) for higher rate limits and private libraries
                (default: $SHELFMARK_API_KEY)
  --log-level   fatal, error, warn, info, debug or silent (default: info; logs go to stderr)
`;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function fail(message: string): never {
  process.stderr.write(`shelfmark: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function runMcp(argv: string[]): Promise<void> {
  let values: { transport?: string; 'api-url'?: string; 'api-key'?: string; 'log-level'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        transport: { type: 'string' },
        'api-url': { type: 'string' },
        'api-key': { type: 'string' },
        'log-level': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stderr.write(USAGE);
    return;
  }
  const transport = values.transport ?? 'stdio';
  if (transport === 'http' || transport === 'streamable-http') {
    fail('--transport http is not needed: a running Shelfmark server already serves MCP over Streamable HTTP at <server>/mcp (start it with `npm start`). Use --transport stdio here.');
  }
  if (transport !== 'stdio') fail(`unknown transport "${transport}" (only stdio).`);
  const apiUrl = values['api-url'] ?? process.env.SHELFMARK_API_URL ?? 'http://localhost:3000';
  let parsed: URL;
  try {
    parsed = new URL(apiUrl);
  } catch {
    fail(`--api-url must be an http(s) URL, got "${apiUrl}".`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(`--api-url must be an http(s) URL, got "${apiUrl}".`);
  const level = values['log-level'] ?? 'info';
  if (!LOG_LEVELS.includes(level)) fail(`--log-level must be one of ${LOG_LEVELS.join(', ')}.`);
  const apiKey = values['api-key'] ?? (process.env.SHELFMARK_API_KEY || undefined);

  const log = createLogger(level, process.stderr);
  const { runStdioServer } = await import('./mcp/stdio');
  await runStdioServer({ apiUrl, apiKey, log });
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stderr.write(USAGE);
    process.exit(command === undefined ? 2 : 0);
  }
  if (command === 'mcp') return runMcp(rest);
  fail(`unknown command "${command}".`);
}

await main(process.argv.slice(2));
