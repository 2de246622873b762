import test from 'ava';
import { createEsClient, type EsClient } from '../../src/search/client';
import { SnippetStore } from '../../src/search/snippet-store';
import { snippetIndexDefinition, toIndexedSnippet } from '../../src/search/mappings';
import type { SnippetDocument } from '../../src/indexing/types';
import { deleteIndices, testConfig } from '../harness';

let es: EsClient;
let store: SnippetStore;
let prefix: string;

const doc = (i: number, generation: number, path = 'docs/a.md'): SnippetDocument =>
  toIndexedSnippet({
    kind: 'info', title: `T${i}`, breadcrumb: ['A'], pageTitle: 'A', description: '', content: `content number ${i} about widgets`, language: '', code: '',
    path, startLine: i, id: `id${i}`, libraryId: '/a/b', version: 'latest', generation, url: `u${i}`, tokens: 10, fileHash: 'h',
    searchTitle: '', searchBreadcrumb: '', searchBody: '', searchCode: '', searchPath: '', searchIdentifiers: '',
  });

test.before(async () => {
  const config = testConfig();
  prefix = config.indexPrefix;
  es = createEsClient(config.elasticsearchUrl, 10_000);
  store = new SnippetStore(es, prefix, snippetIndexDefinition());
  await store.ensureIndex();
});
test.after.always(async () => {
  if (es) await deleteIndices(es, prefix);
  await es?.close();
});

test.serial('the index sits behind its alias and ensureIndex is idempotent', async (t) => {
  await store.ensureIndex();
  const alias = await es.indices.getAlias({ name: store.alias });
  t.deepEqual(Object.keys(alias), [store.physical]);
});

test.serial('generations coexist until the old one is deleted', async (t) => {
  await store.write([doc(1, 100), doc(2, 100), doc(3, 100, 'docs/b.md')]);
  await store.write([doc(1, 200), doc(2, 200)]);
  t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 100 })).length, 3);
  t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 100, paths: ['docs/b.md'] })).length, 1);
  const deleted = await store.deleteGenerations({ libraryId: '/a/b', version: 'latest', keep: 200 });
  t.is(deleted, 3);
  t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 100 })).length, 0);
  t.is((await store.read({ libraryId: '/a/b', version: 'latest', generation: 200 })).length, 2);
});

test.serial('the strict mapping refuses unknown fields', async (t) => {
  const bad = { ...doc(9, 300), surprise: 1 } as unknown as SnippetDocument;
  await t.throwsAsync(store.write([bad]), { message: /rejected/ });
});
