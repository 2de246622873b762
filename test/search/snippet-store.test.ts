import test from 'ava';
import { HotSearch, type EsClient } from '../../src/search/client';
import { SnippetStore } from '../../src/search/snippet-store';
import type { SnippetDocument } from '../../src/search/types';
import { testSnippet, testSnippetStore, type TestSnippetStore } from './store-fixture';
import { deleteIndices } from '../harness';

let fixture: TestSnippetStore;
let es: EsClient;
let hot: HotSearch;
let store: SnippetStore;
let prefix: string;
/** The index definition for the cluster the tests run on (vectors out of _source on 9.x). */
let definition: TestSnippetStore['definition'];
let esMajor: number;

const doc = (i: number, generation: number, path = 'docs/a.md'): SnippetDocument =>
  testSnippet(i, { content: `content number ${i} about widgets`, path, generation });

test.before(async () => {
  fixture = await testSnippetStore();
  ({ es, hot, store, prefix, definition, esMajor } = fixture);
});
test.after.always(async () => {
  await fixture?.close();
});

test.serial('the index sits behind its alias and ensureIndex is idempotent', async (t) => {
  await store.ensureIndex();
  const alias = await es.indices.getAlias({ name: store.alias });
  t.deepEqual(Object.keys(alias), [store.physical]);
});

test.serial('generations coexist until the old one is deleted', async (t) => {
  await store.write([doc(1, 100), doc(2, 100), doc(3, 100, 'docs/b.md')]);
  await store.write([doc(1, 200), doc(2, 200)]);
  t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 100, baseGeneration: undefined })).length, 3);
  t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 100, baseGeneration: undefined, paths: ['docs/b.md'] })).length, 1);
  const deleted = await store.deleteGenerations({ libraryId: '/a/b', version: 'latest', keep: 200 });
  t.is(deleted, 3);
  t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 100, baseGeneration: undefined })).length, 0);
  t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 200, baseGeneration: undefined })).length, 2);
});

test.serial('the strict mapping refuses unknown fields', async (t) => {
  const bad = { ...doc(9, 300), surprise: 1 } as unknown as SnippetDocument;
  await t.throwsAsync(store.write([bad]), { message: /rejected/ });
});

test.serial(
  'a write of several bulk requests in flight: every document lands, and a refused one fails the write with what the others wrote visible',
  async (t) => {
    const many = Array.from({ length: 2500 }, (_, i) => doc(10_000 + i, 310, `docs/many-${i % 7}.md`));
    const seen: number[] = [];
    await store.write(many, (n) => seen.push(n));
    t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 310, baseGeneration: undefined })).length, 2500);
    t.is(seen.at(-1), 2500, 'progress ends at the number written');
    // One refused document in the middle of three requests: the write fails naming why, and the
    // documents the cluster took are searchable (the clean-up that follows finds them by search).
    const mixed = Array.from({ length: 2500 }, (_, i) =>
      i === 1200 ? ({ ...doc(20_000 + i, 320), surprise: 1 } as unknown as SnippetDocument) : doc(20_000 + i, 320),
    );
    await t.throwsAsync(store.write(mixed), { message: /rejected snippets: strict_dynamic_mapping_exception/ });
    const visible = (await store.read({ libraryId: '/a/b', version: 'latest', generation: 320, baseGeneration: undefined })).length;
    t.true(visible >= 999 && visible < 2500, `${visible} visible after the failed write`);
    await store.deleteGenerations({ libraryId: '/a/b', version: 'latest', keep: 200 });
  },
);

test.serial('the index is sorted by library, version and generation', async (t) => {
  const settings = await es.indices.getSettings({ index: store.physical });
  const sort = settings[store.physical].settings?.index?.sort as { field?: string[] } | undefined;
  t.deepEqual(sort?.field, ['libraryId', 'version', 'generation']);
});

test.serial('compaction merges the segments of several builds into one, and only when needed', async (t) => {
  for (let g = 400; g < 404; g++) await store.write([doc(g, g, `docs/${g}.md`)]);
  const segments = async () =>
    (await es.indices.stats({ index: store.physical, metric: ['segments'] })).indices?.[store.physical]?.primaries?.segments?.count ?? 0;
  t.true((await segments()) > 1, 'each write refreshes into a new segment');
  const first = await store.compact();
  t.true(first.merged);
  t.is(await segments(), 1);
  t.deepEqual(await store.compact(), { segmentsBefore: 1, merged: false });
  t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 402, baseGeneration: undefined })).length, 1, 'nothing lost');
});

test.serial('deleting generations schedules a compaction in the background', async (t) => {
  const quick = new SnippetStore(es, prefix, definition, { hot, compactDelayMs: 50 });
  await quick.write([doc(500, 500, 'docs/x.md')]);
  await quick.write([doc(501, 501, 'docs/y.md')]);
  await quick.deleteGenerations({ libraryId: '/a/b', version: 'latest', keep: 501 });
  const segments = async () =>
    (await es.indices.stats({ index: store.physical, metric: ['segments'] })).indices?.[store.physical]?.primaries?.segments?.count ?? 0;
  for (let i = 0; i < 100 && (await segments()) > 1; i++) await new Promise((r) => setTimeout(r, 100));
  t.is(await segments(), 1);
  await quick.close();
});

test.serial('an index of an older mapping version is copied into the current one and the alias moved', async (t) => {
  const oldPrefix = `${prefix}-mig`;
  const oldIndex = `${oldPrefix}-snippets-v1`;
  const { settings, mappings } = definition;
  const { sort: _sort, ...unsorted } = settings;
  await es.indices.create({ index: oldIndex, settings: unsorted, mappings, aliases: { [`${oldPrefix}-snippets`]: { is_write_index: true } } });
  const docs = Array.from({ length: 2500 }, (_, i) => ({ ...doc(i, 700), libraryId: '/old/lib' }));
  await es.bulk({ operations: docs.flatMap((d) => [{ index: { _index: oldIndex, _id: `${d.id}:${d.generation}` } }, d]), refresh: true });
  const migrating = new SnippetStore(es, oldPrefix, definition, { hot });
  try {
    const result = await migrating.ensureIndex();
    t.deepEqual(result.migrated, { from: oldIndex, snippets: 2500 });
    t.false(await es.indices.exists({ index: oldIndex }), 'the old index is deleted');
    t.deepEqual(Object.keys(await es.indices.getAlias({ name: migrating.alias })), [migrating.physical]);
    t.is((await migrating.read({ libraryId: '/old/lib', version: 'latest', generation: 700, baseGeneration: undefined })).length, 2500);
    t.deepEqual(await migrating.ensureIndex(), {}, 'a second start has nothing to move');
    await migrating.write([{ ...doc(9999, 800), libraryId: '/old/lib' }]);
    t.is(
      (await migrating.read({ libraryId: '/old/lib', version: 'latest', generation: 800, baseGeneration: undefined })).length,
      1,
      'writes go to the new index',
    );
  } finally {
    await migrating.close();
    await deleteIndices(es, oldPrefix);
  }
});

test.serial('a migration copies the vectors an older _source holds and restores the ones it lacks', async (t) => {
  const oldPrefix = `${prefix}-vec`;
  const oldIndex = `${oldPrefix}-snippets-v3`;
  const { settings, mappings } = definition;
  const { sort: _sort, ...unsorted } = settings;
  // Version 3 kept vectors in _source (on 9.x by turning exclude_source_vectors off).
  const { mapping: _v4, ...v3Settings } = unsorted as typeof unsorted & { mapping?: unknown };
  await es.indices.create({
    index: oldIndex,
    settings: esMajor >= 9 ? { ...v3Settings, mapping: { exclude_source_vectors: false } as never } : v3Settings,
    mappings,
    aliases: { [`${oldPrefix}-snippets`]: { is_write_index: true } },
  });
  const unit = (k: number) => Array.from({ length: 384 }, (_, j) => (j === k ? 1 : 0));
  const docs = Array.from({ length: 6 }, (_, i) => ({ ...doc(i, 900), libraryId: '/vec/lib', ...(i < 3 ? { embedding: unit(1) } : {}) }));
  await es.bulk({ operations: docs.flatMap((d) => [{ index: { _index: oldIndex, _id: `${d.id}:${d.generation}` } }, d]), refresh: true });
  const asked: string[] = [];
  const migrating = new SnippetStore(es, oldPrefix, definition, { hot });
  try {
    const result = await migrating.ensureIndex({
      restoreVectors: async (lacking) => {
        asked.push(...lacking.map((d) => d.id));
        return lacking.map((d) => ({ ...d, embedding: unit(2) }));
      },
    });
    t.is(result.migrated?.snippets, 6);
    t.deepEqual(asked.sort(), ['id3', 'id4', 'id5'], 'only documents whose _source lacks a vector are restored');
    const read = await migrating.read({ libraryId: '/vec/lib', version: 'latest', generation: 900, baseGeneration: undefined });
    if (esMajor >= 9)
      t.false(
        read.some((d) => 'embedding' in d),
        'the new index keeps vectors out of _source',
      );
    // The kNN leg finds each document by the vector it was copied or restored with.
    const nearest = async (k: number) =>
      (await es.search<SnippetDocument>({ index: migrating.alias, knn: { field: 'embedding', query_vector: unit(k), k: 3, num_candidates: 10 } })).hits.hits
        .map((h) => h._source?.id)
        .sort();
    t.deepEqual(await nearest(1), ['id0', 'id1', 'id2']);
    t.deepEqual(await nearest(2), ['id3', 'id4', 'id5']);
  } finally {
    await migrating.close();
    await deleteIndices(es, oldPrefix);
  }
});
