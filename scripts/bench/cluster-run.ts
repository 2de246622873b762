/**
 * `npx tsx scripts/bench/cluster-run.ts [--seconds 180] [--kill-at 40] [--restart-at 100] [--node 2] [--clients 4]`
 *
 * Shelfmark on the local three-node Elasticsearch cluster (`bash scripts/stores/services.sh cluster up`):
 * two API instances (ports 3220 and 3221, no in-process worker) and two separate workers, on a
 * private database and index prefix with `SHELFMARK_INDEX_SHARDS=2` and `SHELFMARK_INDEX_REPLICAS=1`.
 * A few corpus bundles are imported first; then clients read (context and library search,
 * alternating between the two APIs) while five Git libraries are added (jobs the workers
 * share), one Elasticsearch node is killed with SIGKILL at `--kill-at` and started again at
 * `--restart-at`. It prints requests by status and latency per phase, the cluster's health
 * over time (time to green after the kill and after the rejoin), and each job's outcome with
 * the checks that it ran once: one finalized job per library, its record switched to that
 * job's build, and as many snippets served as the record counts (no duplicates).
 * Embeddings are off (the run is about availability, and five builds' vectors would take minutes of CPU).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { loadConfig, ROOT_DIR } from '../../src/config';
import { sendRequest, type RequestSpec } from './harness/load';
import { percentile } from './harness/stats';
import { dropStoresNamed } from '../../test/drop-stores';
import http from 'node:http';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '180' },
    'kill-at': { type: 'string', default: '40' },
    'restart-at': { type: 'string', default: '100' },
    node: { type: 'string', default: '2' },
    clients: { type: 'string', default: '4' },
    bundles: { type: 'string', default: path.join(ROOT_DIR, '.data', 'scale', 'corpus-bundles') },
    keep: { type: 'boolean', default: false },
  },
});
const say = (line: string) => console.error(`[cluster] ${new Date().toISOString().slice(11, 19)} ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const API_KEY = 'smk_cluster-run-0123456789abcdef0123456789';
const SEEDED = ['psf__requests', 'encode__httpx', 'axios__axios', 'pallets__click'];
const ADDED = ['koajs/koa', 'colinhacks/zod', 'pallets/flask', 'pydantic/pydantic', 'sveltejs/svelte'];

/** `services.sh cluster ...` without blocking the clients (a node takes a minute to start). */
function services(...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(ROOT_DIR, 'scripts', 'stores', 'services.sh'), 'cluster', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`services.sh cluster ${args.join(' ')} failed: ${err}`))));
  });
}

/** A server or worker, its output in `<data>/logs/cluster-run-<name>.log`. */
function start(name: string, args: string[], env: Record<string, string>): ChildProcess {
  const out = fs.openSync(path.join(ROOT_DIR, '.data', 'logs', `cluster-run-${name}.log`), 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'main.ts'), ...args], {
    cwd: ROOT_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
  });
  child.on('exit', (code, signal) => say(`${name} exited (${signal ?? code})`));
  return child;
}

async function health(urls: string[]): Promise<{ status: string; nodes: number; unassigned: number } | undefined> {
  for (const url of urls) {
    try {
      const res = await fetch(`${url}/_cluster/health?timeout=1s`, { signal: AbortSignal.timeout(2000) });
      const body = (await res.json()) as { status: string; number_of_nodes: number; unassigned_shards: number };
      return { status: body.status, nodes: body.number_of_nodes, unassigned: body.unassigned_shards };
    } catch {
      // next node
    }
  }
  return undefined;
}

interface Sample {
  at: number;
  status: number;
  ms: number;
  kind: 'context' | 'search';
}

async function main(): Promise<void> {
  const runFile = path.join(ROOT_DIR, '.data', 'run', 'cluster.url');
  if (!fs.existsSync(runFile)) throw new Error('no local cluster: bash scripts/stores/services.sh cluster up');
  const nodes = fs.readFileSync(runFile, 'utf8').trim();
  const urls = nodes.split(',');
  const base = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const prefix = `cluster${Date.now().toString(36)}`;
  const gitRoot = path.join(base.dataDir, 'corpus-git');
  const env = {
    ELASTICSEARCH_URL: nodes,
    MONGODB_URI: base.mongodbUri,
    MONGODB_DB: prefix,
    SHELFMARK_INDEX_PREFIX: prefix,
    SHELFMARK_INDEX_SHARDS: '2',
    SHELFMARK_INDEX_REPLICAS: '1',
    SHELFMARK_EMBEDDINGS: 'off',
    SHELFMARK_DEMO_LIBRARY: 'off',
    LOG_LEVEL: 'warn',
    API_KEY,
    WORKER_MODE: 'off',
    GITHUB_BASE_URL: `file://${gitRoot}`,
    RATE_LIMIT_KEY_PER_MINUTE: '1000000',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
    ADD_WAIT_SECONDS: '900',
  };
  say(`seeding ${SEEDED.length} libraries from bundles into ${prefix}`);
  const seed = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join('scripts', 'eval', 'load-corpus.ts'), ...SEEDED.map((s) => path.join(values.bundles as string, `${s}.shelfmark.gz`))],
    { cwd: ROOT_DIR, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (seed.status !== 0) throw new Error(`seeding failed: ${seed.stderr}`);
  const apis = [start('api-a', [], { ...env, PORT: '3220', HOST: '127.0.0.1' }), start('api-b', [], { ...env, PORT: '3221', HOST: '127.0.0.1' })];
  const workers = [start('worker-1', ['worker'], env), start('worker-2', ['worker'], env)];
  const apiUrls = ['http://127.0.0.1:3220', 'http://127.0.0.1:3221'];
  const samples: Sample[] = [];
  const healthLog: Array<{ at: number; status: string; nodes: number; unassigned: number }> = [];
  const events: Record<string, number> = {};
  try {
    for (const url of apiUrls)
      for (
        let i = 0;
        i < 120 &&
        (await fetch(`${url}/healthz`).then(
          (r) => r.status,
          () => 0,
        )) !== 200;
        i++
      )
        await sleep(500);
    const t0 = Date.now();
    const seconds = Number(values.seconds) * 1000;
    const auth = { authorization: `Bearer ${API_KEY}` };
    const reads: RequestSpec[] = [];
    for (const [i, lib] of ['/psf/requests', '/encode/httpx', '/axios/axios', '/pallets/click'].entries()) {
      for (const api of apiUrls) {
        reads.push({
          method: 'GET',
          url: new URL(
            `/v2/context?libraryId=${encodeURIComponent(lib)}&query=${encodeURIComponent(['timeouts', 'proxies', 'interceptors', 'options'][i])}`,
            api,
          ),
          headers: auth,
        });
        reads.push({ method: 'GET', url: new URL(`/v2/libs/search?libraryName=${lib.split('/')[2]}`, api), headers: auth });
      }
    }
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    let cursor = 0;
    const clients = Array.from({ length: Number(values.clients) }, async () => {
      while (Date.now() - t0 < seconds) {
        const spec = reads[cursor++ % reads.length];
        const answer = await sendRequest(agent, spec, { timeoutMs: 15_000 });
        samples.push({ at: Date.now() - t0, status: answer.status, ms: answer.ms, kind: spec.url.pathname.includes('context') ? 'context' : 'search' });
      }
    });
    const adds = ADDED.map(async (repo, i) => {
      await sleep(5000 + i * 3000);
      const res = await fetch(`${apiUrls[i % 2]}/v2/add/repo/github`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ docsRepoUrl: `file://${gitRoot}/${repo}` }),
      });
      return { repo, status: res.status, body: await res.text(), at: Date.now() - t0 };
    });
    const watch = (async () => {
      while (Date.now() - t0 < seconds) {
        const h = await health(urls);
        if (h) healthLog.push({ at: Date.now() - t0, ...h });
        const now = Date.now() - t0;
        if (events.killed === undefined && now >= Number(values['kill-at']) * 1000) {
          await services('kill', values.node as string);
          events.killed = Date.now() - t0;
          say(`killed node ${values.node}`);
        }
        if (events.killed !== undefined && events.restarted === undefined && now >= Number(values['restart-at']) * 1000) {
          events.restarted = Date.now() - t0;
          say(`starting node ${values.node} again`);
          void services('start', values.node as string).then(() => {
            events.rejoined = Date.now() - t0;
            say(`node ${values.node} answers again`);
          });
        }
        await sleep(1000);
      }
    })();
    const [added] = await Promise.all([Promise.all(adds), ...clients, watch]);
    agent.destroy();
    report(samples, healthLog, events, added);
    await checkJobs(
      apiUrls[0],
      auth,
      ADDED.map((r) => `/${r}`),
      urls[0],
      prefix,
    );
  } finally {
    for (const p of [...apis, ...workers]) p.kill('SIGTERM');
    await sleep(3000);
    if (!values.keep) {
      await dropStoresNamed({ elasticsearchUrl: urls[0], mongodbUri: base.mongodbUri }, prefix);
    }
  }
}

function report(
  samples: Sample[],
  healthLog: Array<{ at: number; status: string; nodes: number; unassigned: number }>,
  events: Record<string, number>,
  added: Array<{ repo: string; status: number; at: number }>,
): void {
  const killed = events.killed ?? Infinity;
  const restarted = events.restarted ?? Infinity;
  const greenAfter = (from: number, nodes: number) => healthLog.find((h) => h.at > from && h.status === 'green' && h.nodes === nodes)?.at;
  const green2 = greenAfter(killed, 2);
  const green3 = greenAfter(restarted, 3);
  const phases: Array<[string, number, number]> = [
    ['before the kill', 0, killed],
    ['node down', killed, restarted],
    ['rejoining', restarted, green3 ?? Infinity],
    ['green again', green3 ?? Infinity, Infinity],
  ];
  console.log(
    `\nnode killed at ${(killed / 1000).toFixed(0)} s; cluster green on 2 nodes ${green2 !== undefined ? `${((green2 - killed) / 1000).toFixed(0)} s after the kill` : 'never'}; node started at ${(restarted / 1000).toFixed(0)} s, answering at ${((events.rejoined ?? 0) / 1000).toFixed(0)} s; green on 3 nodes ${green3 !== undefined ? `${((green3 - restarted) / 1000).toFixed(0)} s after the start` : 'not within the run'}`,
  );
  console.log(
    'health over time:',
    healthLog
      .filter((h, i) => i === 0 || h.status !== healthLog[i - 1].status || h.nodes !== healthLog[i - 1].nodes)
      .map((h) => `${(h.at / 1000).toFixed(0)}s ${h.status}/${h.nodes}n/${h.unassigned}u`)
      .join(', '),
  );
  for (const [name, from, to] of phases) {
    const inPhase = samples.filter((s) => s.at >= from && s.at < to);
    if (inPhase.length === 0) continue;
    const byStatus: Record<string, number> = {};
    for (const s of inPhase) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
    const ok = inPhase.filter((s) => s.status === 200).map((s) => s.ms);
    console.log(
      `${name.padEnd(16)} ${String(inPhase.length).padStart(6)} requests  by status ${JSON.stringify(byStatus)}  p50 ${percentile(ok, 50)?.toFixed(1)} ms  p99 ${percentile(ok, 99)?.toFixed(1)} ms`,
    );
  }
  console.log('adds:', added.map((a) => `${a.repo} ${a.status} at ${(a.at / 1000).toFixed(0)} s`).join('; '));
}

/** One finalized job per added library, whose build is the one served, with as many snippets served as counted. */
async function checkJobs(api: string, auth: Record<string, string>, libraries: string[], es: string, prefix: string): Promise<void> {
  await fetch(`${es}/${prefix}-snippets/_refresh`, { method: 'POST' });
  for (const lib of libraries) {
    const jobs = (await (await fetch(`${api}/v2/jobs?libraryId=${encodeURIComponent(lib)}`, { headers: auth })).json()) as {
      jobs: Array<{ id: string; state: string; attempts?: number }>;
    };
    const record = (await (await fetch(`${api}/v2/libraries${lib}`, { headers: auth })).json()) as { totalSnippets?: number };
    const stored = (await (
      await fetch(`${es}/${prefix}-snippets/_count`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: { term: { libraryId: lib } } }),
      })
    ).json()) as { count: number };
    const ctx = await fetch(`${api}/v2/context?libraryId=${encodeURIComponent(lib)}&query=install`, { headers: auth });
    console.log(
      `${lib}: jobs ${jobs.jobs.map((j) => `${j.id} ${j.state}${j.attempts !== undefined ? ` (attempts ${j.attempts})` : ''}`).join(', ')}; the record counts ${record.totalSnippets ?? '?'} snippets, the index holds ${stored.count} of it (all generations); context ${ctx.status}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
