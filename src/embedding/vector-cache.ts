/**
 * Vectors by (model, text hash), in MongoDB (collection `embeddings`), so a snippet whose
 * embedding text is unchanged is never embedded again: across refreshes, versions, reloads
 * and instances. A vector is 384 float32s stored as binary (1.5 KB). Reads are `_id $in`
 * batches; writes are bounded inserts (store/bulk.ts); a key inserted twice by racing builds
 * is the same vector, so a duplicate is simply skipped.
 */
import crypto from 'node:crypto';
import { Schema, type Connection, type Model, mongo } from 'mongoose';
import { insertDocuments, rawCollection, type BoundedCollection } from '../store/bulk';
import { isDuplicate } from '../store/mongo';

interface VectorRecord {
  _id: string;
  v: mongo.Binary;
}

const schema = new Schema<VectorRecord>({ _id: { type: String, required: true }, v: { type: Buffer, required: true } }, { collection: 'embeddings', versionKey: false });

export function vectorModel(conn: Connection): Model<VectorRecord> {
  return (conn.models.EmbeddingVector as Model<VectorRecord> | undefined) ?? conn.model<VectorRecord>('EmbeddingVector', schema);
}

/** The cache key of a text for a model: the model id (file hash and input cap) and the text's sha256. */
export function vectorKey(modelId: string, text: string): string {
  return `${modelId}:${crypto.createHash('sha256').update(text).digest('base64url')}`;
}

/** Lookups in flight at once. */
const READ_LANES = 16;

export class VectorCache {
  private readonly collection: BoundedCollection<VectorRecord>;

  constructor(model: Model<VectorRecord>) {
    this.collection = rawCollection<VectorRecord>(model);
  }

  /**
   * The cached vectors of `keys` (missing keys are absent from the map). One `_id` lookup
   * per key, READ_LANES at a time: FerretDB 1.24 on SQLite does not push `_id: {$in}` down
   * to the index (measured: 5.1 s for 500 keys among 25k vectors, against 1.7 ms per
   * `findOne` by `_id` with 16 in flight).
   */
  async get(keys: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    const unique = [...new Set(keys)];
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < unique.length) {
        const key = unique[next++];
        const doc = await this.collection.findOne({ _id: key });
        if (doc) found.set(key, fromBinary(doc.v));
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_LANES, unique.length) }, lane));
    return found;
  }

  async put(entries: ReadonlyArray<{ key: string; vector: Float32Array }>): Promise<void> {
    const docs = entries.map((e) => ({ _id: e.key, v: toBinary(e.vector) }));
    try {
      await insertDocuments(this.collection, docs);
    } catch (error) {
      if (!isDuplicate(error)) throw error;
      // A racing build cached some of them first: insert the rest one by one.
      for (const doc of docs) {
        await this.collection.insertOne(doc).catch((e: unknown) => {
          if (!isDuplicate(e)) throw e;
        });
      }
    }
  }
}

function toBinary(v: Float32Array): mongo.Binary {
  return new mongo.Binary(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
}

function fromBinary(b: mongo.Binary | Buffer): Float32Array {
  const bytes: Uint8Array = Buffer.isBuffer(b) ? b : b.read(0, b.length());
  // Copied into an aligned buffer: a Float32Array view needs a 4-byte-aligned offset.
  const out = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}
