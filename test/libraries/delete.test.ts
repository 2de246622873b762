/**
 * One deletion of a library (catalog/delete.ts), on the real stores: the record, its snippets,
 * manifests and catalogue entry go, a library whose id merely starts the same way stays, and
 * every MongoDB operation it makes names one document by `_id` (the only reads FerretDB answers
 * without reading the whole collection), so its cost does not grow with the catalogue.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, seedLibrary, testLibrary } from '../helpers';
import { deleteLibrary, deletePortsOf } from '../../src/catalog/delete';

let app: TestApp;
let key: string;

const PAGES = { 'docs/guide.md': '# Guide\n\nInstall the widget with npm.\n\n```sh\nnpm install widget\n```\n' };

test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off' });
  key = await adminKey(app);
});
test.after.always(async () => {
  await app?.close();
});

async function snippetCount(libraryId: string): Promise<number> {
  await app.handles.es.indices.refresh({ index: app.services.snippets.alias });
  return (await app.handles.es.count({ index: app.services.snippets.alias, query: { term: { libraryId } } })).count;
}

test.serial('DELETE /v2/libraries/... removes the record, snippets, manifests and catalogue entry, and nothing of a neighbour', async (t) => {
  await seedLibrary(app, '/del/a.b', PAGES);
  await seedLibrary(app, '/del/a.bc', PAGES);
  t.true((await snippetCount('/del/a.b')) > 0);
  t.truthy(await app.services.manifests.get('/del/a.b', 'latest'));
  const found = await app.request.get('/v2/libs/search').query({ libraryName: '/del/a.b' });
  t.is(found.body.results?.[0]?.id, '/del/a.b');

  const res = await app.request.delete('/v2/libraries/del/a.b').set('authorization', `Bearer ${key}`);
  t.is(res.status, 200);
  t.is(await app.services.libraries.get('/del/a.b', { fresh: true }), null);
  t.is(await snippetCount('/del/a.b'), 0);
  t.is(await app.services.manifests.get('/del/a.b', 'latest'), null);
  t.is(await app.services.catalogIndex.count(), 1);
  const gone = await app.request.get('/v2/libs/search').query({ libraryName: '/del/a.b' });
  t.not(gone.body.results?.[0]?.id, '/del/a.b');
  t.is((await app.request.get('/v2/context').query({ libraryId: '/del/a.b', query: 'install' })).status, 404);

  t.truthy(await app.services.libraries.get('/del/a.bc', { fresh: true }));
  t.true((await snippetCount('/del/a.bc')) > 0);
  t.truthy(await app.services.manifests.get('/del/a.bc', 'latest'));
  t.is((await app.request.get('/v2/context').query({ libraryId: '/del/a.bc', query: 'install' })).status, 200);
});

test.serial('every MongoDB operation of a deletion names one document by _id', async (t) => {
  await seedLibrary(app, '/del/counted', PAGES);
  const operations: Array<{ collection: string; method: string; filter: unknown }> = [];
  app.handles.mongo.set('debug', (collection: string, method: string, filter: unknown) => {
    // Usage counters are flushed in the background by earlier requests: not the deletion's.
    if (!collection.startsWith('usage')) operations.push({ collection, method, filter });
  });
  try {
    const outcome = await deleteLibrary(deletePortsOf(app.services), '/del/counted');
    t.true(outcome.deleted);
    t.true(outcome.snippets > 0);
  } finally {
    app.handles.mongo.set('debug', false);
  }
  t.true(operations.length > 0, 'the operations were seen');
  const unbounded = operations.filter((o) => {
    const filter = o.filter as Record<string, unknown> | undefined;
    return !(filter && Object.keys(filter).length === 1 && typeof filter._id === 'string');
  });
  t.deepEqual(unbounded, [], 'no operation reads or deletes by anything but one _id');
});

test.serial('a never-built library is deleted only while it is still never built', async (t) => {
  await app.services.libraries.ensure(testLibrary('/del/queued', { title: 'queued', branch: '', trustScore: 5 }));
  t.true((await deleteLibrary(deletePortsOf(app.services), '/del/queued', { onlyIfNeverBuilt: true })).deleted);
  await seedLibrary(app, '/del/built', PAGES);
  t.false((await deleteLibrary(deletePortsOf(app.services), '/del/built', { onlyIfNeverBuilt: true })).deleted);
  t.truthy(await app.services.libraries.get('/del/built', { fresh: true }));
});
