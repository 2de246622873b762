/**
 * A document is found by its `_id` through the store's index, not by reading the whole
 * collection. FerretDB 1.24's SQLite backend asked for `_ferretdb_sjson->'$._id'` while its
 * `_id` index is on `_ferretdb_sjson->"_id"`, so every find, update and delete by `_id` scanned
 * the collection (an upsert among 10,000 usage documents cost 80 ms of its CPU);
 * scripts/stores/services.sh builds it with the lookup written as the index is. Against
 * MongoDB the same query must not be a collection scan either.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { insertDocuments, rawCollection } from '../../src/store/bulk';

let app: TestApp;
test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off' });
});
test.after.always(async () => {
  await app?.close();
});

interface Explained {
  serverInfo?: { ferretdbVersion?: string };
  /** FerretDB: SQLite's query plan lines. */
  queryPlanner?: { Plan?: string[]; winningPlan?: unknown };
}

test('a find by _id uses the _id index (FerretDB: SQLite searches the index; MongoDB: no collection scan)', async (t) => {
  const locks = rawCollection(app.handles.models.Lock);
  await insertDocuments(
    locks,
    Array.from({ length: 50 }, (_, i) => ({ _id: `id-lookup-${i}`, holder: 'test', at: new Date() })),
  );
  const explained = (await locks.find({ _id: 'id-lookup-7' } as never).explain()) as Explained;
  if (explained.serverInfo?.ferretdbVersion) {
    const plan = (explained.queryPlanner?.Plan ?? []).join('\n');
    t.regex(plan, /SEARCH \S+ USING INDEX \S+__id_/, plan);
    t.notRegex(plan, /\bSCAN\b/, plan);
  } else {
    t.notRegex(JSON.stringify(explained.queryPlanner?.winningPlan), /COLLSCAN/);
  }
  // And the lookup finds exactly that document.
  t.deepEqual(
    (await locks.find({ _id: 'id-lookup-7' } as never).toArray()).map((d) => d._id),
    ['id-lookup-7'],
  );
});
