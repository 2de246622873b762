/**
 * Use case "import many bundles" (`npm run load -- <folder of bundles>`): new libraries in
 * batches, at a cost per library that does not grow with the catalogue. Each bundle is read
 * and checked whole (header, checksum, counts) exactly as `importBundle` does; the batch's
 * snippets are then written in one bulk stream behind one refresh, and its library records,
 * already finalized, inserted in bounded commands (store/bulk.ts) — the one step that makes
 * each library visible, as the record switch is for a single import — followed by one write
 * of the catalogue index and the manifests. Per library that is two reads by id (is the id
 * free?) and a share of a few bulk commands, instead of a dozen round trips and three
 * refreshes.
 *
 * A bundle of a library that exists already (a re-import, an update), or whose id another
 * writer took while the batch was written, goes through `importBundle` one at a time, which
 * holds build slots and compares generations; so does everything when `force` is given.
 */
import type { Readable } from 'node:stream';
import type { Ports } from '../../ports';
import type { SnippetDocument } from '../../search/types';
import type { LibraryRecord } from '../../store/models/library';
import { firstRevision } from '../../store/libraries';
import { BundleError, type BundleHeader } from './format';
import { BundleTooLargeError, readBundleLines } from './read-lines';
import { importBundle, readHeader, streamSnippets, type ImportResult, type Plan } from './import';
import { importedRepoUrls, type ImportedUrls } from './repo-urls';
import { ValidationError, PayloadTooLargeError } from '../../errors';

export interface BundleInput {
  /** For messages: the file name. */
  name: string;
  open(): Readable;
}

export type BatchOutcome = { name: string; result: ImportResult } | { name: string; error: Error };

interface ReadBundle {
  name: string;
  header: BundleHeader;
  clientId: string;
  docs: SnippetDocument[];
  files: Map<string, { p: string; h: string }[]>;
  urls: ImportedUrls;
}

/** A batch read and checked: new libraries to publish together, the others to import one by one. */
export interface ReadBatch {
  fresh: ReadBundle[];
  slow: BundleInput[];
  failed: BatchOutcome[];
  inputs: readonly BundleInput[];
  force: boolean;
  maxBytes: number;
}

/** What `importBundleBatch` reaches (ports.ts). */
export type ImportBundleBatchPorts = Pick<Ports, 'config' | 'embeddings' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'publishDeps' | 'snippets'>;

/** Imports `inputs`; new libraries in one batch, the others one by one. Never throws for one bad bundle. */
export async function importBundleBatch(
  services: ImportBundleBatchPorts,
  inputs: readonly BundleInput[],
  options: { maxBytes: number; force?: boolean },
): Promise<BatchOutcome[]> {
  return publishBatch(services, await readBatch(services, inputs, options));
}

/** Bundles read at once while a batch is read (file reads and the two id checks overlap). */
const READ_CONCURRENCY = 4;

/** What `readBatch` reaches (ports.ts). */
export type ReadBatchPorts = Pick<Ports, 'config' | 'embeddings' | 'libraries' | 'snippets'>;

/** Reads and checks every bundle of a batch; nothing is written yet (so the next batch can be read while one is written). */
export async function readBatch(services: ReadBatchPorts, inputs: readonly BundleInput[], options: { maxBytes: number; force?: boolean }): Promise<ReadBatch> {
  const batch: ReadBatch = { fresh: [], slow: [], failed: [], inputs, force: options.force ?? false, maxBytes: options.maxBytes };
  if (batch.force) {
    batch.slow.push(...inputs);
    return batch;
  }
  const reads = new Array<ReadBundle | 'exists' | Error>(inputs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(READ_CONCURRENCY, inputs.length) }, async () => {
      for (let i = next++; i < inputs.length; i = next++)
        reads[i] = await readWhole(services, inputs[i], options.maxBytes).catch((error: unknown) => asImportError(error));
    }),
  );
  const claimed = new Set<string>();
  inputs.forEach((input, i) => {
    const read = reads[i];
    if (read instanceof Error) batch.failed.push({ name: input.name, error: read });
    else if (read === 'exists' || claimed.has(read.clientId)) batch.slow.push(input);
    else {
      claimed.add(read.clientId);
      batch.fresh.push(read);
    }
  });
  return batch;
}

/** Publishes a batch read by `readBatch`: the new libraries together, then the others one by one. */
export async function publishBatch(services: ImportBundleBatchPorts, batch: ReadBatch): Promise<BatchOutcome[]> {
  const outcomes = new Map<string, BatchOutcome>(batch.failed.map((f) => [f.name, f]));
  const slow = [...batch.slow];
  if (batch.fresh.length > 0) {
    const taken = await publishNew(services, batch.fresh);
    for (const b of batch.fresh) {
      if (taken.has(b.clientId)) slow.push(batch.inputs.find((i) => i.name === b.name) as BundleInput);
      else outcomes.set(b.name, { name: b.name, result: importedResult(b) });
    }
  }
  for (const input of slow) {
    try {
      outcomes.set(input.name, { name: input.name, result: await importBundle(services, input.open(), { force: batch.force, maxBytes: batch.maxBytes }) });
    } catch (error) {
      outcomes.set(input.name, { name: input.name, error: error as Error });
    }
  }
  return batch.inputs.map((i) => outcomes.get(i.name) ?? { name: i.name, error: new Error('not imported') });
}

/** A bundle read and checked whole, its documents under the public key; 'exists' when its library does. */
async function readWhole(services: ReadBatchPorts, input: BundleInput, maxBytes: number): Promise<ReadBundle | 'exists'> {
  const stream = input.open();
  try {
    const lines = readBundleLines(stream, maxBytes);
    const { hash, header, clientId } = await readHeader(lines);
    // The public copy's keys (domain/library-keys.ts): both free, or this is not a new library.
    const [atId, atPublic] = await Promise.all([
      services.libraries.get(clientId, { fresh: true }),
      services.libraries.get(`${clientId}~public`, { fresh: true }),
    ]);
    if (atId || atPublic) return 'exists';
    const plans: Plan[] = header.versions.map((bundle) => ({ bundle, generation: bundle.generation }));
    const docs: SnippetDocument[] = [];
    const { files } = await streamSnippets(services, lines, hash, {
      header,
      key: clientId,
      plans,
      written: [],
      write: async (batch) => {
        docs.push(...batch);
      },
    });
    return { name: input.name, header, clientId, docs, files, urls: importedRepoUrls(services.config, header.library, clientId) };
  } finally {
    stream.resume();
  }
}

/**
 * Writes the batch's snippets (one refresh), then inserts its records; returns the client ids
 * whose key another writer took meanwhile (their snippets are deleted again).
 */
async function publishNew(services: Pick<Ports, 'libraries' | 'manifests' | 'snippets'>, batch: ReadBundle[]): Promise<Set<string>> {
  const all = batch.flatMap((b) => b.docs);
  try {
    await services.snippets.write(all);
  } catch (error) {
    for (const b of batch) await services.snippets.deleteGenerations({ libraryId: b.clientId }).catch(() => undefined);
    throw error;
  }
  const now = new Date();
  const rev = firstRevision(now.getTime());
  const records = batch.map((b) => newRecord(b, rev, now));
  const { taken } = await services.libraries.insertBuilt(records);
  const lost = new Set(taken);
  for (const key of lost) {
    const b = batch.find((x) => x.clientId === key);
    for (const v of b?.header.versions ?? []) await services.snippets.deleteGenerations({ libraryId: key, version: v.version, only: v.generation });
  }
  await services.manifests.putMany(
    batch
      .filter((b) => !lost.has(b.clientId))
      .flatMap((b) => b.header.versions.map((v) => ({ _id: `${b.clientId}@${v.version}`, generation: v.generation, files: b.files.get(v.version) ?? [] }))),
  );
  return lost;
}

/** The finalized record of a bundle's library (public copy), as a single import would leave it. */
function newRecord(b: ReadBundle, rev: number, now: Date): LibraryRecord {
  const h = b.header.library;
  const versions = b.header.versions
    .map((v) => ({
      version: v.version,
      ref: v.ref,
      tags: v.tags,
      commit: v.commit,
      generation: v.generation,
      baseGeneration: v.generation,
      state: 'finalized' as const,
      totalSnippets: v.totalSnippets,
      totalTokens: v.totalTokens,
      benchmarkScore: v.benchmarkScore,
      lastUpdateDate: new Date(v.lastUpdateDate),
    }))
    .sort((a, c) => (a.version === 'latest' ? -1 : c.version === 'latest' ? 1 : c.version.localeCompare(a.version, undefined, { numeric: true })));
  return {
    _id: b.clientId,
    source: h.source,
    title: h.title,
    description: h.description,
    // What a refresh would clone passes the rules of an add (bundles/repo-urls.ts), as in importBundle.
    repoUrl: b.urls.repoUrl,
    cloneUrl: b.urls.cloneUrl,
    branch: h.branch,
    aliases: h.aliases,
    nameKeys: h.nameKeys,
    state: 'finalized',
    versions,
    trustScore: h.trustScore,
    trustScoreSetByAdmin: false,
    stars: 0,
    private: false,
    teamId: null,
    options: h.options,
    sourceParams: null,
    crawl: null,
    schedule: { mode: 'default', everyHours: 0 },
    versionRule: null,
    webhook: { encryptedSecret: null, createdAt: null },
    check: { lastCheckedAt: null, nextCheckAt: null, failures: 0, lastError: null, pendingJobId: null },
    rev,
    createdAt: now,
    updatedAt: now,
  };
}

function importedResult(b: ReadBundle): ImportResult {
  const versions = b.header.versions.map((v) => ({ version: v.version, status: 'imported' as const, snippets: v.totalSnippets }));
  const total = versions.reduce((n, v) => n + v.snippets, 0);
  return {
    libraryName: b.clientId,
    status: 'imported',
    message: `${b.clientId} was imported (${versions.map((v) => v.version).join(', ')}; ${total} snippets) and is ready to query${b.urls.dropped ? `; ${b.urls.dropped}` : ''}.`,
    versions,
  };
}

/** The same errors `importBundle` throws for a bad bundle. */
function asImportError(error: unknown): Error {
  if (error instanceof BundleTooLargeError) return new PayloadTooLargeError(error.message);
  if (error instanceof BundleError) return new ValidationError(error.message);
  return error as Error;
}
