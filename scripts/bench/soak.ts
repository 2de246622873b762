/**
 * `npm run soak -- --minutes N [--chaos] [--url URL[,URL]]`: a bounded loopback soak that
 * proves Shelfmark can be left running. Starts two servers (A and B, each with the
 * in-process worker, so jobs race between two workers) on a private database and index
 * prefix, a local Git server with a few repositories, and for N minutes sends a paced mix
 * to both: context (txt, JSON, anonymous and keyed), catalogue search, MCP, admin calls
 * and a key's life, adds, refreshes (after commits), OpenAPI uploads, and bad inputs.
 * Every minute it prints requests by status, p50/p99, each server's RSS, each store's read
 * latency (from /healthz) and open jobs; at the end the checks (scripts/bench/soak/rules.ts), a
 * summary and `.soak/soak-<ts>.json`. Exit code 1 when a check fails, 2 on a wrong
 * command line. `--chaos` kills FerretDB and then Elasticsearch while jobs run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../../src/config';
import { displayPath } from '../eval/table';
import { gitRevision } from '../eval/revision';
import { assertSupervisor, Chaos } from './soak/chaos';
import { InvariantChecker } from './soak/invariants';
import type { RequestSample } from './soak/minute';
import { Monitor } from './soak/monitor';
import { parseSoakOptions, UsageError, type SoakOptions } from './soak/options';
import { Recorder } from './soak/recorder';
import { formatChecks, formatKills, formatKindTable, formatMemory, formatMinuteLine, formatMinuteTable } from './soak/report';
import { judgeMemory, passed, verdict, type InvariantReport } from './soak/rules';
import { prepareOwnServers, prepareUrlServers, teardown, type Prepared } from './soak/setup';
import { soakName } from './soak/stores';
import { adminLoop, QuestionPool, readerLoop, SoakClient, Stopper, type LoopDeps } from './soak/traffic';
import { SoakWriter } from './soak/writer';

const say = (line: string) => console.error(line);
const DATASET = path.resolve(ROOT_DIR, '..', 'shared', 'eval', 'dev.yaml');
/**
 * /healthz of each server every second: a minute's p99 of the store reads then comes from
 * about 120 reads (at every 3 s, 40 reads, it would only be the slowest one).
 */
const HEALTH_EVERY_MS = 1000;
const RSS_EVERY_MS = 5000;
const JOBS_EVERY_MS = 5000;
const ADMIN_EVERY_MS = 2500;
const WRITE_EVERY_MS = 12_000;
/** How long the end waits for open jobs to finish before calling them stuck. */
const DRAIN_MS = 180_000;

async function main(): Promise<number> {
  const options = parseSoakOptions(process.argv.slice(2), { corpus: path.resolve(ROOT_DIR, '..', 'shared', 'corpus') });
  const startedAt = new Date();
  const name = soakName(startedAt);
  if (options.chaos) say(assertSupervisor(ROOT_DIR).replace(/^/gm, '  '));
  const prepared = options.urls.length > 0 ? await prepareUrlServers(options, DATASET, say) : await prepareOwnServers(options, name, DATASET, say);
  let interrupted = false;
  const stopper = new Stopper();
  const onSignal = () => {
    interrupted = true;
    say('Interrupted: stopping the traffic, then cleaning up …');
    stopper.stop();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await soak(options, prepared, stopper, () => interrupted, startedAt);
  } finally {
    for (const problem of await teardown(prepared)) say(problem);
  }
}

async function soak(options: SoakOptions, prepared: Prepared, stopper: Stopper, interrupted: () => boolean, startedAt: Date): Promise<number> {
  const { servers, key } = prepared;
  const runMs = options.minutes * 60_000;
  let t0 = Date.now();
  const clock = () => Date.now() - t0;
  let chaos: Chaos | undefined;
  const chaosOpen = () => chaos?.isOpen() ?? false;
  const setupSamples: RequestSample[] = [];
  let sink: (r: RequestSample) => void = (r) => setupSamples.push(r);
  const client = new SoakClient((r) => sink(r), clock, chaosOpen);
  const pool = new QuestionPool();
  for (const [libraryId, qs] of groupBy(prepared.questions)) pool.add(libraryId, qs);
  const random = Math.random;
  const deps: LoopDeps = { client, servers, pool, key, stopper, random };
  const own = prepared.own;
  const writer = own && key ? new SoakWriter({ ...deps, key }, own.git, own.repos, own.docs, own.reserve) : undefined;

  if (writer && own) {
    say('Adding the first libraries (one through each server and host) and an upload …');
    const [github, viaGit] = [own.repos.find((r) => r.host === 'github'), own.repos.find((r) => r.host === 'git')];
    if (github) await writer.add(github, servers[0]);
    if (viaGit) await writer.add(viaGit, servers[1]);
    if (own.docs[0]) await writer.upload(own.docs[0], { race: false });
    const bad = setupSamples.filter((s) => s.outcome !== 'ok' && s.outcome !== 'expected');
    if (bad.length > 0) throw new Error(`the first adds failed: ${bad.map((s) => `${s.kind} → ${s.detail ?? s.status}`).join('; ')}`);
  }
  if (pool.size === 0) {
    throw new Error(
      own
        ? "nothing to query: no corpus library loaded and no library added. Check the servers' output above."
        : `nothing to query: no library of the eval set (${DATASET}) answers on ${servers[0].url}. Load the corpus into that server (npm run load -- ../shared/corpus) or run the soak without --url.`,
    );
  }

  t0 = Date.now();
  const recorder = new Recorder(
    servers.map((s) => s.name),
    clock,
    chaosOpen,
  );
  sink = (r) => recorder.request(r);
  const monitor = new Monitor(servers, recorder, clock, chaosOpen, stopper);
  const questionFor = corpusQuestionFinder(prepared, writer);
  if (options.chaos) {
    // The local stores as config.ts finds them (services.sh records their pids beside their URLs).
    const dataDir = path.resolve(process.env.SHELFMARK_DATA_DIR ?? path.join(ROOT_DIR, '.data'));
    chaos = new Chaos({
      servers,
      monitor,
      stopper,
      clock,
      dataDir,
      elasticsearchUrl: process.env.ELASTICSEARCH_URL ?? fs.readFileSync(path.join(dataDir, 'run', 'es.url'), 'utf8').trim(),
      candidates: () => [...prepared.questions, ...Array.from({ length: 20 }, () => pool.pick(random))],
      startJobs: async () => writer?.startJobsForChaos(),
      key,
      log: say,
    });
  }

  say(
    `Soaking for ${options.minutes} min: ${options.clients} readers at ${options.rps} req/s in all, ${servers.length} servers${writer ? `, a write every ${WRITE_EVERY_MS / 1000} s` : ''}${chaos ? ', chaos' : ''} …`,
  );
  const errors: string[] = [];
  const guard = (what: string, p: Promise<void>) =>
    p.catch((error: unknown) => {
      errors.push(`${what}: ${(error as Error).stack ?? String(error)}`);
      say(`soak ${what} stopped: ${(error as Error).message}`);
    });
  const loops = [
    ...Array.from({ length: options.clients }, (_, i) => guard(`reader ${i + 1}`, readerLoop(deps, (options.clients * 1000) / options.rps, i * 1000))),
    guard('health', monitor.healthLoop(HEALTH_EVERY_MS)),
    guard('rss', monitor.rssLoop(prepared.pids, RSS_EVERY_MS)),
    ...(key
      ? [
          guard(
            'admin',
            adminLoop({ ...deps, key }, ADMIN_EVERY_MS, prepared.login, (body) => catalogue(body, pool, writer)),
          ),
          guard('jobs', monitor.jobsLoop(client, key, JOBS_EVERY_MS)),
        ]
      : []),
    ...(writer ? [guard('writer', writer.loop(WRITE_EVERY_MS))] : []),
    ...(chaos ? [guard('chaos', chaos.run(runMs))] : []),
  ];
  const exited = new Map<string, string>();
  let abandoned = false;
  loops.push(
    guard(
      'server watch',
      watchServers(prepared, clock, stopper, exited, (line) => {
        say(line);
        if (exited.size === servers.length) {
          say('Every server has exited: stopping the soak.');
          abandoned = true;
          stopper.stop();
        }
      }),
    ),
  );
  for (let minute = 1; minute <= options.minutes && !stopper.stopped; minute++) {
    await stopper.sleep(minute * 60_000 - clock());
    if (minute === options.minutes || stopper.stopped) {
      stopper.stop();
      await Promise.all(loops);
    }
    console.log(formatMinuteLine(recorder.closeMinute(), options.minutes));
  }
  const endedMs = clock();
  recorder.outages.finish(endedMs);
  client.close();
  monitor.close();
  chaos?.close();

  let jobs: unknown[] = [];
  let retriedJobLogs: Record<string, string[]> = {};
  let invariants: InvariantReport = {
    jobs: 0,
    stuck: [],
    failed: [],
    ranTwice: [],
    explainedRetries: [],
    halfBuilt: [],
    checkedLibraries: 0,
    skipped: key ? undefined : 'no admin key (--url without --api-key)',
  };
  if (key && !interrupted() && !abandoned) {
    say('Checking the invariants (jobs ended, none twice, every listed version serves snippets) …');
    const checker = new InvariantChecker({
      servers,
      key,
      windows: chaos?.windows ?? [],
      startedAtMs: t0,
      questionFor,
      added: [...(writer?.added.keys() ?? [])],
      log: say,
    });
    const open = await checker.drain(DRAIN_MS);
    if (open !== 0) say(`  ${open < 0 ? 'the jobs list could not be read' : `${open} job(s) still open`} after ${DRAIN_MS / 1000} s`);
    invariants = await checker.check();
    jobs = checker.jobs;
    retriedJobLogs = checker.retriedLogs;
    checker.close();
  } else if (interrupted() || abandoned) invariants.skipped = interrupted() ? 'interrupted' : 'every server exited';

  const memory = servers.filter((s) => prepared.pids[s.name] !== undefined).map((s) => judgeMemory(s.name, recorder.rss[s.name] ?? [], endedMs));
  const checks = verdict({
    minutes: recorder.minutes,
    longOutages: recorder.outages.long,
    memory,
    chaos: options.chaos,
    kills: chaos?.kills ?? [],
    invariants,
    serverExits: [...exited.values()],
  });
  if (errors.length > 0)
    checks.push({ rule: "the soak's own loops ran without error", status: 'fail', detail: errors.map((e) => e.split('\n')[0]).join('; ') });
  if (interrupted() || abandoned)
    checks.push({
      rule: 'the soak ran its full time',
      status: 'fail',
      detail: `${interrupted() ? 'interrupted' : 'stopped when every server had exited'} after ${(endedMs / 60_000).toFixed(1)} min`,
    });

  const names = servers.map((s) => s.name);
  console.log(`\nPer minute (latencies of answered requests; store reads from /healthz, p50/p99 in ms)\n${formatMinuteTable(recorder.minutes, names)}`);
  console.log(`\nCalls over the whole run\n${formatKindTable(recorder.kinds.totals())}`);
  if (chaos)
    console.log(`\nChaos (recovery = context and search 200 through every server and the store read again by every /healthz)\n${formatKills(chaos.kills)}`);
  if (memory.length > 0) console.log(`\nMemory (median RSS over 30 s)\n${formatMemory(memory)}`);
  console.log(`\nInvariants: ${invariants.skipped ?? `${invariants.jobs} jobs, ${invariants.checkedLibraries} libraries`}`);
  if (prepared.notes.length > 0) console.log(`\nNotes\n${prepared.notes.map((n) => `  - ${n}`).join('\n')}`);
  const ok = passed(checks);
  console.log(`\nChecks\n${formatChecks(checks)}\n\nSOAK ${ok ? 'PASSED' : 'FAILED'}`);

  const out = path.resolve(options.out ?? path.join(ROOT_DIR, '.soak', `soak-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`));
  const report = {
    config: {
      ...options,
      apiKey: options.apiKey ? '(given)' : undefined,
      servers,
      pids: prepared.pids,
      stores: prepared.own?.stores.name,
      revision: gitRevision(ROOT_DIR),
      node: process.version,
      startedAt: startedAt.toISOString(),
      ranMs: endedMs,
    },
    minutes: recorder.minutes,
    calls: recorder.kinds.totals(),
    rss: recorder.rss,
    health: recorder.healthSeries,
    storeOutages: recorder.outages.long,
    chaos: chaos ? { windows: chaos.windows, kills: chaos.kills } : undefined,
    memory,
    invariants,
    jobs,
    retriedJobLogs,
    checks,
    passed: ok,
    notes: prepared.notes,
    errors,
    serverOutput: ok ? undefined : Object.fromEntries((own?.started ?? []).map((s, i) => [servers[i].name, s.outputTail()])),
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Wrote ${displayPath(out)}`);
  return ok ? 0 : 1;
}

/**
 * Watches the servers every second (the soak's own through their process handles, --url
 * ones through /proc when --pid was given) and reports each exit once.
 */
async function watchServers(
  prepared: Prepared,
  clock: () => number,
  stopper: Stopper,
  exited: Map<string, string>,
  report: (line: string) => void,
): Promise<void> {
  while (!stopper.stopped) {
    for (const [i, server] of prepared.servers.entries()) {
      if (exited.has(server.name)) continue;
      const started = prepared.own?.started[i];
      const pid = prepared.pids[server.name];
      let why: string | undefined;
      if (started) {
        const status = started.exitStatus();
        if (status !== undefined) why = status === '0' ? 'exited with code 0, a graceful shutdown: something sent it SIGTERM or SIGINT' : `exited (${status})`;
      } else if (pid !== undefined && !fs.existsSync(`/proc/${pid}`)) why = `(pid ${pid}) is gone`;
      if (why) {
        exited.set(server.name, `server ${server.name} ${why} at ${(clock() / 1000).toFixed(0)} s`);
        report(exited.get(server.name) ?? '');
      }
    }
    await stopper.sleep(1000);
  }
}

function groupBy(questions: ReadonlyArray<{ libraryId: string; query: string }>): Map<string, Array<{ libraryId: string; query: string }>> {
  const out = new Map<string, Array<{ libraryId: string; query: string }>>();
  for (const q of questions) out.set(q.libraryId, [...(out.get(q.libraryId) ?? []), q]);
  return out;
}

/** A question for a library: one of its eval questions, the one it was added with, or a generic one. */
function corpusQuestionFinder(prepared: Prepared, writer: SoakWriter | undefined): (libraryId: string) => string {
  return (libraryId) =>
    prepared.questions.find((q) => q.libraryId === libraryId || q.libraryId.startsWith(`${libraryId}/`))?.query ??
    writer?.added.get(libraryId)?.question ??
    writer?.questionsFor(libraryId)[0]?.query ??
    `${libraryId.split('/').pop()} getting started`;
}

/** Puts libraries (and versions) the catalogue lists as built into the question pool. */
function catalogue(body: string, pool: QuestionPool, writer: SoakWriter | undefined): void {
  if (!writer) return;
  const { libraries } = JSON.parse(body) as { libraries: Array<{ id: string; builds: Array<{ version: string; totalSnippets: number }> }> };
  for (const lib of libraries) {
    for (const build of lib.builds.filter((b) => b.totalSnippets > 0)) {
      const id = build.version === 'latest' ? lib.id : `${lib.id}/${build.version}`;
      if (!pool.has(id)) pool.add(id, writer.questionsFor(lib.id, build.version));
    }
  }
}

main().then(
  (code) => {
    process.exitCode = code;
    // Keep-alive sockets and the stores' pools may hold the loop open.
    setTimeout(() => process.exit(code), 500).unref();
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(error.message);
      process.exitCode = 2;
      return;
    }
    console.error(`soak failed: ${(error as Error).message}`);
    if (!(error instanceof Error) || !/^(--chaos|nothing to query|the first adds)/.test(error.message)) console.error((error as Error).stack);
    process.exitCode = 1;
  },
);
