/**
 * A bounded real read of MongoDB for the store monitor: a find on a small collection over a
 * client of its own (two connections; each operation bounded by a socket timeout), so a
 * wedged server cannot hold the application's pool and a read never waits longer than asked.
 * `ping` is not a read: FerretDB answers it while every query hangs. Uses the driver alone
 * (not mongoose): it runs in the monitor's thread, which should stay small.
 *
 * A client is dropped after a failed read and the next read makes a new one: the driver
 * (7.x) closes the topology of a client whose first connection failed and keeps it, so every
 * later operation of that client fails with "Topology is closed" even once the store is back
 * (a server whose first probe met a store restarting would answer 503 for ever). A new client
 * also leaves behind the connections a wedged store holds.
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
  const drop = (failed: MongoClient) => {
    if (client !== failed) return;
    client = undefined;
    void failed.close().catch(() => undefined);
  };
  return {
    async read(timeoutMs) {
      const started = performance.now();
      const reader = clientFor(timeoutMs);
      try {
        await withTimeout(
          reader
            .db(dbName)
            .collection(collection)
            .findOne({}, { projection: { _id: 1 } }),
          timeoutMs + 250,
          `no answer in ${timeoutMs} ms`,
        );
      } catch (error) {
        drop(reader);
        throw error;
      }
      return performance.now() - started;
    },
    async close() {
      await client?.close().catch(() => undefined);
    },
  };
}
