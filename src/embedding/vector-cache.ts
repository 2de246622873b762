/**
 * Vectors by (model, text hash), so a snippet whose embedding text is unchanged is never
 * embedded again: across refreshes, versions, reloads and instances. The store behind it is
 * an Elasticsearch index of its own (search/vector-store.ts: `mget` and bulk in batches).
 */
import crypto from 'node:crypto';

/** The cache key of a text for a model: the model id (file hash and input cap) and the text's sha256. */
export function vectorKey(modelId: string, text: string): string {
  return `${modelId}:${crypto.createHash('sha256').update(text).digest('base64url')}`;
}

/** What the embedding service needs of the cache (search/vector-store.ts `VectorStore`). */
export interface VectorCache {
  /** Creates the store when missing (called once, when the model is loaded). */
  ensureIndex(): Promise<void>;
  get(keys: readonly string[]): Promise<Map<string, Float32Array>>;
  put(entries: ReadonlyArray<{ key: string; vector: Float32Array }>): Promise<void>;
}
