/**
 * `npm run bench -- [--url http://127.0.0.1:PORT] [--duration 10] [--clients 1,8,32]
 *  [--out .bench/bench-<ts>.json] [--dataset ../shared/eval/dev.yaml] [--corpus ../shared/corpus]
 *  [--api-key smk_...] [--pid N] [--skip-load] [--no-auth]`
 *
 * Latency (p50/p95/p99) and throughput of `/v2/context` (default tokens; the default txt
 * form and type=json) and `/v2/libs/search` at 1, 8 and 32 keep-alive clients on loopback,
 * each for a fixed time after a warm-up of every target (the server's code is optimised by
 * the JIT before anything is timed),
 * cycling the eval questions; the same context candidate queries sent straight to
 * Elasticsearch (the floor) and the server/ES p50 ratio; the server's peak RSS; and the
 * authentication + rate-limiting overhead at one client (anonymous, `smk_` key, and the
 * global API_KEY, which skips rate limiting), and the two middlewares alone on a trivial
 * route (api/middleware.ts). Loads the corpus first when the eval's
 * libraries are missing. Starts its own server unless --url is given.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, ROOT_DIR } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createServices, openStores, portsOf, type Lifecycle } from '../../src/services';
import type { Ports } from '../../src/ports';
import { loadCorpus, printSummary, type LoadSummary } from '../eval/load-corpus';
import { readDataset, DatasetError, type EvalEntry } from '../eval/dataset';
import { gitRevision } from '../eval/revision';
import { displayPath } from '../eval/table';
import { startServer, type StartedServer } from './harness/server';
import { RssSampler, type RssReport } from './harness/rss';
import { assertLoopback, contextRequests, elasticsearchFloorRequests, missingLibraries, searchRequests } from './api/workload';
import { AUTH_BASELINES, measureAuth } from './api/auth';
import { formatMiddlewareOverhead, measureMiddlewareOverhead } from './api/middleware';
import { anySuccess, checkPass, measure } from './api/measure';
import { runClosedLoop, type RequestSpec } from './harness/load';
import { floorRatios, formatAuth, formatCpu, formatRatios, formatRuns, type RunResult } from './api/report';
import { CpuMeter, storePids } from './harness/cpu';

const USAGE =
  'usage: npm run bench -- [--url http://127.0.0.1:PORT] [--duration 10] [--clients 1,8,32] [--out .bench/bench-<ts>.json] [--dataset FILE] [--corpus DIR] [--api-key smk_...] [--pid N] [--skip-load] [--no-auth]';

/** Warm-up of each target before the first timed run (JIT, caches, connection pools). */
const WARMUP_MS = 5000;

class UsageError extends Error {}
/** An expected stop with a message that says what to do (printed without a stack). */
class BenchError extends Error {}

interface BenchOptions {
  url?: string;
  durationMs: number;
  clients: number[];
  out: string;
  dataset: string;
  corpus: string;
  apiKey?: string;
  pid?: number;
  skipLoad: boolean;
  auth: boolean;
}

function parseOptions(argv: string[]): BenchOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      duration: { type: 'string', default: '10' },
      clients: { type: 'string', default: '1,8,32' },
      out: { type: 'string' },
      dataset: { type: 'string', default: path.resolve(ROOT_DIR, '..', 'shared', 'eval', 'dev.yaml') },
      corpus: { type: 'string', default: path.resolve(ROOT_DIR, '..', 'shared', 'corpus') },
      'api-key': { type: 'string' },
      pid: { type: 'string' },
      'skip-load': { type: 'boolean', default: false },
      'no-auth': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length > 0) throw new UsageError(USAGE);
  const duration = Number(values.duration);
  if (!(duration >= 1 && duration <= 300)) throw new UsageError(`--duration must be 1 to 300 seconds.\n${USAGE}`);
  const clients = (values.clients ?? '').split(',').map(Number);
  if (clients.length === 0 || clients.some((c) => !Number.isInteger(c) || c < 1 || c > 256))
    throw new UsageError(`--clients must be whole numbers from 1 to 256, comma-separated.\n${USAGE}`);
  const pid = values.pid === undefined ? undefined : Number(values.pid);
  if (pid !== undefined && !Number.isInteger(pid)) throw new UsageError(`--pid must be a process id.\n${USAGE}`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    url: values.url?.replace(/\/+$/, ''),
    durationMs: duration * 1000,
    clients,
    out: path.resolve(values.out ?? path.join('.bench', `bench-${stamp}.json`)),
    dataset: path.resolve(values.dataset ?? ''),
    corpus: path.resolve(values.corpus ?? ''),
    apiKey: values['api-key'] || undefined,
    pid,
    skipLoad: values['skip-load'] ?? false,
    auth: !(values['no-auth'] ?? false),
  };
}

const say = (line: string) => console.error(line);

/** Loads the corpus when the eval's libraries are missing; returns the entries that can run. */
async function ensureCorpus(
  services: Ports,
  lifecycle: Lifecycle,
  entries: EvalEntry[],
  options: BenchOptions,
): Promise<{ entries: EvalEntry[]; loaded?: LoadSummary[]; skipReason?: string }> {
  let missing = await missingLibraries(services, entries);
  if (missing.length === 0) return { entries };
  let loaded: LoadSummary[] | undefined;
  if (!options.skipLoad) {
    if (!fs.existsSync(path.join(options.corpus, 'MANIFEST.tsv'))) {
      return {
        entries: [],
        skipReason: `${missing.length} of the eval's libraries are not indexed and the corpus folder ${options.corpus} is absent: load the libraries (npm run load -- <corpus>) or pass --corpus.`,
      };
    }
    say(`Loading the corpus from ${options.corpus} (not indexed yet: ${missing.join(', ')}) …`);
    const started = Date.now();
    lifecycle.startWorker();
    loaded = await loadCorpus(services, options.corpus);
    await lifecycle.worker?.stop();
    printSummary(loaded, (Date.now() - started) / 1000);
    missing = await missingLibraries(services, entries);
  }
  if (missing.length > 0) say(`Not indexed, left out of the benchmark: ${missing.join(', ')}`);
  const usable = entries.filter((e) => !missing.includes(e.library));
  return { entries: usable, loaded, ...(usable.length === 0 ? { skipReason: 'none of the eval libraries is indexed.' } : {}) };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const allEntries = readDataset(options.dataset);
  if (options.url) assertLoopback(options.url, 'The server');
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  assertLoopback(config.elasticsearchUrl, 'Elasticsearch');
  const log = createLogger(config.logLevel, process.stderr);
  const handles = await openStores(config, log);
  const composition = await createServices(config, log, handles);
  const { lifecycle } = composition;
  const services = portsOf(composition);
  const servers: StartedServer[] = [];
  let sampler: RssSampler | undefined;
  const notes: string[] = [];
  try {
    const corpus = await ensureCorpus(services, lifecycle, allEntries, options);
    if (corpus.skipReason) {
      console.log(`Benchmark skipped: ${corpus.skipReason}`);
      return 0;
    }
    const entries = corpus.entries;
    const floor = await elasticsearchFloorRequests(services, entries);
    if (floor.skipped.length > 0) notes.push(`Elasticsearch floor leaves out ${floor.skipped.length} questions: ${floor.skipped.join('; ')}`);

    let url = options.url;
    if (!url) {
      say('Starting a server (LOG_LEVEL=warn, WORKER_MODE=off, rate limits 1,000,000/min) …');
      const server = await startServer(ROOT_DIR);
      servers.push(server);
      url = server.url;
      say(`  ${url} (pid ${server.pid})`);
    }
    const pid = servers[0]?.pid ?? options.pid;
    if (pid !== undefined) {
      sampler = new RssSampler(pid);
      if (!sampler.start()) {
        notes.push(`RSS not measured: no /proc/${pid}/status`);
        sampler = undefined;
      }
    } else notes.push('RSS not measured: pass --pid with --url to sample the server process');

    const context = contextRequests(url, entries);
    const contextJson = contextRequests(url, entries, undefined, 'json');
    const search = searchRequests(url, entries);
    say(`Checking ${entries.length} questions once (context, libs/search, Elasticsearch) …`);
    const checks = {
      context: await checkPass(context),
      'context (json)': await checkPass(contextJson),
      search: await checkPass(search),
      elasticsearch: await checkPass(floor.requests),
    };
    for (const [name, c] of Object.entries(checks)) {
      say(
        `  ${name}: ${Object.entries(c.statuses)
          .map(([s, n]) => `${n} × ${s}`)
          .join(', ')}`,
      );
      if (c.firstFailure) notes.push(`${name}: first non-2xx answer: ${c.firstFailure}`);
    }
    if (!anySuccess(checks.context.statuses))
      throw new BenchError(
        `/v2/context answered no question with 2xx: ${checks.context.firstFailure ?? 'no answer'}. Check that the server runs this build and the corpus is loaded.`,
      );
    if (Object.values(checks).some((c) => (c.statuses['429'] ?? 0) > 0)) {
      throw new BenchError(
        'The server rate-limits the benchmark (429), so its figures would measure refusals: restart it with RATE_LIMIT_ANON_PER_MINUTE=1000000 RATE_LIMIT_KEY_PER_MINUTE=1000000, or run without --url to let the bench start its own.',
      );
    }

    const targets: Array<[string, RequestSpec[]]> = [
      ['context', context],
      ['context (json)', contextJson],
      ['libs/search', search],
      ['elasticsearch (floor)', floor.requests],
    ];
    say(`Warming up (${WARMUP_MS / 1000} s of each target at 8 clients) …`);
    for (const [, requests] of targets) if (requests.length > 0) await runClosedLoop({ concurrency: 8, durationMs: WARMUP_MS, warmupMs: 0, requests });

    say(`Measuring (${options.durationMs / 1000} s per run after a 1 s warm-up) …`);
    const cpu = new CpuMeter({ ...(pid !== undefined ? { server: pid } : {}), bench: process.pid, ...storePids(config.dataDir, config.elasticsearchUrl) });
    const runs: RunResult[] = [];
    for (const c of options.clients) {
      for (const [target, requests] of targets) if (requests.length > 0) runs.push(await measure(target, requests, c, options.durationMs, cpu));
    }
    const rss: RssReport | undefined = sampler?.stop();
    sampler = undefined;
    const gone = servers[0]?.exitStatus();
    if (gone !== undefined) notes.push(`The server exited during the run (${gone}); its last output:\n${servers[0].outputTail()}`);

    const auth =
      options.auth && gone === undefined
        ? await measureAuth(
            services,
            url,
            entries,
            { apiKey: options.apiKey, durationMs: options.durationMs, existingServer: options.url !== undefined },
            notes,
          )
        : [];
    if (options.auth) say('Authentication and rate-limiting middlewares on a trivial route (1,000 sequential requests per mode) …');
    const middleware = options.auth ? await measureMiddlewareOverhead({ ...process.env, LOG_LEVEL: 'warn' }) : undefined;

    const ratios = floorRatios(runs, ['context', 'context (json)'], 'elasticsearch (floor)');
    console.log(`\nThroughput and latency (closed loop, keep-alive, ${entries.length} questions cycled; latencies of 2xx answers)\n${formatRuns(runs)}`);
    if (ratios.length > 0) console.log(`\nServer context vs. the same query straight to Elasticsearch\n${formatRatios(ratios)}`);
    const cpuTable = formatCpu(runs);
    if (cpuTable) console.log(`\nCPU milliseconds per request, by process (all share the machine's ${os.cpus().length} cores)\n${cpuTable}`);
    if (rss)
      console.log(
        `\nServer memory (pid ${rss.pid}, ${rss.samples} samples): RSS ${rss.startRssMb} MB at start, peak sampled ${rss.peakSampledRssMb} MB, VmHWM ${rss.peakRssMb} MB`,
      );
    if (auth.length > 0) console.log(`\nAuthentication and rate limiting (context, 1 client)\n${formatAuth(auth, AUTH_BASELINES)}`);
    if (middleware)
      console.log(
        `\nThe same middlewares alone, on a trivial route in this process (sequential, keep-alive; rate counters: ${middleware.counterStrategy})\n${formatMiddlewareOverhead(middleware)}`,
      );
    if (notes.length > 0) console.log(`\nNotes\n${notes.map((n) => `  - ${n}`).join('\n')}`);

    const report = {
      config: {
        url,
        startedServer: servers.length > 0,
        serverEnv: servers[0]?.env,
        durationSeconds: options.durationMs / 1000,
        clients: options.clients,
        dataset: options.dataset,
        questions: entries.length,
        libraries: [...new Set(entries.map((e) => e.library))],
        elasticsearch: { url: new URL(config.elasticsearchUrl).origin, version: handles.esInfo.version, index: services.snippets.alias },
        revision: gitRevision(ROOT_DIR),
        node: process.version,
        cpus: os.cpus().length,
        cpuProcesses: cpu.pids,
        loadavg: os.loadavg(),
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
      },
      corpusLoad: corpus.loaded,
      checks,
      runs,
      floorRatios: ratios,
      rss,
      auth: {
        runs: auth,
        comparisons: Object.entries(AUTH_BASELINES).flatMap(([mode, baseline]) => {
          const a = auth.find((r) => r.target === mode);
          const b = auth.find((r) => r.target === baseline);
          return a && b ? [{ mode, baseline, p50DeltaMs: Math.round((a.summary.p50 - b.summary.p50) * 100) / 100 }] : [];
        }),
        middleware,
      },
      notes,
    };
    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    fs.writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nWrote ${displayPath(options.out)}`);
    return 0;
  } finally {
    sampler?.stop();
    for (const s of servers) await s.stop();
    await lifecycle.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const known = error instanceof UsageError || error instanceof DatasetError || error instanceof BenchError;
    console.error(known ? (error as Error).message : `bench failed: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = error instanceof BenchError ? 1 : known ? 2 : 1;
  },
);
