/**
 * The soak's command line, parsed once into a typed, frozen value (pure: no I/O, so the
 * rules on combinations are unit-tested).
 */
import { parseArgs } from 'node:util';

export const USAGE =
  'usage: npm run soak -- --minutes N [--chaos] [--url URL[,URL]] [--api-key smk_...] [--pid N[,N]] [--clients 4] [--rps 20] [--corpus DIR] [--corpus-libs koa,requests,...|all|none] [--out .soak/soak-<ts>.json]';

/** A wrong command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export interface SoakOptions {
  minutes: number;
  chaos: boolean;
  /** Servers to soak instead of starting two (read-only mix: nothing is added to their catalogue). */
  urls: string[];
  /** An administrator's key for the admin calls against --url servers. */
  apiKey?: string;
  /** Process ids of the --url servers, for RSS. */
  pids: number[];
  /** Reader clients (each paces itself to its share of --rps). */
  clients: number;
  /** Target rate of the readers together, requests per second. */
  rps: number;
  corpus: string;
  /** Corpus libraries to load (matched on the repository name or the full id); [] = none; undefined = all. */
  corpusLibs: string[] | undefined;
  out?: string;
}

/** The small libraries loaded by default: about 20 eval questions in a minute or so of indexing. */
export const DEFAULT_CORPUS_LIBS = ['koa', 'requests', 'httpx', 'click'];

/** A --chaos run needs room for two kills, each with up to 30 s of recovery and a quiet spell. */
export const MIN_CHAOS_MINUTES = 3;

export function parseSoakOptions(argv: readonly string[], defaults: { corpus: string }): Readonly<SoakOptions> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        minutes: { type: 'string' },
        chaos: { type: 'boolean', default: false },
        url: { type: 'string' },
        'api-key': { type: 'string' },
        pid: { type: 'string' },
        clients: { type: 'string', default: '4' },
        rps: { type: 'string', default: '20' },
        corpus: { type: 'string' },
        'corpus-libs': { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length > 0) throw new UsageError(USAGE);
  if (values.minutes === undefined) throw new UsageError(`--minutes is required.\n${USAGE}`);
  const minutes = Number(values.minutes);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 24 * 60) throw new UsageError(`--minutes must be a whole number from 1 to 1440.\n${USAGE}`);
  const chaos = values.chaos ?? false;
  if (chaos && minutes < MIN_CHAOS_MINUTES)
    throw new UsageError(`--chaos needs --minutes ${MIN_CHAOS_MINUTES} or more (two kills, each with up to 30 s of recovery).\n${USAGE}`);

  const urls = (values.url ?? '')
    .split(',')
    .map((u) => u.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const u of urls) {
    let parsedUrl: URL;
    try {
      parsedUrl = new URL(u);
    } catch {
      throw new UsageError(`--url ${u} is not a URL.\n${USAGE}`);
    }
    if (parsedUrl.protocol !== 'http:') throw new UsageError(`--url ${u}: only http:// on loopback is soaked.\n${USAGE}`);
  }
  const pids = (values.pid ?? '')
    .split(',')
    .filter((p) => p.trim() !== '')
    .map(Number);
  if (pids.some((p) => !Number.isInteger(p) || p <= 0)) throw new UsageError(`--pid must be process ids, comma-separated.\n${USAGE}`);
  if (pids.length > 0 && urls.length === 0) throw new UsageError(`--pid goes with --url (the soak knows the pids of the servers it starts).\n${USAGE}`);
  if (pids.length > 0 && pids.length !== urls.length) throw new UsageError(`--pid needs one process id per --url, in the same order.\n${USAGE}`);
  if (values['api-key'] !== undefined && urls.length === 0)
    throw new UsageError(`--api-key goes with --url (the soak makes its own key on the servers it starts).\n${USAGE}`);

  const clients = Number(values.clients);
  if (!Number.isInteger(clients) || clients < 1 || clients > 32) throw new UsageError(`--clients must be a whole number from 1 to 32.\n${USAGE}`);
  const rps = Number(values.rps);
  if (!Number.isFinite(rps) || rps < 1 || rps > 500) throw new UsageError(`--rps must be from 1 to 500.\n${USAGE}`);

  const libs = values['corpus-libs']?.trim();
  const corpusLibs =
    libs === undefined
      ? DEFAULT_CORPUS_LIBS
      : libs === 'all'
        ? undefined
        : libs === 'none' || libs === ''
          ? []
          : libs
              .split(',')
              .map((l) => l.trim())
              .filter(Boolean);

  return Object.freeze({
    minutes,
    chaos,
    urls,
    ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
    pids,
    clients,
    rps,
    corpus: values.corpus ?? defaults.corpus,
    corpusLibs,
    ...(values.out ? { out: values.out } : {}),
  });
}

/** Whether a corpus library id (`/owner/repo`) is one the options ask for. */
export function wantsCorpusLibrary(options: Pick<SoakOptions, 'corpusLibs'>, libraryId: string): boolean {
  if (options.corpusLibs === undefined) return true;
  const repo = libraryId.split('/').filter(Boolean)[1] ?? '';
  return options.corpusLibs.some((l) => l === libraryId || l === repo);
}
