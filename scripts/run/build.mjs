#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/ with esbuild (tsx's own transpiler, already
// installed): one ES-module bundle per entry point, npm packages left as imports, source
// maps beside them. Flat dist/ on purpose: every bundle sits one folder below the
// repository, as src/*.ts does, so the paths derived from import.meta.url hold in both.
// `--if-stale` builds only when a source is newer than the last build (npm start, the bin).
// `--outdir <dir>` builds elsewhere (the build test).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Output name → source under src/. src/entry-points.ts names the same outputs. */
export const ENTRY_POINTS = {
  main: 'main.ts',
  cli: 'cli.ts',
  'job-process': 'indexing/jobs/job-process.ts',
  'embed-thread': 'embedding/embed-thread.ts',
  'probe-thread': 'health/probe-thread.ts',
  'code-thread': 'code/code-thread.ts',
};
/** Written last: its time is the build's. */
const STAMP = '.built';
/** Besides src/, a change here changes the output. */
const INPUTS = ['package-lock.json', 'tsconfig.json', 'scripts/run/build.mjs'];

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'public') newest = Math.max(newest, newestMtime(p));
    } else if (/\.(ts|mjs|json)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** Whether `outdir` lacks a build or holds one older than any source. */
export function isStale(outdir = path.join(ROOT, 'dist')) {
  let built;
  try {
    built = fs.statSync(path.join(outdir, STAMP)).mtimeMs;
  } catch {
    return true;
  }
  const inputs = Math.max(newestMtime(path.join(ROOT, 'src')), ...INPUTS.map((f) => fs.statSync(path.join(ROOT, f)).mtimeMs));
  return inputs > built;
}

export async function build(outdir = path.join(ROOT, 'dist')) {
  const esbuild = await import('esbuild');
  fs.rmSync(outdir, { recursive: true, force: true });
  const entryPoints = Object.fromEntries(Object.entries(ENTRY_POINTS).map(([out, src]) => [out, path.join(ROOT, 'src', src)]));
  await esbuild.build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(outdir, STAMP), `${new Date().toISOString()}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--outdir');
  const outdir = at >= 0 ? path.resolve(args[at + 1]) : path.join(ROOT, 'dist');
  if (args.includes('--if-stale') && !isStale(outdir)) process.exit(0);
  const started = Date.now();
  await build(outdir);
  console.error(`[build] ${path.relative(ROOT, outdir) || outdir} built in ${Date.now() - started} ms`);
}
