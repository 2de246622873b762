/**
 * The local embedding model: a sentence-transformers BERT (all-MiniLM-L6-v2 by default) as
 * ONNX, run in-process by onnxruntime-node and tokenized by @huggingface/tokenizers (pure
 * JS; token ids identical to the Rust tokenizer). Mean pooling over the attention mask, then
 * L2 normalisation, as sentence-transformers does for this model, so a dot product is the
 * cosine. Nothing is downloaded: the files come from the install step's cache
 * (scripts/install/install-model.mjs) or SHELFMARK_EMBEDDING_MODEL_DIR.
 *
 * Two graphs of one model when the folder has them (model-files.ts): documents through the
 * fp32 graph (faithful to the reference), queries through the dynamic-int8 graph (about a
 * third of the CPU per query; a query vector is made per uncached request, a document
 * vector once and cached). Otherwise `model.onnx` serves both.
 *
 * onnxruntime-node 1.30 runs `session.run` synchronously on the calling thread (its promise
 * only defers the call to the next turn): a batch of 16 document texts held the event loop
 * for up to ~0.5 s. So a server embeds documents in a thread of its own (threaded.ts) and
 * only queries here, ~3 ms each and cached.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { missingModelFiles, readModelGraphs, type GraphFile } from './model-files';

export { DEFAULT_MODEL_NAME, MODEL_FILES, defaultModelDir, missingModelFiles } from './model-files';

export interface EmbedderOptions {
  /** Input cap in tokens, [CLS] and [SEP] included; longer texts are cut (their start counts most). */
  maxTokens?: number;
  /** Texts per inference call (texts are sorted by length first, so padding stays small). */
  batchSize?: number;
  /** onnxruntime intra-op threads (1 was faster than 2 on the busy 2-core box). */
  threads?: number;
}

export interface Embedder {
  /** Identifies the document vectors: folder, document graph hash and input cap. Cache keys and the index carry it. */
  readonly modelId: string;
  /** Identifies the query graph (equal to `modelId` when one graph serves both sides). */
  readonly queryModelId: string;
  /** Why the folder's derived graphs are not used although it lists some (said at start-up). */
  readonly graphProblem?: string;
  readonly dims: number;
  readonly maxTokens: number;
  /** One unit-length document vector per text, in input order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** The unit-length vector of a search query (the query graph). */
  embedQuery(text: string): Promise<Float32Array>;
  /** Token ids as the model sees them ([CLS] … [SEP], capped). */
  tokenize(text: string): number[];
  close(): Promise<void>;
}

export async function loadEmbedder(dir: string, options: EmbedderOptions = {}): Promise<Embedder> {
  const missing = missingModelFiles(dir);
  if (missing.length > 0) throw new Error(`The embedding model folder ${dir} lacks ${missing.join(', ')}.`);
  const maxTokens = options.maxTokens ?? 128;
  const batchSize = options.batchSize ?? 16;
  // Loaded lazily: the ONNX runtime's native library is only needed when embeddings are on.
  const ort = await import('onnxruntime-node');
  const graphs = readModelGraphs(dir);
  const createSession = (graph: GraphFile): Promise<InferenceSession> =>
    ort.InferenceSession.create(graph.file, {
      intraOpNumThreads: options.threads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: graph.optimization,
      // Idle intra-op threads otherwise spin waiting for work, burning CPU the server needs.
      extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
    });
  // Each session is made on first use: a process whose documents are embedded in a thread
  // of their own (threaded.ts) never loads the document graph on its main thread.
  let documentSession: Promise<InferenceSession> | undefined;
  let querySession: Promise<InferenceSession> | undefined;
  const documents = () => (documentSession ??= createSession(graphs.document));
  const queries = () => (querySession ??= graphs.query === graphs.document ? documents() : createSession(graphs.query));
  const tokenizer = new Tokenizer(readJson(path.join(dir, 'tokenizer.json')), readJson(path.join(dir, 'tokenizer_config.json')));
  const idOf = (graph: GraphFile) => `${path.basename(dir)}@${graph.hash}:t${maxTokens}`;
  let dims = 0;

  function tokenize(text: string): number[] {
    // Long texts are cut before tokenizing (no token takes fewer than one character, and
    // tokenizing a whole page to keep 128 tokens would cost more than the cut).
    const ids = tokenizer.encode(text.slice(0, maxTokens * 12)).ids;
    if (ids.length <= maxTokens) return ids;
    return [...ids.slice(0, maxTokens - 1), ids[ids.length - 1]];
  }

  async function runBatch(session: InferenceSession, batch: number[][]): Promise<Float32Array[]> {
    const width = Math.max(...batch.map((ids) => ids.length));
    const size = batch.length * width;
    const ids = new BigInt64Array(size);
    const mask = new BigInt64Array(size);
    batch.forEach((row, r) =>
      row.forEach((id, c) => {
        ids[r * width + c] = BigInt(id);
        mask[r * width + c] = 1n;
      }),
    );
    const shape = [batch.length, width];
    const feeds: Record<string, Tensor> = {
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', mask, shape),
    };
    if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(size), shape);
    const result = await session.run(feeds);
    const hidden = result[session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0]];
    const data = hidden.data as Float32Array;
    const d = hidden.dims[2];
    dims = d;
    const vectors = batch.map((row, r) => meanPool(data, r, width, d, row.length));
    hidden.dispose?.();
    return vectors;
  }

  return {
    modelId: idOf(graphs.document),
    queryModelId: idOf(graphs.query),
    graphProblem: graphs.problem,
    get dims() {
      return dims || 384;
    },
    maxTokens,
    tokenize,
    async embed(texts) {
      const tokenized = texts.map((text, index) => ({ index, ids: tokenize(text) }));
      tokenized.sort((a, b) => a.ids.length - b.ids.length);
      const out = new Array<Float32Array>(texts.length);
      for (let i = 0; i < tokenized.length; i += batchSize) {
        const slice = tokenized.slice(i, i + batchSize);
        const vectors = await runBatch(
          await documents(),
          slice.map((t) => t.ids),
        );
        slice.forEach((t, j) => (out[t.index] = vectors[j]));
      }
      return out;
    },
    async embedQuery(text) {
      const [vector] = await runBatch(await queries(), [tokenize(text)]);
      return vector;
    },
    async close() {
      // Released sessions are made again if the embedder is used after closing.
      const sessions = new Set([documentSession, querySession].filter((x): x is Promise<InferenceSession> => x !== undefined));
      documentSession = undefined;
      querySession = undefined;
      for (const session of sessions) await (await session).release();
    },
  };
}

/** Mean of the first `length` token states of row `r` (padding excluded), L2-normalised. */
function meanPool(data: Float32Array, r: number, width: number, d: number, length: number): Float32Array {
  const v = new Float32Array(d);
  const base = r * width * d;
  for (let t = 0; t < length; t++) {
    const o = base + t * d;
    for (let k = 0; k < d; k++) v[k] += data[o + k];
  }
  return normalize(v);
}

/** Scales `v` to unit length in place (a zero vector stays zero). */
export function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (let k = 0; k < v.length; k++) norm += v[k] * v[k];
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < v.length; k++) v[k] /= norm;
  return v;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let k = 0; k < a.length; k++) {
    dot += a[k] * b[k];
    na += a[k] * a[k];
    nb += b[k] * b[k];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function readJson(file: string): object {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as object;
}
