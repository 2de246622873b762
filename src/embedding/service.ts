/**
 * Embeddings for hybrid retrieval: snippet vectors at index time (through the vector cache,
 * so unchanged texts are never embedded again) and query vectors at request time (an
 * in-memory cache of recent queries). Built once at start-up by `createEmbeddings`; when
 * the model is off or absent, nothing here exists and retrieval is lexical only.
 *
 * Inference never blocks the event loop: onnxruntime-node runs each batch on a libuv pool
 * thread and resolves a promise, so a build embedding thousands of snippets in the
 * in-process worker leaves request handling on the main thread free (bounded to
 * INDEX_CONCURRENCY batches at once, so it cannot take every core either).
 */
import type { Logger } from 'pino';
import type { Config } from '../config';
import { ConfigError } from '../config';
import type { SnippetDocument } from '../search/types';
import { EMBEDDING_DIMS } from '../search/mappings';
import { defaultModelDir, loadEmbedder, missingModelFiles, type Embedder } from './embedder';
import { threadedEmbedder } from './threaded';
import { embeddingText } from './text';
import { vectorKey, type VectorCache } from './vector-cache';

/**
 * Input cap of snippet and query texts, in tokens. A section snippet is judged by its heading and
 * the start of its text: 128 tokens (the length the model was trained at) ranked sections better
 * than 64 on the dev set (see weights.ts `answer`), at about twice the CPU per document text.
 */
export const EMBEDDING_MAX_TOKENS = 128;
/** Texts embedded and cached per step of a build (progress and the cache advance per step). */
const STEP = 128;
/** Batches in flight at once during a build (one per core of the 2-core target machine). */
const INDEX_CONCURRENCY = 2;
/** Recent query vectors kept per instance. */
const QUERY_CACHE_SIZE = 2000;

export interface EmbeddingProgress {
  embedded: number;
  cached: number;
  total: number;
}

export class Embeddings {
  private readonly queries = new Map<string, Promise<Float32Array>>();

  constructor(
    private readonly embedder: Embedder,
    private readonly cache: VectorCache,
  ) {}

  get modelId(): string {
    return this.embedder.modelId;
  }

  /**
   * Returns the documents with `embedding` set: cached vectors by (model, text hash), the
   * rest embedded in length-sorted batches and cached as they are made.
   */
  async attach(docs: readonly SnippetDocument[], onProgress?: (p: EmbeddingProgress) => Promise<void> | void): Promise<SnippetDocument[]> {
    const keys = docs.map((d) => vectorKey(this.modelId, embeddingText(d)));
    const known = await this.cache.get(keys);
    const missing = [...new Set(keys.filter((k) => !known.has(k)))];
    const textOf = new Map(docs.map((d, i) => [keys[i], embeddingText(d)]));
    const progress: EmbeddingProgress = { embedded: 0, cached: keys.length - keys.filter((k) => !known.has(k)).length, total: keys.length };
    await onProgress?.(progress);
    for (let i = 0; i < missing.length; i += STEP) {
      const step = missing.slice(i, i + STEP);
      const vectors = await this.embedConcurrently(step.map((k) => textOf.get(k) ?? ''));
      const entries = step.map((key, j) => ({ key, vector: vectors[j] }));
      await this.cache.put(entries);
      for (const e of entries) known.set(e.key, e.vector);
      progress.embedded += step.length;
      await onProgress?.(progress);
    }
    return docs.map((d, i) => ({ ...d, embedding: roundVector(known.get(keys[i])) }));
  }

  /** The query's vector (recent queries from memory). */
  embedQuery(query: string): Promise<Float32Array> {
    const key = query.trim().toLowerCase();
    const hit = this.queries.get(key);
    if (hit !== undefined) {
      // Map order is insertion order: re-inserting keeps hot queries from eviction.
      this.queries.delete(key);
      this.queries.set(key, hit);
      return hit;
    }
    const made = this.embedder.embedQuery(query);
    made.catch(() => this.queries.delete(key));
    this.queries.set(key, made);
    if (this.queries.size > QUERY_CACHE_SIZE) this.queries.delete(this.queries.keys().next().value as string);
    return made;
  }

  close(): Promise<void> {
    return this.embedder.close();
  }

  private async embedConcurrently(texts: string[]): Promise<Float32Array[]> {
    // Sorted by length, then dealt round-robin, so each lane's batches pad little.
    const order = texts.map((t, i) => ({ t, i })).sort((a, b) => a.t.length - b.t.length);
    const lanes = Array.from({ length: INDEX_CONCURRENCY }, (_, lane) => order.filter((_, j) => Math.floor(j / 16) % INDEX_CONCURRENCY === lane));
    const out = new Array<Float32Array>(texts.length);
    await Promise.all(
      lanes.map(async (lane) => {
        const vectors = await this.embedder.embed(lane.map((x) => x.t));
        lane.forEach((x, j) => (out[x.i] = vectors[j]));
      }),
    );
    return out;
  }
}

/** Six decimals are far below the int8 model's own error, and keep `_source` and exports small. */
function roundVector(v: Float32Array | undefined): number[] | undefined {
  return v ? Array.from(v, (x) => Math.round(x * 1e6) / 1e6) : undefined;
}

/**
 * The embeddings of this process, or undefined for lexical search only: `off`, or `auto`
 * without the model's files (said at start-up). `on` without a usable model stops start-up.
 */
export async function createEmbeddings(config: Readonly<Config>, cache: VectorCache, log: Logger): Promise<Embeddings | undefined> {
  const { mode } = config.embeddings;
  if (mode === 'off') {
    log.info('embeddings off (SHELFMARK_EMBEDDINGS=off): lexical search only');
    return undefined;
  }
  const dir = config.embeddings.modelDir ?? defaultModelDir();
  const missing = missingModelFiles(dir);
  if (missing.length > 0) {
    const why = `no embedding model at ${dir} (missing ${missing.join(', ')}); run \`node scripts/install/install-model.mjs\` or set SHELFMARK_EMBEDDING_MODEL_DIR`;
    if (mode === 'on') throw new ConfigError(`SHELFMARK_EMBEDDINGS=on but ${why}.`);
    log.warn(`${why}: lexical search only`);
    return undefined;
  }
  const options = { maxTokens: EMBEDDING_MAX_TOKENS };
  // Documents in a thread of their own (inference is synchronous); queries on this thread.
  const embedder = threadedEmbedder(await loadEmbedder(dir, options), dir, options);
  // The query graph is of the same model: checking it leaves the document graph unloaded
  // until something is built (an API-only instance never loads it).
  const probe = await embedder.embedQuery('dimension check');
  if (probe.length !== EMBEDDING_DIMS) {
    await embedder.close();
    throw new ConfigError(`The embedding model at ${dir} makes ${probe.length}-dimension vectors; the index holds ${EMBEDDING_DIMS}.`);
  }
  try {
    await cache.ensureIndex();
  } catch (error) {
    await embedder.close();
    throw error;
  }
  if (embedder.graphProblem) {
    log.warn(
      `embedding model at ${dir}: ${embedder.graphProblem}; its model.onnx serves documents and queries (~10 ms CPU per uncached query instead of ~3): run \`node scripts/install/install-model.mjs\` to derive the graphs again`,
    );
  } else if (embedder.queryModelId === embedder.modelId && dir === defaultModelDir()) {
    log.warn(
      `embedding model at ${dir} has no derived graphs (graphs.json): model.onnx serves documents and queries (~10 ms CPU per uncached query instead of ~3); \`node scripts/install/install-model.mjs\` says why it could not derive them`,
    );
  }
  log.info({ model: embedder.modelId, queryModel: embedder.queryModelId, dir }, 'embeddings on: hybrid retrieval (lexical + kNN)');
  return new Embeddings(embedder, cache);
}
