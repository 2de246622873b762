/**
 * The catalogue index follows the library records (catalog/catalog-sync.ts) on the real
 * stores: a write Elasticsearch refused (its connection cut by a TCP proxy) is written again
 * from the record once it answers, and `reconcile` repairs an index that missed writes or
 * holds documents of libraries that are gone.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startTcpProxy, type TcpProxy } from '../tcp-proxy';
import { createEsClient, HotSearch } from '../../src/search/client';
import { CatalogIndex } from '../../src/search/catalog-index';
import { CatalogSync } from '../../src/catalog/catalog-sync';
import { catalogDocument } from '../../src/search/catalog-document';
import { catalogEntryOf } from '../../src/catalog/catalog-entry';
import { seedLibrary } from '../helpers';
import { LibraryRepository } from '../../src/store/libraries';
import { CatalogGeneration } from '../../src/store/library-cache';

let app: TestApp;
let proxy: TcpProxy;

test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off' });
  const es = new URL(app.services.config.elasticsearchUrl);
  proxy = await startTcpProxy(es.hostname, Number(es.port));
});
test.after.always(async () => {
  await proxy?.close();
  await app?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function indexedTitle(key: string): Promise<string | undefined> {
  await app.services.catalogIndex.refresh();
  const hits = await app.services.catalogIndex.search<{ summary: { title: string } }>({ query: { term: { key } }, _source: ['summary'] });
  return hits[0]?._source?.summary.title;
}

async function indexed(key: string): Promise<boolean> {
  await app.services.catalogIndex.refresh();
  const hits = await app.services.catalogIndex.search({ query: { term: { key } } });
  return hits.length === 1;
}

test.serial('a write the index refused is made again from the record when Elasticsearch answers', async (t) => {
  await seedLibrary(app, '/sync/one', {
    'README.md': '# One\n\nThe first library makes small parts for web pages.\n\n## Usage\n\n```js\nimport { one } from "one";\none();\n```\n',
  });
  const url = `http://127.0.0.1:${proxy.port}`;
  const cutOff = new CatalogIndex(createEsClient(url, 2000), new HotSearch(url, 2000), app.services.config.indexPrefix);
  const sync = new CatalogSync(cutOff, app.services.log);
  // Another instance, whose Elasticsearch goes through the proxy.
  const other = new LibraryRepository(app.handles.models.Library, app.services.locks, new CatalogGeneration(app.handles.mongo), { observer: sync });
  sync.attach(other);
  await proxy.stop();
  try {
    const written = await other.modify('/sync/one', () => ({ title: 'One, renamed' }));
    t.is(written?.title, 'One, renamed', 'the record is written whatever the index says');
    t.is(sync.backlog, 1, 'its document is queued for a retry, not thrown at the writer');
  } finally {
    await proxy.start();
  }
  for (let i = 0; i < 50 && sync.backlog > 0; i++) await sleep(100);
  t.is(sync.backlog, 0);
  t.is(await indexedTitle('/sync/one'), 'One, renamed', 'written from the record once Elasticsearch answered');
  sync.stop();
});

test.serial('reconcile writes what the index missed and removes what no record holds', async (t) => {
  await seedLibrary(app, '/sync/two', {
    'README.md': '# Two\n\nThe second library makes other parts for web pages.\n\n## Usage\n\n```js\nimport { two } from "two";\ntwo();\n```\n',
  });
  await app.services.catalogIndex.remove(['/sync/two']);
  const ghost = await app.services.libraries.get('/sync/two', { fresh: true });
  if (!ghost) throw new Error('seeded library missing');
  await app.services.catalogIndex.put([
    catalogDocument({ ...catalogEntryOf(ghost), key: '/sync/gone', summary: { ...catalogEntryOf(ghost).summary, id: '/sync/gone' } }),
  ]);
  t.false(await indexed('/sync/two'));
  t.true(await indexed('/sync/gone'));
  const outcome = await app.lifecycle.catalogSync.reconcile();
  t.true(outcome.written >= 1);
  t.is(outcome.removed, 1);
  t.true(await indexed('/sync/two'));
  t.false(await indexed('/sync/gone'));
  const again = await app.lifecycle.catalogSync.reconcile();
  t.deepEqual([again.written, again.removed], [0, 0], 'a second reconcile finds nothing to do');
});

test.serial('a document of an older form (before nameLength, typo keys and form) is written again whole by reconcile', async (t) => {
  await seedLibrary(app, '/sync/three', {
    'README.md': '# Three\n\nThe third library makes more parts for web pages.\n\n## Usage\n\n```js\nimport { three } from "three";\nthree();\n```\n',
  });
  const record = await app.services.libraries.get('/sync/three', { fresh: true });
  if (!record) throw new Error('seeded library missing');
  // What an earlier version of this code wrote: the same document without the later fields.
  const { nameLength, deletes, form, ...older } = catalogDocument(catalogEntryOf(record));
  t.true(nameLength > 0 && deletes.length > 0 && form > 1);
  await app.handles.es.index({
    index: app.services.catalogIndex.alias,
    id: older.key,
    document: older,
    version: older.changedAt,
    version_type: 'external_gte',
    refresh: true,
  });
  t.false(await app.services.catalogIndex.ensureIndex(), 'the index exists; it takes the mapping again in place');
  const before = await app.services.catalogIndex.search<{ form?: number }>({ query: { term: { key: '/sync/three' } }, _source: ['form'] });
  t.is(before[0]?._source?.form, undefined);
  const outcome = await app.lifecycle.catalogSync.reconcile();
  t.true(outcome.written >= 1, 'the older document counts as stale');
  const after = await app.services.catalogIndex.search<{ form?: number; nameLength?: number; deletes?: string[] }>({
    query: { term: { key: '/sync/three' } },
    _source: ['form', 'nameLength', 'deletes'],
  });
  t.deepEqual(after[0]?._source, { form, nameLength, deletes });
  t.is((await app.lifecycle.catalogSync.reconcile()).written, 0, 'and is current afterwards');
});
