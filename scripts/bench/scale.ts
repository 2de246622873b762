/**
 * `npm run scale-bench -- [--sizes 16,1000,10000] [--bundles DIR] [--work DIR] [--duration 20]
 *  [--clients 1,8] [--port 3220] [--prefix NAME] [--keep] [--out FILE]`
 * `npm run scale-bench -- --rate <n>`: the bulk-load rate alone: n small libraries (10–29 snippets)
 *  written and loaded with `npm run load` into a private prefix, then dropped.
 * `npm run scale-bench -- --delete <n> --prefix <kept prefix>`: deletes n synthetic libraries of a
 *  kept catalogue through the one deletion use case and reports the time per library.
 * `npm run scale-bench -- --measure <prefix,prefix,...> [--rounds N]`: measures catalogues kept by
 *  earlier runs (`--keep`) again, one after the other, so every size is measured in the same
 *  window; with rounds, the sizes take turns N times and each figure is the median of its
 *  rounds (a shared machine's noise falls on every size alike).
 *
 * The catalogue at growing sizes, on a private database and index prefix of the local stores:
 * the corpus libraries' bundles (`--bundles`, by default `.data/scale/corpus-bundles`, exported
 * from this installation when missing) are imported with the real loader (`npm run load`) as
 * the first size; each next size adds libraries made by re-labelling slices of those bundles
 * (scale/synthesize.ts: real snippets and vectors under new names, ~110 snippets each),
 * written to `--work` and loaded with the same loader, then deleted. At each size a fresh
 * server on `--port` answers `/v2/libs/search` and `/v2/context` at each client count
 * (scale/measure.ts), and the run prints p50/p99, server RSS, Elasticsearch heap and
 * disk, and the load rate: a curve, not a point. The database and indices are dropped at the
 * end unless `--keep`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { dropStoresNamed } from '../../test/drop-stores';
import { loadConfig, ROOT_DIR } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createServices, portsOf } from '../../src/services';
import { readDataset } from '../eval/dataset';
import { startServer } from './harness/server';
import { exportLibraries } from './scale/export';
import { readSourceBundle, smallSize, writeSyntheticBundles } from './scale/synthesize';
import { contextSpecs, esFigures, measureTarget, medianOfRounds, searchNames, searchSpecs, serverMemory, type SizeFigures } from './scale/measure';
import { formatCurve } from './scale/report';
import { deleteLibrary, deletePortsOf } from '../../src/catalog/delete';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '16,1000,10000' },
    bundles: { type: 'string', default: path.join(ROOT_DIR, '.data', 'scale', 'corpus-bundles') },
    work: { type: 'string', default: path.join(ROOT_DIR, '.data', 'scale', 'work') },
    duration: { type: 'string', default: '20' },
    clients: { type: 'string', default: '1,8' },
    port: { type: 'string', default: '3220' },
    prefix: { type: 'string', default: `scale${Date.now().toString(36)}` },
    dataset: { type: 'string', default: path.resolve(ROOT_DIR, '..', 'shared', 'eval', 'dev.yaml') },
    keep: { type: 'boolean', default: false },
    measure: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    rate: { type: 'string' },
    delete: { type: 'string' },
    out: { type: 'string' },
  },
});
const sizes = (values.sizes ?? '').split(',').map(Number);
const clients = (values.clients ?? '').split(',').map(Number);
const durationMs = Number(values.duration) * 1000;
const prefix = values.prefix as string;
const say = (line: string) => console.error(`[scale] ${line}`);
const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The real loader as a user runs it, on the bench's database and prefix; returns its import time and rate. */
async function runLoader(env: Record<string, string>, target: string, libraries: number): Promise<SizeFigures['load']> {
  const started = Date.now();
  let output = '';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT_DIR, 'scripts', 'eval', 'load-corpus.ts'), target], {
      cwd: ROOT_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      const text = c.toString();
      output += text;
      for (const line of text.split('\n')) if (line.startsWith('[load]')) say(line);
    });
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`the loader failed (exit ${code}):\n${output.slice(-3000)}`);
  const imported = /(\d+) libraries, \d+ snippets, ([\d.]+) s total/.exec(output);
  const merged = /in ([\d.]+) s$/m.exec(output);
  const seconds = imported ? Number(imported[2]) : (Date.now() - started) / 1000;
  return { libraries, seconds, perSecond: Math.round((libraries / seconds) * 10) / 10, ...(merged ? { mergeSeconds: Number(merged[1]) } : {}) };
}

/** One catalogue measured by a fresh server on its prefix (database of the same name). */
async function measureSize(
  esUrl: string,
  env: Record<string, string>,
  prefix: string,
  names: ReturnType<typeof searchNames>,
  entries: ReturnType<typeof readDataset>,
  load?: SizeFigures['load'],
): Promise<SizeFigures> {
  // An API instance, as a deployment at this size runs them: no in-process worker and no
  // scheduler. Imported libraries whose last build is older than their refresh interval are
  // due at once, and a server that ran both would spend the measurement queueing and running
  // thousands of refresh checks (the figures would be the scheduler's catch-up, not serving).
  const server = await startServer(ROOT_DIR, { port: Number(values.port), extraEnv: { ...env, WORKER_MODE: 'off', SCHEDULE_TICK_SECONDS: '0' } });
  try {
    const search = await measureTarget(searchSpecs(server.url, names), clients, durationMs, [200, 404]);
    const context = await measureTarget(contextSpecs(server.url, entries), clients, durationMs);
    const memory = serverMemory(server.pid);
    const es = await esFigures(esUrl, prefix);
    const count = (await (await fetch(`${esUrl}/${prefix}-snippets/_count`)).json()) as { count: number };
    const libraries = (await (await fetch(`${esUrl}/${prefix}-libraries/_count`)).json()) as { count: number };
    return {
      libraries: libraries.count,
      snippets: count.count,
      search,
      context,
      serverRssMb: memory.rssMb,
      serverPeakRssMb: memory.peakMb,
      esHeapUsedMb: es.heapUsedMb,
      esHeapMaxMb: es.heapMaxMb,
      esDiskMb: es.diskMb,
      load,
      loadAverage: loadAverage(),
    };
  } finally {
    await server.stop();
  }
}

async function measureKept(esUrl: string, prefixes: string[], names: ReturnType<typeof searchNames>, entries: ReturnType<typeof readDataset>): Promise<void> {
  const rounds = Math.max(1, Number(values.rounds) || 1);
  const measured = new Map<string, SizeFigures[]>(prefixes.map((p) => [p, []]));
  let curve: SizeFigures[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const p of prefixes) {
      say(`measuring ${p}${rounds > 1 ? `, round ${round} of ${rounds}` : ''} (load ${loadAverage()})`);
      measured
        .get(p)
        ?.push(await measureSize(esUrl, { MONGODB_DB: p, SHELFMARK_INDEX_PREFIX: p, LOG_LEVEL: 'warn', SHELFMARK_DEMO_LIBRARY: 'off' }, p, names, entries));
    }
    curve = prefixes.map((p) => medianOfRounds(measured.get(p) ?? []));
    console.log(`${rounds > 1 ? `after round ${round} of ${rounds} (medians):\n` : ''}${formatCurve(curve)}`);
  }
  const out = path.resolve(values.out ?? path.join(ROOT_DIR, '.bench', `scale-measure-${new Date().toISOString().replace(/[:.]/g, '-')}.json`));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ prefixes, clients, durationMs, rounds, curve, measured: Object.fromEntries(measured) }, null, 2));
  say(`written ${out}`);
}

/** Deletes `n` synthetic libraries of the kept catalogue `--prefix` one after another, timed. */
async function deleteMany(n: number): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', MONGODB_DB: prefix, SHELFMARK_INDEX_PREFIX: prefix, SHELFMARK_EMBEDDINGS: 'off' });
  const composition = await createServices(config, createLogger('warn', process.stderr));
  const { lifecycle } = composition;
  const services = portsOf(composition);
  try {
    const keys: string[] = [];
    for await (const page of services.libraries.scan()) for (const lib of page) if (keys.length < n && lib._id.includes('-labs-')) keys.push(lib._id);
    const before = await services.catalogIndex.count();
    say(`deleting ${keys.length} of ${before} libraries of ${prefix} (load ${loadAverage()})`);
    const started = Date.now();
    let snippets = 0;
    for (const [i, key] of keys.entries()) {
      snippets += (await deleteLibrary(deletePortsOf(services), key)).snippets;
      if ((i + 1) % 100 === 0) say(`${i + 1} deleted, ${((Date.now() - started) / (i + 1)).toFixed(1)} ms each`);
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `deleted ${keys.length} libraries (${snippets} snippets) of ${before} in ${seconds.toFixed(1)} s: ${((seconds * 1000) / keys.length).toFixed(1)} ms each; load average ${loadAverage()}`,
    );
  } finally {
    await lifecycle.close();
  }
}

async function dropPrefix(config: { elasticsearchUrl: string; mongodbUri: string }, prefix: string): Promise<void> {
  say(`dropping the database and indices ${prefix}`);
  await dropStoresNamed(config, prefix);
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const env = { MONGODB_DB: prefix, SHELFMARK_INDEX_PREFIX: prefix, LOG_LEVEL: 'warn', SHELFMARK_DEMO_LIBRARY: 'off' };
  const bundlesDir = path.resolve(values.bundles as string);
  if (!fs.existsSync(bundlesDir) || fs.readdirSync(bundlesDir).filter((f) => f.endsWith('.shelfmark.gz')).length === 0) {
    say(`exporting this installation's libraries into ${bundlesDir} (the bundles every size is made of)`);
    const composition = await createServices(config, createLogger('warn', process.stderr));
    const { lifecycle } = composition;
    const services = portsOf(composition);
    try {
      const files = await exportLibraries(services, bundlesDir);
      if (files.length === 0) throw new Error('this installation has no built library to export: load the corpus first (npm run load), or pass --bundles');
    } finally {
      await lifecycle.close();
    }
  }
  const sourceFiles = fs
    .readdirSync(bundlesDir)
    .filter((f) => f.endsWith('.shelfmark.gz'))
    .sort()
    .map((f) => path.join(bundlesDir, f));
  const sources = sourceFiles.map(readSourceBundle);
  const realIds = sources.map((s) => s.header.library.id);
  const entries = readDataset(path.resolve(values.dataset as string)).filter((e) => realIds.includes(e.library));
  const names = searchNames(
    realIds,
    realIds.map((id) => id.split('/')[2] ?? id),
  );
  if (values.measure) {
    await measureKept(config.elasticsearchUrl, values.measure.split(','), names, entries);
    return;
  }
  if (values.delete) {
    await deleteMany(Number(values.delete));
    return;
  }
  const work = path.resolve(values.work as string);
  if (values.rate) {
    const n = Number(values.rate);
    fs.rmSync(work, { recursive: true, force: true });
    writeSyntheticBundles(work, sources, 0, n, smallSize);
    say(`loading ${n} small libraries (load ${loadAverage()})`);
    try {
      const load = await runLoader(env, work, n);
      console.log(
        `${n} small libraries (10-29 snippets) loaded at ${load?.perSecond} libraries/s (${load?.seconds.toFixed(1)} s; merge ${load?.mergeSeconds ?? 0} s); load average ${loadAverage()}`,
      );
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
      await dropPrefix(config, prefix);
    }
    return;
  }
  const curve: SizeFigures[] = [];
  let libraries = 0;
  try {
    for (const size of sizes) {
      let load: SizeFigures['load'];
      if (libraries === 0) {
        say(`size ${size}: importing the ${sources.length} corpus bundles (load ${loadAverage()})`);
        load = await runLoader(env, bundlesDir, sources.length);
        libraries = sources.length;
      }
      if (size > libraries) {
        fs.rmSync(work, { recursive: true, force: true });
        say(`size ${size}: writing ${size - libraries} synthetic bundles into ${work}`);
        writeSyntheticBundles(work, sources, libraries, size);
        say(`size ${size}: loading them (load ${loadAverage()})`);
        load = await runLoader(env, work, size - libraries);
        fs.rmSync(work, { recursive: true, force: true });
        libraries = size;
      }
      say(`size ${size}: measuring (load ${loadAverage()})`);
      curve.push(await measureSize(config.elasticsearchUrl, env, prefix, names, entries, load));
      console.log(formatCurve(curve));
    }
    const out = path.resolve(values.out ?? path.join(ROOT_DIR, '.bench', `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ prefix, sizes, clients, durationMs, curve }, null, 2));
    say(`written ${out}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    if (!values.keep) await dropPrefix(config, prefix);
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
