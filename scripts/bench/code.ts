/**
 * `npm run code-bench -- [<bare repository>] [<ref>]`: latency of the code tools on a real
 * repository (default: the svelte mirror, ~9,000 files). Keeps the tree of `<ref>` as a build
 * does (src/code/kept-tree.ts, into a temporary CODE_DIR), loads it as a request does, then
 * runs searches through the real thread pool (code-workers.ts) with identifiers sampled from
 * the tree itself: literal (smart case), case-insensitive literal, regex, references and
 * definitions, each repeated; prints p50/p90/p99 per kind and the load average, so figures
 * taken on a busy machine can be read beside it. Not a test: nothing here passes or fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type NodeGitTypes from 'nodegit';
import { listTree, readBlob, resolveCommit } from '../../src/indexing/sources/git';
import { keepTree, keptTreeDir } from '../../src/indexing/code-trees/kept-tree';
import { TreeCache } from '../../src/code/tree-cache';
import { CodeThreads } from '../../src/code/code-workers';
import { findDefinitions, findReferences, searchTree } from '../../src/code/operations';

const require = createRequire(import.meta.url);
const repoPath = process.argv[2] ?? '/work/.mirror/sveltejs+svelte/repo';
const ref = process.argv[3] ?? 'HEAD';
const SAMPLES = Number(process.env.CODE_BENCH_SAMPLES ?? 40);
const REPEATS = Number(process.env.CODE_BENCH_REPEATS ?? 3);
const TIMEOUT_MS = 3000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Deterministic sample (a fixed LCG), so two runs time the same queries. */
function sample<T>(items: T[], n: number): T[] {
  let seed = 42;
  const out: T[] = [];
  const pool = [...items];
  while (out.length < n && pool.length > 0) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out.push(pool.splice(seed % pool.length, 1)[0]);
  }
  return out;
}

async function main(): Promise<void> {
  if (!fs.existsSync(repoPath)) throw new Error(`${repoPath} does not exist: give a bare repository (e.g. one fetched under /work/.mirror).`);
  const NodeGit = require('nodegit') as typeof NodeGitTypes;
  const repo = await NodeGit.Repository.openBare(repoPath);
  const commit = await resolveCommit(repo, ref);
  const codeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-code-bench-'));
  try {
    let t0 = performance.now();
    const files = await listTree(commit);
    const listed = performance.now() - t0;
    t0 = performance.now();
    const index = await keepTree({
      codeDir,
      libraryKey: '/bench/repo',
      commit: commit.sha(),
      files,
      read: (p) => readBlob(commit, p),
      limits: { treeMaxBytes: 200 << 20, fileMaxBytes: 512 << 10 },
    });
    const kept = performance.now() - t0;
    if (!index) throw new Error('nothing kept');
    t0 = performance.now();
    const tree = new TreeCache(1 << 30).load(keptTreeDir(codeDir, '/bench/repo', commit.sha()));
    const loaded = performance.now() - t0;
    if (!tree) throw new Error('the kept tree did not load');
    console.log(
      `repository ${repoPath} @ ${ref} (${commit.sha().slice(0, 12)}): ${files.length} files in the tree, ${index.files.length} kept (${(index.totalBytes / 1048576).toFixed(1)} MB; left out ${JSON.stringify(index.omitted)})`,
    );
    console.log(`listing the tree ${listed.toFixed(0)} ms, keeping it ${kept.toFixed(0)} ms, loading it ${loaded.toFixed(0)} ms`);

    // Identifiers of the repository's own code (camelCase and snake_case words of 6+ letters).
    const words = new Set<string>();
    for (let i = 0; i < tree.index.files.length && words.size < 20_000; i += 7) {
      for (const m of TreeCache.text(tree, i).matchAll(/\b[A-Za-z_][A-Za-z0-9_]{5,30}\b/g)) words.add(m[0]);
    }
    const ids = sample([...words].sort(), SAMPLES);
    const threads = new CodeThreads();
    const kinds: Record<string, (id: string) => Promise<unknown>> = {
      'literal (smart case)': (id) =>
        searchTree(threads, tree, { pattern: id, regex: false, caseSensitive: /[A-Z]/.test(id), limit: 30, deadline: Date.now() + TIMEOUT_MS }),
      'literal, ignoring case': (id) =>
        searchTree(threads, tree, { pattern: id, regex: false, caseSensitive: false, limit: 30, deadline: Date.now() + TIMEOUT_MS }),
      regex: (id) =>
        searchTree(threads, tree, { pattern: `\\b${id}\\s*[(=:]`, regex: true, caseSensitive: true, limit: 30, deadline: Date.now() + TIMEOUT_MS }),
      'literal, no match (reads every file)': (id) =>
        searchTree(threads, tree, { pattern: `${id}_not_in_the_repo`, regex: false, caseSensitive: true, limit: 30, deadline: Date.now() + TIMEOUT_MS }),
      references: (id) => findReferences(threads, tree, { symbol: id, limit: 30, deadline: Date.now() + TIMEOUT_MS }),
      definition: (id) => findDefinitions(threads, tree, { symbol: id, limit: 10, deadline: Date.now() + TIMEOUT_MS }),
    };
    // Warm-up: threads started, grammars loaded.
    for (const run of Object.values(kinds)) await run(ids[0]);
    const all: number[] = [];
    console.log(`\n${SAMPLES} identifiers × ${REPEATS} runs per kind (deadline ${TIMEOUT_MS} ms):`);
    console.log('kind'.padEnd(40), 'p50 ms'.padStart(8), 'p90 ms'.padStart(8), 'p99 ms'.padStart(8), 'max ms'.padStart(8), 'partial'.padStart(8));
    for (const [kind, run] of Object.entries(kinds)) {
      const times: number[] = [];
      let partial = 0;
      for (let r = 0; r < REPEATS; r++) {
        for (const id of ids) {
          const started = performance.now();
          const result = (await run(id)) as { stoppedBy: string | null };
          times.push(performance.now() - started);
          if (result.stoppedBy === 'deadline') partial++;
        }
      }
      times.sort((a, b) => a - b);
      if (kind !== 'definition' && kind !== 'references') all.push(...times);
      console.log(
        kind.padEnd(40),
        ...[50, 90, 99].map((p) => percentile(times, p).toFixed(1).padStart(8)),
        times[times.length - 1].toFixed(1).padStart(8),
        String(partial).padStart(8),
      );
    }
    all.sort((a, b) => a - b);
    console.log(`\nall searches: p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms over ${all.length} requests`);
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${os.cpus().length} cores; RSS ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`,
    );
    await threads.close();
  } finally {
    fs.rmSync(codeDir, { recursive: true, force: true });
  }
}

await main();
