/**
 * `npx tsx scripts/bench/idle-cpu.ts [--seconds 60] [--settle 20] [--root DIR] [--port 3220]`
 *
 * What an installation costs with no traffic at all: starts a server (`WORKER_MODE=off`) and a
 * separate worker (`src/main.ts worker`) on the local stores, waits `--settle` seconds (start-up
 * work: JIT, catalogue reconcile, index checks), then reads each process's CPU time from /proc
 * over `--seconds` and prints milliseconds of CPU per second for the server, the worker, the
 * store supervisor, FerretDB and Elasticsearch (10 ms/s = 1% of a core). `--root` runs another
 * checkout's server and worker (a before/after comparison on the same stores).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { loadConfig, ROOT_DIR } from '../../src/config';
import { CpuMeter, storePids, type CpuProcess } from './harness/cpu';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    settle: { type: 'string', default: '20' },
    root: { type: 'string', default: ROOT_DIR },
    port: { type: 'string', default: '3220' },
  },
});
const seconds = Number(values.seconds);
const settle = Number(values.settle);
const root = path.resolve(values.root ?? ROOT_DIR);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not yet
    }
    await sleep(500);
  }
  throw new Error(`${url} did not become healthy`);
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const env = { LOG_LEVEL: 'warn', PORT: values.port ?? '3220', HOST: '127.0.0.1', WORKER_MODE: 'off', SHELFMARK_DEMO_LIBRARY: 'off' };
  const server = start([], env);
  const worker = start(['worker'], { ...env, PORT: '0' });
  try {
    await waitHealthy(`http://127.0.0.1:${env.PORT}`);
    await sleep(settle * 1000);
    const supervisor = Number(fs.readFileSync(path.join(config.dataDir, 'run', 'supervisor.pid'), 'utf8').trim());
    const pids: Partial<Record<CpuProcess | 'worker' | 'supervisor', number>> = {
      server: server.pid,
      worker: worker.pid,
      supervisor,
      ...storePids(config.dataDir, config.elasticsearchUrl),
    };
    const meter = new CpuMeter(pids as Partial<Record<CpuProcess, number>>);
    const done = meter.start();
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    await sleep(seconds * 1000);
    // CPU ms over the whole window, then per second.
    const total = done(1);
    console.log(`idle CPU over ${seconds} s (code: ${root}; load average at start ${load}), ms of CPU per second (10 = 1% of a core):`);
    let sum = 0;
    for (const [name, ms] of Object.entries(total)) {
      const perSecond = (ms ?? 0) / seconds;
      sum += perSecond;
      console.log(`  ${name.padEnd(14)} ${perSecond.toFixed(2).padStart(8)}`);
    }
    console.log(`  ${'total'.padEnd(14)} ${sum.toFixed(2).padStart(8)}`);
  } finally {
    server.kill('SIGTERM');
    worker.kill('SIGTERM');
    await sleep(2000);
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
