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
