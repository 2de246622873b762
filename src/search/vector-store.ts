/**
 * The embedding vector cache as an Elasticsearch index of its own (`<prefix>-vectors-v1`):
 * one document per (model, text hash) key, `_id` = the key, the vector as a `binary` field
 * (base64 of 384 little-endian float32s; neither indexed nor in doc values, only `_source`).
 *
 * It replaced a MongoDB collection because bulk lookups there were slow: FerretDB 1.24 on
 * SQLite does not push `_id: {$in}` down to the index (5.1 s for 500 keys among 25k
 * vectors), so a build looked keys up one by one, 25–50 ms each under load (20–70 s per
 * library on a no-change reload). Here a batch of keys is one `mget` (realtime: no refresh
 * needed to read a vector just written) and a batch of vectors one bulk request. Writing a
 * key twice (racing builds) writes the same vector, so it is a plain `index`, idempotent.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { EsClient } from './client';

/** Bump when the document shape changes: a new index is then created empty (a cache can be rebuilt). */
export const VECTORS_MAPPING_VERSION = 1;
/** Keys per `mget` and vectors per bulk request (~2 KB each: ~1 MB bodies). */
const BATCH = 500;

const VECTOR_INDEX_SETTINGS: estypes.IndicesIndexSettings = { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '30s' };
const VECTOR_MAPPINGS: estypes.MappingTypeMapping = { dynamic: 'strict', properties: { v: { type: 'binary' } } };

interface VectorSource {
  v: string;
}

export class VectorStore {
  readonly index: string;

  constructor(
    private readonly es: EsClient,
    prefix: string,
  ) {
    this.index = `${prefix}-vectors-v${VECTORS_MAPPING_VERSION}`;
  }

  /** Creates the index when missing (idempotent, safe to race). */
  async ensureIndex(): Promise<void> {
    if (await this.es.indices.exists({ index: this.index })) return;
    try {
      await this.es.indices.create({ index: this.index, settings: VECTOR_INDEX_SETTINGS, mappings: VECTOR_MAPPINGS }, { requestTimeout: 35_000 });
    } catch (error) {
      if (!String((error as Error).message).includes('resource_already_exists_exception')) throw error;
    }
    await this.es.cluster.health({ index: this.index, wait_for_status: 'yellow', timeout: '30s' }, { requestTimeout: 35_000 });
  }

  /** The stored vectors of `keys` (missing keys are absent from the map). */
  async get(keys: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += BATCH) {
      const res = await this.es.mget<VectorSource>({ index: this.index, ids: unique.slice(i, i + BATCH) }, { requestTimeout: 120_000 });
      for (const doc of res.docs) {
        if ('found' in doc && doc.found && doc._source) found.set(doc._id, fromBase64(doc._source.v));
      }
    }
    return found;
  }

  /** Stores vectors by key; fails (nothing half-reported) when any write fails. */
  async put(entries: ReadonlyArray<{ key: string; vector: Float32Array }>): Promise<void> {
    for (let i = 0; i < entries.length; i += BATCH) {
      const operations = entries.slice(i, i + BATCH).flatMap((e) => [{ index: { _index: this.index, _id: e.key } }, { v: toBase64(e.vector) }]);
      const res = await this.es.bulk({ operations }, { requestTimeout: 120_000 });
      if (res.errors) {
        const failed = res.items.find((item) => item.index?.error)?.index?.error;
        throw new Error(`Caching embedding vectors failed: ${failed?.type ?? 'unknown'}: ${failed?.reason ?? ''}`);
      }
    }
  }
}

function toBase64(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

function fromBase64(s: string): Float32Array {
  const bytes = Buffer.from(s, 'base64');
  // Copied into an aligned buffer: a Float32Array view needs a 4-byte-aligned offset.
  const out = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}
