/**
 * What every command shares: its options parsed with node:util `parseArgs` (strict), the
 * common options (--api-url, --api-key, --json, --help), and the output — a human form on
 * stdout, or JSON with --json; messages and progress on stderr, so stdout stays clean for
 * pipes (`shelfmark export … > file`, `shelfmark search … --json | jq`).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ApiClient } from './api';
import { CliError, EXIT } from './errors';

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The command's own --help text. */
  usage: string;
  run(argv: string[]): Promise<void>;
}

export const COMMON_USAGE = `Common options:
  --api-url <url>   the Shelfmark server (default: $SHELFMARK_API_URL or http://localhost:3000)
  --api-key <key>   an API key, smk_… (default: $SHELFMARK_API_KEY)
  --json            print the result as JSON on stdout
  -h, --help        this help`;

type Options = NonNullable<ParseArgsConfig['options']>;

const COMMON: Options = {
  'api-url': { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  json: boolean;
  api: ApiClient;
  apiUrl: string;
}

/**
 * Parses a command's arguments. `--help` prints its usage and exits 0; a wrong command
 * line exits 2 naming the problem.
 */
export function parseCommand(command: Pick<Command, 'name' | 'usage'>, argv: string[], options: Options, positionals: { min: number; max: number }): Parsed {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: { ...COMMON, ...options }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${command.usage}`, EXIT.usage);
  }
  const values = parsed.values as Parsed['values'];
  if (values.help) {
    process.stdout.write(`${command.usage}\n`);
    process.exit(EXIT.ok);
  }
  if (parsed.positionals.length < positionals.min) throw new CliError(`${command.name}: missing argument.\n\n${command.usage}`, EXIT.usage);
  if (parsed.positionals.length > positionals.max)
    throw new CliError(`${command.name}: unexpected argument "${parsed.positionals[positionals.max]}".\n\n${command.usage}`, EXIT.usage);
  const apiUrl = (values['api-url'] as string | undefined) ?? (process.env.SHELFMARK_API_URL || 'http://localhost:3000');
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new CliError(`--api-url must be an http(s) URL, got "${apiUrl}".`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--api-url must be an http(s) URL, got "${apiUrl}".`, EXIT.usage);
  const apiKey = (values['api-key'] as string | undefined) ?? (process.env.SHELFMARK_API_KEY || undefined);
  return { values, positionals: parsed.positionals, json: values.json === true, api: new ApiClient({ apiUrl, apiKey }), apiUrl };
}

/** Prints a result: JSON with --json, else the human form (nothing when it is empty). */
export function output(parsed: Pick<Parsed, 'json'>, data: unknown, human: () => string): void {
  if (parsed.json) {
    process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  const text = human();
  if (text) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** A whole number option, or a usage error naming it. */
export function intOption(value: string | boolean | undefined, name: string, range: { min: number; max: number }): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < range.min || n > range.max) {
    throw new CliError(`--${name} must be a whole number from ${range.min} to ${range.max}.`, EXIT.usage);
  }
  return n;
}

/** A fixed-width table for the human forms. */
export function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (c ?? '').padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}
