/**
 * The `shelfmark` command (bin/shelfmark.mjs runs this file through tsx): a dispatcher over
 * the commands in src/cli/commands/, one module each. Every command talks to a Shelfmark
 * server's HTTP API (SHELFMARK_API_URL, key from SHELFMARK_API_KEY), prints its result on
 * stdout (JSON with --json) and messages on stderr, and exits with a code from
 * src/cli/errors.ts (docs/CLI.md) that scripts can rely on.
 */
import type { Command } from './cli/command';
import { CliError, EXIT } from './cli/errors';
import { addCommand } from './cli/commands/add';
import { searchCommand } from './cli/commands/search';
import { contextCommand } from './cli/commands/context';
import { jobsCommand } from './cli/commands/jobs';
import { refreshCommand } from './cli/commands/refresh';
import { sourcesCommand } from './cli/commands/sources';
import { exportCommand, importCommand } from './cli/commands/bundles';
import { keysCommand } from './cli/commands/keys';
import { mcpCommand } from './cli/commands/mcp';
import { askCommand } from './cli/commands/ask';
import { upgradeCommand } from './cli/commands/upgrade';
import { projectCommand } from './cli/commands/project';
import { codeCommand } from './cli/commands/code';

const COMMANDS: Command[] = [
  addCommand,
  searchCommand,
  contextCommand,
  askCommand,
  upgradeCommand,
  codeCommand,
  jobsCommand,
  refreshCommand,
  sourcesCommand,
  exportCommand,
  importCommand,
  keysCommand,
  projectCommand,
  mcpCommand,
];

const USAGE = `Usage: shelfmark <command> [options]     (shelfmark <command> --help for its options)

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(9)} ${c.summary}`).join('\n')}

Environment: SHELFMARK_API_URL (default http://localhost:3000), SHELFMARK_API_KEY;
SHELFMARK_USERNAME and SHELFMARK_PASSWORD for \`keys\`.
Exit codes: 0 ok, 1 server error or unreachable, 2 usage, 3 authentication or permission,
4 not found, 5 input refused, 6 conflict, 7 rate limited, 8 timed out or job failed.`;

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(`${USAGE}\n`);
    process.exitCode = name === undefined ? EXIT.usage : EXIT.ok;
    return;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new CliError(`unknown command "${name}".\n\n${USAGE}`, EXIT.usage);
  await command.run(rest);
}

const json = process.argv.includes('--json');
try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof CliError) {
    if (json)
      process.stdout.write(
        `${JSON.stringify({ error: error.code ?? 'cli_error', message: error.message, status: error.status ?? null, exitCode: error.exitCode })}\n`,
      );
    process.stderr.write(`shelfmark: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`shelfmark: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = EXIT.failed;
  }
}
