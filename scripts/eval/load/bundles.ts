/**
 * `npm run load -- <bundle.shelfmark.gz | folder of bundles> ...`: imports library bundles
 * (docs/BUNDLES.md) through the catalogue's batch import (catalog/bundles/import-batch.ts):
 * new libraries a batch at a time, the others one by one through the same use case as
 * `POST /v2/libraries/import`; an unchanged bundle is a no-op. The next batch is read while
 * the current one is written, so Node's parsing and the stores' writing overlap.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Ports } from '../../../src/ports';
import { publishBatch, readBatch, type BundleInput, type ReadBatch } from '../../../src/catalog/bundles/import-batch';
import type { LoadSummary } from './corpus';
import { createProgress } from './progress';

/** The bundle files among `args`: files as given, folders for their `*.shelfmark.gz` (sorted). */
export function bundleFiles(args: string[]): string[] {
  return args.flatMap((arg) => {
    if (!fs.existsSync(arg)) return [];
    if (fs.statSync(arg).isFile()) return [arg];
    if (fs.existsSync(path.join(arg, 'MANIFEST.tsv'))) return [];
    return fs
      .readdirSync(arg)
      .filter((n) => n.endsWith('.shelfmark.gz'))
      .sort()
      .map((n) => path.join(arg, n));
  });
}

/** Bundles per batch, and compressed bytes per batch (a batch's snippets are held in memory until written). */
const BATCH_FILES = 250;
const BATCH_BYTES = 32 * 1024 ** 2;

/** Consecutive groups of files, bounded in count and size. */
export function batches(files: readonly string[], maxFiles = BATCH_FILES, maxBytes = BATCH_BYTES): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const file of files) {
    const size = fs.statSync(file).size;
    if (current.length > 0 && (current.length >= maxFiles || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Imports bundles a batch at a time; a bad one is reported and the rest go on. */
export async function loadBundles(services: Ports, files: string[], options: { force?: boolean; quiet?: boolean } = {}): Promise<LoadSummary[]> {
  const summary: LoadSummary[] = [];
  const progress = createProgress(files.length, 'bundles', { quiet: options.quiet });
  let done = 0;
  const groups = batches(files);
  const read = (group: string[] | undefined): Promise<ReadBatch> | undefined => {
    if (!group) return undefined;
    const inputs: BundleInput[] = group.map((file) => ({ name: file, open: () => fs.createReadStream(file) }));
    const pending = readBatch(services, inputs, { maxBytes: services.config.bundleMaxBytes, force: options.force });
    pending.catch(() => undefined); // awaited in turn below
    return pending;
  };
  let next = read(groups[0]);
  for (const [g, group] of groups.entries()) {
    const started = Date.now();
    const current = await (next as Promise<ReadBatch>);
    // The next batch is read (parsed, checked) while this one is written.
    next = read(groups[g + 1]);
    const outcomes = await publishBatch(services, current);
    const seconds = (Date.now() - started) / 1000 / group.length;
    for (const outcome of outcomes) {
      if ('error' in outcome) {
        summary.push({ library: path.basename(outcome.name), versions: '', snippets: 0, tokens: 0, seconds, status: 'failed', error: outcome.error.message });
        progress.note(`${path.basename(outcome.name)}: FAILED: ${outcome.error.message}`);
        continue;
      }
      const r = outcome.result;
      summary.push({
        library: r.libraryName,
        versions: r.versions.map((v) => v.version).join(', '),
        snippets: r.versions.reduce((n, v) => n + v.snippets, 0),
        tokens: 0,
        seconds,
        status: r.status === 'unchanged' ? 'unchanged' : 'indexed',
      });
    }
    done += group.length;
    progress.update(done, `${summary[summary.length - 1]?.library ?? ''} (${summary[summary.length - 1]?.status ?? ''})`);
  }
  progress.stop(done);
  return summary;
}
