/**
 * A snippet store on a private index prefix of the real Elasticsearch, and small snippet
 * documents, shared by the search-side test files (not a test file itself).
 */
import { checkElasticsearch, createEsClient, HotSearch, type EsClient } from '../../src/search/client';
import { SnippetStore } from '../../src/search/snippet-store';
import { snippetIndexDefinition, toIndexedSnippet } from '../../src/search/mappings';
import { UNANALYSED, type SnippetDocument } from '../../src/search/types';
import { deleteIndices, testConfig } from '../harness';

export interface TestSnippetStore {
  es: EsClient;
  hot: HotSearch;
  store: SnippetStore;
  prefix: string;
  url: string;
  esMajor: number;
  /** The index definition for the cluster the tests run on (vectors out of _source on 9.x). */
  definition: ReturnType<typeof snippetIndexDefinition>;
  /** Deletes the prefix's indices and closes the clients. */
  close(): Promise<void>;
}

/** A store with its index created (behind its alias) on a prefix of its own. */
export async function testSnippetStore(): Promise<TestSnippetStore> {
  const config = testConfig();
  const prefix = config.indexPrefix;
  const url = config.elasticsearchUrl;
  const es = createEsClient(url, 10_000);
  const hot = new HotSearch(url, 10_000);
  const esMajor = (await checkElasticsearch(es)).major;
  const definition = snippetIndexDefinition({ esMajor });
  const store = new SnippetStore(es, prefix, definition, { hot });
  await store.ensureIndex();
  return {
    es,
    hot,
    store,
    prefix,
    url,
    esMajor,
    definition,
    async close() {
      await deleteIndices(es, prefix);
      await es.close();
      await hot.close();
    },
  };
}

/** An info snippet numbered `i` (id `id<i>`, title `T<i>`, line i, one generation), with overrides. */
export function testSnippet(i: number, overrides: Partial<SnippetDocument> = {}): SnippetDocument {
  return toIndexedSnippet({
    kind: 'info',
    title: `T${i}`,
    breadcrumb: ['A'],
    pageTitle: 'A',
    description: '',
    content: '',
    language: '',
    code: '',
    path: 'docs/a.md',
    startLine: i,
    id: `id${i}`,
    libraryId: '/a/b',
    version: 'latest',
    generation: 1,
    url: `u${i}`,
    tokens: 10,
    fileHash: 'h',
    ...UNANALYSED,
    ...overrides,
  });
}
