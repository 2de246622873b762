/**
 * The local embedding model: a sentence-transformers BERT (all-MiniLM-L6-v2 by default) as
 * ONNX, run in-process by onnxruntime-node and tokenized by @huggingface/tokenizers (pure
 * JS; token ids identical to the Rust tokenizer). Mean pooling over the attention mask, then
 * L2 normalisation, as sentence-transformers does for this model, so a dot product is the
 * cosine. Nothing is downloaded: the files come from the install step's cache
 * (scripts/install-model.mjs) or SHELFMARK_EMBEDDING_MODEL_DIR.
 *
 * `session.run` executes on onnxruntime's own native threads and resolves a promise, so
 * inference never blocks the event loop; only tokenizing (microseconds) runs on it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';

export const DEFAULT_MODEL_NAME = 'all-MiniLM-L6-v2-int8';

/** The files a model folder must hold. */
export const MODEL_FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'] as const;

export interface EmbedderOptions {
  /** Input cap in tokens, [CLS] and [SEP] included; longer texts are cut (their start counts most). */
  maxTokens?: number;
  /** Texts per inference call (texts are sorted by length first, so padding stays small). */
  batchSize?: number;
  /** onnxruntime intra-op threads (1 was faster than 2 on the busy 2-core box). */
  threads?: number;
}

export interface Embedder {
  /** Identifies the vectors: model file hash and input cap. Cache keys and the index carry it. */
  readonly modelId: string;
  readonly dims: number;
  readonly maxTokens: number;
  /** One unit-length vector per text, in input order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Token ids as the model sees them ([CLS] … [SEP], capped). */
  tokenize(text: string): number[];
  close(): Promise<void>;
}

/** Where the install step puts the default model (outside the clone, like the nodegit build). */
export function defaultModelDir(env: NodeJS.ProcessEnv = process.env): string {
  const cacheRoot = env.SHELFMARK_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'shelfmark');
  return path.join(cacheRoot, 'models', DEFAULT_MODEL_NAME);
}

/** The files of `MODEL_FILES` missing from `dir` (empty when the model is usable). */
export function missingModelFiles(dir: string): string[] {
  return MODEL_FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
}

export async function loadEmbedder(dir: string, options: EmbedderOptions = {}): Promise<Embedder> {
  const missing = missingModelFiles(dir);
  if (missing.length > 0) throw new Error(`The embedding model folder ${dir} lacks ${missing.join(', ')}.`);
  const maxTokens = options.maxTokens ?? 128;
  const batchSize = options.batchSize ?? 16;
  // Loaded lazily: the ONNX runtime's native library is only needed when embeddings are on.
  const ort = await import('onnxruntime-node');
  const modelBytes = fs.readFileSync(path.join(dir, 'model.onnx'));
  const hash = crypto.createHash('sha256').update(modelBytes).digest('hex').slice(0, 12);
  const session: InferenceSession = await ort.InferenceSession.create(modelBytes, {
    intraOpNumThreads: options.threads ?? 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    // Idle intra-op threads otherwise spin waiting for work, burning CPU the server needs.
    extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
  });
  const tokenizer = new Tokenizer(readJson(path.join(dir, 'tokenizer.json')), readJson(path.join(dir, 'tokenizer_config.json')));
  const needsTypes = session.inputNames.includes('token_type_ids');
  const output = session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0];
  let dims = 0;

  function tokenize(text: string): number[] {
    // Long texts are cut before tokenizing (no token takes fewer than one character, and
    // tokenizing a whole page to keep 128 tokens would cost more than the cut).
    const ids = tokenizer.encode(text.slice(0, maxTokens * 12)).ids;
    if (ids.length <= maxTokens) return ids;
    return [...ids.slice(0, maxTokens - 1), ids[ids.length - 1]];
  }

  async function runBatch(batch: number[][]): Promise<Float32Array[]> {
    const width = Math.max(...batch.map((ids) => ids.length));
    const size = batch.length * width;
    const ids = new BigInt64Array(size);
    const mask = new BigInt64Array(size);
    batch.forEach((row, r) => row.forEach((id, c) => {
      ids[r * width + c] = BigInt(id);
      mask[r * width + c] = 1n;
    }));
    const shape = [batch.length, width];
    const feeds: Record<string, Tensor> = {
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', mask, shape),
    };
    if (needsTypes) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(size), shape);
    const result = await session.run(feeds);
    const hidden = result[output];
    const data = hidden.data as Float32Array;
    const d = hidden.dims[2];
    dims = d;
    const vectors = batch.map((row, r) => meanPool(data, r, width, d, row.length));
    hidden.dispose?.();
    return vectors;
  }

  return {
    modelId: `${path.basename(dir)}@${hash}:t${maxTokens}`,
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
        const vectors = await runBatch(slice.map((t) => t.ids));
        slice.forEach((t, j) => (out[t.index] = vectors[j]));
      }
      return out;
    },
    close: () => session.release(),
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
