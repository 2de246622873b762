/**
 * Use case "import a library bundle": publishes a bundle (format.ts) like a build, in one
 * step. Snippets are written as they stream in, under new generations nobody reads yet;
 * only after the trailer's checksum and every count check out are all the bundle's
 * versions switched in, in one update of the library record (`switchGenerations`). Any
 * failure before that deletes what was written (and a library record made for the
 * import), so a refused bundle leaves nothing behind.
 *
 * Generations: a version is imported under the generation it had where it was built (a
 * build's start time), so builds compare across installations. A version already served
 * at that generation and commit is unchanged (importing a bundle twice is a no-op); one
 * served at a newer generation is a newer build, which the bundle replaces only with
 * `force` (then under a new, newer generation).
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Ports } from '../../ports';
import type { SnippetDocument } from '../../search/types';
import type { LibraryRecord, LibraryVersionRecord } from '../../store/models/library';
import { ConflictError, PayloadTooLargeError, ValidationError } from '../../errors';
import { deleteLibrary, deletePortsOf } from '../delete';
import { SNIPPETS_MAPPING_VERSION } from '../../search/snippet-store';
import { EMBEDDING_DIMS, SNIPPET_FIELDS, toIndexedSnippet } from '../../search/mappings';
import { newGeneration, switchGenerations } from '../../indexing/pipeline/publish';
import { BuildBusyError } from '../../store/jobs';
import { parseLibraryId } from '../../domain/library-ids';
import {
  BundleError,
  describeIssues,
  filesLineSchema,
  MAX_SNIPPET_LINE_BYTES,
  parseHeader,
  snippetLineSchema,
  trailerSchema,
  type BundleHeader,
  type BundleVersion,
} from './format';
import { importedRepoUrls } from './repo-urls';
import { BundleTooLargeError, readBundleLines } from './read-lines';

export interface ImportOptions {
  /** Replace versions the target serves from a newer build. */
  force: boolean;
  maxBytes: number;
  /** Called every few thousand snippets written (CLI progress, logs). */
  onProgress?: (snippets: number) => void;
}

export interface ImportResult {
  libraryName: string;
  status: 'imported' | 'unchanged';
  message: string;
  versions: Array<{ version: string; status: 'imported' | 'unchanged'; snippets: number }>;
}

/** How long an import waits for a build of the same library version to end. */
const SLOT_WAIT_MS = 60_000;
const WRITE_BATCH = 4000;
/** Bytes of snippet lines written at once, at most (Elasticsearch takes 100 MB a request). */
const WRITE_BATCH_BYTES = 32 * 1024 * 1024;

export interface Plan {
  bundle: BundleVersion;
  /** The generation written and switched in; undefined when the version is unchanged. */
  generation?: number;
}

/** What `importBundle` reaches (ports.ts). */
export type ImportBundlePorts = Pick<Ports, 'config' | 'embeddings' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'publishDeps' | 'snippets'>;

export async function importBundle(services: ImportBundlePorts, input: Readable, options: ImportOptions): Promise<ImportResult> {
  try {
    return await importLines(services, readBundleLines(input, options.maxBytes), options);
  } catch (error) {
    if (error instanceof BundleTooLargeError) throw new PayloadTooLargeError(error.message);
    if (error instanceof BundleError) throw new ValidationError(error.message);
    if (error instanceof BuildBusyError) throw new ConflictError('A build of this library is running; import the bundle again when it has finished.');
    throw error;
  } finally {
    // A refused bundle is not read to its end; the rest of the request is discarded.
    input.resume();
  }
}

/** A bundle's first line: its header, the library's client id, and the running digest every line adds to. */
export async function readHeader(lines: AsyncGenerator<Buffer>): Promise<{ hash: ReturnType<typeof createHash>; header: BundleHeader; clientId: string }> {
  const first = await lines.next();
  if (first.done) throw new BundleError('The bundle is empty.');
  const hash = createHash('sha256').update(first.value).update('\n');
  const header = parseHeader(first.value.toString('utf8'));
  try {
    const parsed = parseLibraryId(header.library.id);
    if (parsed.version !== undefined) throw new Error('versioned');
    return { hash, header, clientId: parsed.libraryId };
  } catch {
    throw new BundleError(`The bundle names an invalid library id "${header.library.id}".`);
  }
}

async function importLines(services: ImportBundlePorts, lines: AsyncGenerator<Buffer>, options: ImportOptions): Promise<ImportResult> {
  const { hash, header, clientId } = await readHeader(lines);

  const urls = importedRepoUrls(services.config, header.library, clientId);
  const existing = await services.libraries.findCopy(clientId, null, { fresh: true });
  const key = existing?._id ?? (await services.libraries.keyForNewCopy(clientId, null));
  return holdSlots(
    services,
    key,
    header.versions.map((v) => v.version),
    async () => {
      const current = await services.libraries.get(key, { fresh: true });
      const plans = planVersions(header, current, options.force, clientId);
      const written: Plan[] = [];
      let created = false;
      try {
        const counts = await streamSnippets(services, lines, hash, { header, key, plans, written, onProgress: options.onProgress });
        const todo = plans.filter((p) => p.generation !== undefined);
        if (todo.length > 0) {
          if (!current) {
            await services.libraries.ensure({
              _id: key,
              source: header.library.source,
              title: header.library.title,
              description: header.library.description,
              repoUrl: urls.repoUrl,
              cloneUrl: urls.cloneUrl,
              branch: header.library.branch,
              aliases: header.library.aliases,
              nameKeys: header.library.nameKeys,
              private: false,
              teamId: null,
              trustScore: header.library.trustScore,
              options: header.library.options,
            });
            created = true;
          }
          await switchGenerations(
            services.publishDeps(),
            key,
            todo.map((p) => ({ record: versionRecord(p.bundle, p.generation as number), files: counts.files.get(p.bundle.version) ?? [] })),
            { title: header.library.title, description: header.library.description, branch: header.library.branch },
          );
        }
        const versions = plans.map((p) => ({
          version: p.bundle.version,
          status: p.generation === undefined ? ('unchanged' as const) : ('imported' as const),
          snippets: p.bundle.totalSnippets,
        }));
        const status = todo.length === 0 ? 'unchanged' : 'imported';
        const message =
          status === 'unchanged'
            ? `${clientId} already serves this bundle's builds; nothing was changed.`
            : `${clientId} was imported (${todo.map((p) => p.bundle.version).join(', ')}; ${todo.reduce((n, p) => n + p.bundle.totalSnippets, 0)} snippets) and is ready to query${!current && urls.dropped ? `; ${urls.dropped}` : ''}.`;
        return { libraryName: clientId, status, message, versions };
      } catch (error) {
        for (const p of written) await services.snippets.deleteGenerations({ libraryId: key, version: p.bundle.version, only: p.generation });
        if (created) await deleteLibrary(deletePortsOf(services), key, { onlyIfNeverBuilt: true });
        throw error;
      }
    },
  );
}

/** What happens to each version: unchanged, imported at its own generation, or refused as older. */
export function planVersions(header: BundleHeader, current: LibraryRecord | null, force: boolean, clientId: string): Plan[] {
  return header.versions.map((bundle) => {
    const served = current?.versions.find((v) => v.version === bundle.version && v.generation > 0);
    if (!served || served.generation < bundle.generation) return { bundle, generation: bundle.generation };
    if (served.generation === bundle.generation && served.commit === bundle.commit) return { bundle };
    if (!force) {
      throw new ConflictError(
        `${clientId} (${bundle.version}) is served from a newer build (${new Date(served.lastUpdateDate).toISOString()}, commit ${served.commit.slice(0, 12) || 'unknown'}) than the bundle's; send force=true to replace it.`,
      );
    }
    return { bundle, generation: Math.max(newGeneration(), served.generation + 1) };
  });
}

function versionRecord(v: BundleVersion, generation: number): LibraryVersionRecord {
  return {
    version: v.version,
    ref: v.ref,
    tags: v.tags,
    commit: v.commit,
    generation,
    // Every snippet is written again under this generation: a full build.
    baseGeneration: generation,
    state: 'finalized',
    totalSnippets: v.totalSnippets,
    totalTokens: v.totalTokens,
    benchmarkScore: v.benchmarkScore,
    lastUpdateDate: new Date(v.lastUpdateDate),
  };
}

/**
 * Reads every line after the header: writes the snippets of versions being imported (in
 * batches, rewritten to this installation's key and generation), keeps the manifests, and
 * checks the trailer, the counts and that nothing follows it.
 */
export async function streamSnippets(
  services: Pick<Ports, 'snippets' | 'embeddings'>,
  lines: AsyncGenerator<Buffer>,
  hash: ReturnType<typeof createHash>,
  /** `write`: where each batch goes (default: the snippets index; a batch import collects them). */
  ctx: {
    header: BundleHeader;
    key: string;
    plans: Plan[];
    written: Plan[];
    onProgress?: (n: number) => void;
    write?: (docs: SnippetDocument[]) => Promise<void>;
  },
): Promise<{ files: Map<string, { p: string; h: string }[]> }> {
  const byVersion = new Map(ctx.plans.map((p) => [p.bundle.version, p]));
  const counts = new Map<string, number>();
  const files = new Map<string, { p: string; h: string }[]>();
  const reanalyse = ctx.header.mappingVersion !== SNIPPETS_MAPPING_VERSION;
  const snippetLine = snippetLineSchema(!reanalyse);
  // Vectors are kept only when they are this installation's model's; else they are made here
  // (or left out when embeddings are off, as a build without the model would).
  const embeddings = services.embeddings;
  const keepVectors = embeddings !== undefined && ctx.header.embeddingModel === embeddings.modelId;
  let lineCount = 1;
  let written = 0;
  let batch: SnippetDocument[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    let docs = batch;
    batch = [];
    batchBytes = 0;
    // A bundle of this model whose documents lack vectors (an export that could not restore
    // them) gets them here too: a snippet without one is invisible to the kNN leg.
    if (embeddings && (!keepVectors || docs.some((d) => d.embedding === undefined))) docs = await embeddings.attach(docs);
    await (ctx.write ? ctx.write(docs) : services.snippets.write(docs));
    written += docs.length;
    ctx.onProgress?.(written);
  };
  let trailer: { lines: number; sha256: string } | undefined;
  for await (const raw of lines) {
    if (trailer) throw new BundleError('The bundle has data after its last line.');
    let value: unknown;
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new BundleError(`Line ${lineCount + 1} of the bundle is not JSON: the bundle is damaged.`);
    }
    const type = (value as { type?: unknown } | null)?.type;
    if (type === 'end') {
      const parsed = trailerSchema.safeParse(value);
      if (!parsed.success) throw new BundleError(`The bundle's last line is invalid: ${describeIssues(parsed.error)}.`);
      trailer = parsed.data;
      continue;
    }
    hash.update(raw).update('\n');
    lineCount++;
    if (type === 'files') {
      const parsed = filesLineSchema.safeParse(value);
      if (!parsed.success || !byVersion.has(parsed.data.version)) throw new BundleError(`Line ${lineCount} of the bundle is an invalid file list.`);
      files.set(parsed.data.version, parsed.data.files);
      continue;
    }
    if (raw.length > MAX_SNIPPET_LINE_BYTES)
      throw new BundleError(`Line ${lineCount} of the bundle is larger than a snippet may be (${MAX_SNIPPET_LINE_BYTES / 1024} KB).`);
    const parsed = snippetLine.safeParse(value);
    if (!parsed.success) throw new BundleError(`Line ${lineCount} of the bundle is not a snippet: ${describeIssues(parsed.error)}.`);
    const plan = byVersion.get(parsed.data.doc.version);
    if (!plan) throw new BundleError(`Line ${lineCount} holds a snippet of version "${parsed.data.doc.version}", which the header does not list.`);
    counts.set(plan.bundle.version, (counts.get(plan.bundle.version) ?? 0) + 1);
    if (plan.generation === undefined) continue;
    if (!ctx.written.includes(plan)) ctx.written.push(plan);
    batch.push(storedDocument(parsed.data.doc, ctx.key, plan.generation, reanalyse, keepVectors));
    batchBytes += raw.length;
    if (batch.length >= WRITE_BATCH || batchBytes >= WRITE_BATCH_BYTES) await flush();
  }
  if (!trailer) throw new BundleError('The bundle is truncated: its last line (with the checksum) is missing. Download or copy it again.');
  if (trailer.lines !== lineCount || trailer.sha256 !== hash.digest('hex')) {
    throw new BundleError('The bundle failed its checksum: its content was changed after it was exported. Export it again.');
  }
  for (const p of ctx.plans) {
    const n = counts.get(p.bundle.version) ?? 0;
    if (n !== p.bundle.totalSnippets)
      throw new BundleError(`The bundle holds ${n} snippets of ${p.bundle.version} where its header says ${p.bundle.totalSnippets}.`);
  }
  await flush();
  return { files };
}

/**
 * A bundle's document as this installation stores it: under its key and generation, its id
 * made again from this key, the version and the bundle's id. A bundle's ids are never kept:
 * the index's `_id` is `<id>:<generation>`, so a bundle naming another library's snippet ids
 * at its generation (a private one of another team, say) would overwrite them. A bundle
 * written for another mapping version keeps only the fields this one maps (checked by
 * format.ts) and is analysed again by this release's analysis. Its `embedding` is kept only
 * when the bundle's vectors are this installation's model's.
 */
export function storedDocument(
  doc: Record<string, unknown> & { id: string; version: string },
  key: string,
  generation: number,
  reanalyse: boolean,
  keepVectors: boolean,
): SnippetDocument {
  const id = createHash('sha256').update(`${key}\0${doc.version}\0${doc.id}`).digest('hex').slice(0, 32);
  const { embedding, retired: _retired, ...rest } = doc;
  const mapped = reanalyse ? Object.fromEntries(Object.entries(rest).filter(([name]) => Object.hasOwn(SNIPPET_FIELDS, name))) : rest;
  const fields = keepVectors && Array.isArray(embedding) && embedding.length === EMBEDDING_DIMS ? { ...mapped, embedding } : mapped;
  const stored = { ...fields, id, libraryId: key, generation } as unknown as SnippetDocument;
  return reanalyse ? toIndexedSnippet(stored) : stored;
}

/** Runs `work` holding the build slot of every version (one build of a version at a time). */
async function holdSlots<T>(services: Pick<Ports, 'jobs'>, key: string, versions: string[], work: () => Promise<T>): Promise<T> {
  const [first, ...rest] = versions;
  if (first === undefined) return work();
  return services.jobs.inBuildSlot(key, first, SLOT_WAIT_MS, () => holdSlots(services, key, rest, work));
}
