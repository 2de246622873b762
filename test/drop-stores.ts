/**
 * The one way tests (and the scripts that make stores of their own: fuzz, soak, fidelity,
 * refresh cost, scale bench) remove what they made: the indices under their prefix and their
 * database. Leftovers add up: the supervisor reads every database.
 */
import mongoose from 'mongoose';
import { createEsClient, type EsClient } from '../src/search/client';

/** Deletes the indices under `prefix` by name (Elasticsearch 9 refuses wildcard deletes). */
export async function deleteIndices(es: EsClient, prefix: string): Promise<void> {
  const found = await es.indices.get({ index: `${prefix}-*`, allow_no_indices: true, ignore_unavailable: true }).catch(() => ({}));
  const names = Object.keys(found);
  if (names.length > 0) await es.indices.delete({ index: names }).catch(() => undefined);
}

/** Drops a test's stores: its indices (with `es` and `prefix`) and its database (a mongoose connection or a driver Db). */
export async function dropTestStores(stores: { es?: EsClient; prefix?: string; mongo?: { dropDatabase(): Promise<unknown> } | null }): Promise<void> {
  if (stores.es && stores.prefix) await deleteIndices(stores.es, stores.prefix);
  await stores.mongo?.dropDatabase().catch(() => undefined);
}

/** The same, for a caller holding no connection (other processes made the stores): opens, drops, closes. */
export async function dropStoresNamed(where: { elasticsearchUrl: string; mongodbUri: string }, name: string): Promise<void> {
  const es = createEsClient(where.elasticsearchUrl, 10_000);
  const mongo = await mongoose.createConnection(where.mongodbUri, { dbName: name }).asPromise();
  try {
    await dropTestStores({ es, prefix: name, mongo });
  } finally {
    await Promise.allSettled([es.close(), mongo.close()]);
  }
}
