/**
 * Query counters in one collection per UTC month (store/usage-store.ts): a read touches the
 * months it asks for, the purge drops whole months, and the collection of earlier releases
 * is read and summed until the purge has emptied it. Real FerretDB (or MongoDB).
 */
import test from 'ava';
import { createTestApp, dropTestStores, type TestApp } from '../harness';
import { queryPartition, UsageStore, type UsageIncrement } from '../../src/store/usage-store';
import { usageDailyModel, usageQueryModel } from '../../src/store/models/usage';

let app: TestApp;
test.before(async () => {
  app = await createTestApp();
});
test.after.always(async () => {
  await app?.close();
});

/** A store on a database of its own (the names of its collections are what is checked). */
function isolated(t: { teardown(fn: () => Promise<void>): void }, name: string) {
  const db = app.handles.mongo.useDb(`${app.handles.mongo.name}_${name}`);
  t.teardown(() => dropTestStores({ mongo: db }));
  return { db, store: new UsageStore(usageDailyModel(db), usageQueryModel(db)) };
}

const asked = (libraryId: string, date: string, query: string, count: number, zero = 0): UsageIncrement => ({
  _id: `${libraryId}|${date}|${query}|w1`,
  inc: { count, zero, scoreSum: 0, scored: 0 },
  setOnInsert: { libraryId, date, query, writer: 'w1' },
});

const names = async (db: ReturnType<typeof isolated>['db']) =>
  (await db.db!.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((n) => n.startsWith('usage_queries'))
    .sort();

test('query counters go to the collection of their month; a read sums the months from its first day on', async (t) => {
  const { db, store } = isolated(t, 'months');
  t.is(queryPartition('2026-11-28'), 'usage_queries_2026_11');
  await store.increment('query', [asked('/a/lib', '2026-09-30', 'old', 5), asked('/a/lib', '2026-10-02', 'q', 2), asked('/a/lib', '2026-11-03', 'q', 3, 1)]);
  t.deepEqual(await names(db), ['usage_queries_2026_09', 'usage_queries_2026_10', 'usage_queries_2026_11'], 'one bulk, three months');
  const since = (from: string) => store.queries('/a/lib', from).then((rows) => rows.map((r) => `${r.query}:${r.count}`).sort());
  t.deepEqual(await since('2026-10-01'), ['q:2', 'q:3'], 'October and November; September before the first day');
  t.deepEqual(await since('2026-10-03'), ['q:3'], 'days before the first are left out inside a month too');
  t.deepEqual(
    (await store.zeroResultQueries('2026-09-01')).map((r) => `${r.query}:${r.zero}`),
    ['q:1'],
  );
});

test('the purge drops the months before the cutoff whole and the days before it in its month', async (t) => {
  const { db, store } = isolated(t, 'purge');
  await store.increment('query', [
    asked('/a/lib', '2026-08-15', 'q', 1),
    asked('/a/lib', '2026-09-10', 'q', 1),
    asked('/a/lib', '2026-09-20', 'r', 1),
    asked('/a/lib', '2026-10-01', 'q', 1),
  ]);
  await store.purgeBefore('2026-09-15');
  t.deepEqual(await names(db), ['usage_queries_2026_09', 'usage_queries_2026_10']);
  t.deepEqual((await store.queries('/a/lib', '2000-01-01')).map((r) => r.query).sort(), ['q', 'r'], 'September 20 and October 1 stay');
  // Written again after a purge, a month's collection is made (and indexed) again.
  await store.increment('query', [asked('/a/lib', '2026-10-02', 'q', 4)]);
  t.is(
    (await store.queries('/a/lib', '2026-10-01')).reduce((n, r) => n + r.count, 0),
    5,
  );
});

test('the collection of earlier releases is moved into the months, once, and counted once while it moves', async (t) => {
  const { db, store } = isolated(t, 'legacy');
  const old = db.collection('usage_queries');
  // What an earlier release wrote: every month in one collection.
  const doc = (date: string, count: number, zero = 0) => ({ _id: `/a/lib|${date}|q|old`, libraryId: '/a/lib', date, query: 'q', count, zero, writer: 'old' });
  await old.insertMany([doc('2026-11-01', 7, 1), doc('2026-10-05', 3), doc('2025-01-01', 1)] as never[]);
  await store.increment('query', [asked('/a/lib', '2026-11-01', 'q', 2)]);
  const total = async (from = '2000-01-01') => (await store.queries('/a/lib', from)).reduce((n, r) => n + r.count, 0);
  t.is(await total('2026-11-01'), 9, 'the old writer and the new one summed');
  t.is(await total(), 13);

  // A move that stopped between its insert and its delete (a crash): counted once, and moved once.
  await db.collection('usage_queries_2026_10').insertOne({ ...doc('2026-10-05', 3), _id: '/a/lib|2026-10-05|q|old|moved' } as never);
  t.is(await total(), 13, 'in both places: counted once');
  t.is(await store.moveLegacy(1_000), 3);
  t.is(await old.countDocuments({}), 0);
  t.is(await db.collection('usage_queries_2026_10').countDocuments({}), 1, 'the interrupted move is not repeated');
  t.deepEqual(await names(db), ['usage_queries', 'usage_queries_2025_01', 'usage_queries_2026_10', 'usage_queries_2026_11']);
  t.is(await total(), 13);
  t.deepEqual(
    (await store.zeroResultQueries('2026-11-01')).map((r) => r.zero),
    [1],
  );

  // The purge drops the emptied collection, and the months before the cutoff.
  await store.purgeBefore('2026-01-01');
  t.deepEqual(await names(db), ['usage_queries_2026_10', 'usage_queries_2026_11']);
  t.is(await total(), 12);
});
