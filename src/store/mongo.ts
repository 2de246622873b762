/**
 * The one MongoDB connection (mongoose). Commands are not buffered while disconnected and
 * server selection is bounded, so a request fails fast with 503 when the store is down;
 * the driver reconnects by itself when it returns.
 */
import mongoose, { type Connection, type Schema } from 'mongoose';
import { boundedWritesPlugin } from './bulk';
import type { Logger } from '../logger';
import { StoreUnavailableError } from '../errors';

export interface MongoOptions {
  uri: string;
  dbName: string;
  timeoutMs: number;
  /** Attempts before giving up at start-up (with exponential backoff). */
  attempts?: number;
  /** Whether the store is known to be down (the store monitor's gate): operations then fail at once. */
  isDown?: () => boolean;
}

export async function connectMongo(options: MongoOptions, log: Logger): Promise<Connection> {
  const attempts = options.attempts ?? 8;
  let delay = 250;
  for (let attempt = 1; ; attempt++) {
    const conn = mongoose.createConnection(options.uri, {
      dbName: options.dbName,
      serverSelectionTimeoutMS: options.timeoutMs,
      connectTimeoutMS: options.timeoutMs,
      socketTimeoutMS: Math.max(options.timeoutMs * 6, 30_000),
      heartbeatFrequencyMS: 2000,
      bufferCommands: false,
      autoIndex: false,
      autoCreate: false,
      maxPoolSize: 20,
    });
    // Before any model is compiled on this connection: refuses unbounded bulks (store/bulk.ts).
    conn.plugin(boundedWritesPlugin);
    if (options.isDown) conn.plugin(storeGatePlugin(options.isDown));
    try {
      await conn.asPromise();
      return conn;
    } catch (error) {
      await conn.close().catch(() => undefined);
      if (attempt >= attempts) throw new StoreUnavailableError('mongodb', error);
      log.warn({ attempt, err: (error as Error).message }, 'MongoDB not reachable yet; retrying');
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
}

/**
 * Makes every model operation fail at once with 503 while MongoDB is known to be down
 * (health/monitor.ts), instead of each waiting out server selection.
 */
export function storeGatePlugin(isDown: () => boolean): (schema: Schema) => void {
  const refuse = () => {
    if (isDown()) throw new StoreUnavailableError('mongodb');
  };
  return (schema) => {
    schema.pre(QUERY_OPS, refuse);
    schema.pre('save', refuse);
    schema.pre('insertMany', refuse);
    schema.pre('bulkWrite', refuse);
    schema.pre('aggregate', refuse);
  };
}

const QUERY_OPS: mongoose.MongooseQueryMiddleware[] = [
  'countDocuments',
  'deleteMany',
  'deleteOne',
  'distinct',
  'estimatedDocumentCount',
  'find',
  'findOne',
  'findOneAndDelete',
  'findOneAndReplace',
  'findOneAndUpdate',
  'replaceOne',
  'updateMany',
  'updateOne',
];

export { withTimeout } from '../util/timeout';

/** True when an error means MongoDB is unreachable (as opposed to a bad query). */
export function isMongoUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const name = error.name;
  return (
    name === 'MongoServerSelectionError' ||
    name === 'MongoNetworkError' ||
    name === 'MongoNetworkTimeoutError' ||
    name === 'MongoNotConnectedError' ||
    name === 'MongoTopologyClosedError' ||
    /Client must be connected|connection .* closed|ECONNREFUSED|buffering timed out/i.test(error.message)
  );
}

export { isDuplicate } from './bulk';
