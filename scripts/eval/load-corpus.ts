/**
 * `npm run load -- [<dir> | <bundle.shelfmark.gz | folder of bundles> ...] [--only <libraryId,...>] [--force]`
 *
 * Bulk-loads a folder laid out like shared/corpus (scripts/eval/load/corpus.ts; `../shared/corpus`
 * when no path is given), or imports library bundles (scripts/eval/load/bundles.ts). `--only`
 * limits a corpus load to some libraries; `--force` rebuilds unchanged libraries (bundles:
 * replaces newer builds). Progress goes to stderr (a bar on a terminal, lines otherwise),
 * the summary to stdout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createServices, portsOf } from '../../src/services';
import { loadCorpus, printSummary } from './load/corpus';
import { bundleFiles, loadBundles } from './load/bundles';

export { loadCorpus, printSummary, readManifest, type LoadSummary } from './load/corpus';
export { bundleFiles, loadBundles } from './load/bundles';

export interface LoadArgs {
  /** The folders and files named, in order (none: the shared corpus). */
  paths: string[];
  only?: string[];
  force: boolean;
}

/** The command line of `npm run load` (options anywhere; every other argument is a path). */
export function parseLoadArgs(argv: string[]): LoadArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { only: { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  return {
    paths: positionals,
    ...(values.only
      ? {
          only: values.only
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : {}),
    force: values.force ?? false,
  };
}

async function main(): Promise<void> {
  let args: LoadArgs;
  try {
    args = parseLoadArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: npm run load -- [<corpus dir> | <bundle files or folders> ...] [--only <libraryId,...>] [--force]`);
    process.exit(2);
  }
  const dir = args.paths[0] ?? path.resolve('..', 'shared', 'corpus');
  const bundles = bundleFiles(args.paths);
  if (bundles.length === 0 && !fs.existsSync(path.join(dir, 'MANIFEST.tsv'))) {
    console.error(
      `No MANIFEST.tsv and no *.shelfmark.gz bundle in ${args.paths.join(', ') || dir}: pass a folder laid out like shared/corpus, or bundle files (or a folder of them).`,
    );
    process.exit(2);
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const composition = await createServices(config, createLogger(config.logLevel, process.stderr));
  const { lifecycle } = composition;
  const services = portsOf(composition);
  if (bundles.length === 0) lifecycle.startWorker();
  const started = Date.now();
  try {
    const summary =
      bundles.length > 0
        ? await loadBundles(services, bundles, { force: args.force })
        : await loadCorpus(services, path.resolve(dir), { only: args.only, force: args.force });
    printSummary(summary, (Date.now() - started) / 1000);
    process.exitCode = summary.some((s) => s.status === 'failed') ? 1 : 0;
    // The server compacts 10 s after its last build; this process ends sooner and would
    // leave every build's segments behind (a context query reads each of them: ~1.5x the
    // Elasticsearch CPU of one merged segment), so it merges before it exits (a no-op on
    // an index of one segment).
    const mergeStarted = Date.now();
    const { segmentsBefore, merged } = await services.snippets.compact();
    if (merged) console.log(`merged the snippets index from ${segmentsBefore} segments into one in ${((Date.now() - mergeStarted) / 1000).toFixed(1)} s`);
  } finally {
    await lifecycle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
