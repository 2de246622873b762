/**
 * `npm run bench:startup -- [--rounds 5] [--settle 3]`: start-up time (spawn → first 200 from
 * /readyz) and RSS (at ready, and after `--settle` seconds) of the server run as TypeScript
 * through tsx (`node --import tsx src/main.ts`) and built (`node --enable-source-maps
 * dist/main.js`), alternating in the same run so both see the same machine load. Builds
 * dist/ first if stale. Uses the local stores (npm run services -- up), with the demo
 * library off so no indexing runs; in-process worker and embedder as configured.
 */
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_DIR } from '../../src/config';
import { freePort } from './harness/server';
import { readProcMemory } from './harness/rss';

const VARIANTS: Record<string, string[]> = {
  tsx: ['--import', 'tsx', path.join('src', 'main.ts')],
  built: ['--enable-source-maps', path.join('dist', 'main.js')],
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function once(args: string[], settleMs: number): Promise<{ readyMs: number; readyRssMb: number; settledRssMb: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT_DIR,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SHELFMARK_DEMO_LIBRARY: 'off' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited: ${err}`);
      if (performance.now() - started > 120_000) throw new Error(`not ready in 120 s: ${err}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(20);
    }
    const readyMs = performance.now() - started;
    const readyRssMb = (readProcMemory(child.pid!)?.rssKb ?? 0) / 1024;
    await sleep(settleMs);
    const settledRssMb = (readProcMemory(child.pid!)?.rssKb ?? 0) / 1024;
    return { readyMs, readyRssMb, settledRssMb };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, settle: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);
const settleMs = Number(values.settle) * 1000;
execFileSync(process.execPath, [path.join(ROOT_DIR, 'scripts', 'run', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
const results: Record<string, Awaited<ReturnType<typeof once>>[]> = { tsx: [], built: [] };
for (let r = 0; r < rounds; r++) for (const [name, args] of Object.entries(VARIANTS)) results[name].push(await once(args, settleMs));
console.log(
  `load average before/after: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${rounds} rounds alternating, medians:`,
);
for (const [name, runs] of Object.entries(results)) {
  const f = (k: keyof (typeof runs)[number]) => median(runs.map((x) => x[k])).toFixed(k === 'readyMs' ? 0 : 1);
  console.log(
    `${name.padEnd(6)} ready ${f('readyMs')} ms   RSS at ready ${f('readyRssMb')} MB   after ${settleMs / 1000} s ${f('settledRssMb')} MB   (ready ms: ${runs.map((x) => x.readyMs.toFixed(0)).join(', ')})`,
  );
}
