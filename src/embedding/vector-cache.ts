/**
 * Vectors by (model, text hash), in MongoDB (collection `embeddings`), so a snippet whose
 * embedding text is unchanged is never embedded again: across refreshes, versions, reloads
 * and instances. A vector is 384 float32s stored as binary (1.5 KB). Reads are `_id $in`
 * batches; writes are bounded inserts (store/bulk.ts); a key inserted twice by racing builds
 * is the same vector, so a duplicate is simply skipped.
 */
import crypto from 'node:crypto';
import { Schema, type Connection, type Model, mongo } from 'mongoose';
import { chunked, insertDocuments, rawCollection, type BoundedCollection } from '../store/bulk';
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

const READ_CHUNK = 500;

export class VectorCache {
  private readonly collection: BoundedCollection<VectorRecord>;

  constructor(model: Model<VectorRecord>) {
    this.collection = rawCollection<VectorRecord>(model);
  }

  /** The cached vectors of `keys` (missing keys are absent from the map). */
  async get(keys: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    for (const chunk of chunked([...new Set(keys)], READ_CHUNK)) {
      const docs = await this.collection.find({ _id: { $in: chunk } }).toArray();
      for (const doc of docs) found.set(doc._id, fromBinary(doc.v));
    }
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
