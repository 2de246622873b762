/**
 * A bounded real read of MongoDB for the store monitor: a find on a small collection over a
 * client of its own (two connections; each operation bounded by a socket timeout), so a
 * wedged server cannot hold the application's pool and a read never waits longer than asked.
 * `ping` is not a read: FerretDB answers it while every query hangs. Uses the driver alone
 * (not mongoose): it runs in the monitor's thread, which should stay small.
 */
import { MongoClient } from 'mongodb';
import { withTimeout } from '../util/timeout';

export interface ReadProbe {
  /** Reads once; resolves with the time the read took (ms), rejects when it failed. */
  read(timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

export function mongoReadProbe(uri: string, dbName: string, collection = 'settings'): ReadProbe {
  let client: MongoClient | undefined;
  let clientTimeout = 0;
  const clientFor = (timeoutMs: number) => {
    if (!client || clientTimeout !== timeoutMs) {
      void client?.close().catch(() => undefined);
      clientTimeout = timeoutMs;
      client = new MongoClient(uri, {
        maxPoolSize: 2,
        serverSelectionTimeoutMS: timeoutMs,
        connectTimeoutMS: timeoutMs,
        socketTimeoutMS: timeoutMs,
        heartbeatFrequencyMS: 5000,
      });
    }
    return client;
  };
  return {
    async read(timeoutMs) {
      const started = performance.now();
      await withTimeout(
        clientFor(timeoutMs)
          .db(dbName)
          .collection(collection)
          .findOne({}, { projection: { _id: 1 } }),
        timeoutMs + 250,
        `no answer in ${timeoutMs} ms`,
      );
      return performance.now() - started;
    },
    async close() {
      await client?.close().catch(() => undefined);
    },
  };
}
