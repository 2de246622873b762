/**
 * Context candidates read as ids and sequence numbers, their snippets from the process's
 * cache or one ids search (src/search/candidate-cache.ts), on the real Elasticsearch.
 */
import test from 'ava';
import { HotSearch, type EsClient } from '../../src/search/client';
import { SnippetStore } from '../../src/search/snippet-store';
import { SnippetLru, searchCandidates } from '../../src/search/candidate-cache';
import { analyzeText } from '../../src/search/analysis';
import { CONTEXT_SOURCE_FIELDS, EVIDENCE_FIELDS, type SnippetDocument } from '../../src/search/types';
import { contextSnippet } from '../../src/search/test-fixtures';
import { testSnippet, testSnippetStore, type TestSnippetStore } from './store-fixture';

let fixture: TestSnippetStore;
let es: EsClient;
let hot: HotSearch;
let store: SnippetStore;

const doc = (i: number, text: string): SnippetDocument => testSnippet(i, { content: text, path: `docs/${i}.md`, libraryId: '/cache/lib' });

test.before(async () => {
  fixture = await testSnippetStore();
  ({ es, hot, store } = fixture);
  await store.write([doc(1, 'widgets render panels'), doc(2, 'widgets render nothing at all'), doc(3, 'gadgets only')]);
});
test.after.always(async () => {
  await fixture?.close();
});

const body = (words: string) => ({
  size: 10,
  _source: [...CONTEXT_SOURCE_FIELDS],
  query: {
    bool: { filter: [{ term: { libraryId: '/cache/lib' } }], should: [{ match: { searchBody: analyzeText(words).join(' ') } }], minimum_should_match: 1 },
  },
});

/** The hot search, recording each request body. */
function recording(): { hot: Pick<HotSearch, 'search'>; bodies: Array<Record<string, unknown>> } {
  const bodies: Array<Record<string, unknown>> = [];
  return { bodies, hot: { search: (index, b) => (bodies.push(b as Record<string, unknown>), hot.search(index, b)) } };
}

test.serial('the same candidates, scores and order as a search with sources; a second search reads no sources', async (t) => {
  const plain = await hot.search<SnippetDocument>(store.alias, body('widgets render'));
  const cache = new SnippetLru();
  const { hot: counted, bodies } = recording();
  const first = await searchCandidates(counted, store.alias, body('widgets render'), cache);
  t.deepEqual(
    first.map((c) => [c.doc.id, c.score]),
    plain.map((h) => [h._source?.id, h._score]),
  );
  t.deepEqual(
    first[0]!.doc,
    Object.fromEntries(
      CONTEXT_SOURCE_FIELDS.flatMap((f) => (plain[0]!._source![f] === undefined ? [] : [[f, plain[0]!._source![f]]])),
    ) as (typeof first)[0]['doc'],
  );
  const written = [doc(1, 'widgets render panels'), doc(2, 'widgets render nothing at all')].find((d) => d.id === first[0]!.doc.id)!;
  t.deepEqual(
    first[0]!.evidence?.text,
    Object.fromEntries(EVIDENCE_FIELDS.map((f) => [f, written[f]])) as NonNullable<(typeof first)[0]['evidence']>['text'],
    'the analysed fields come with it, for re-scoring',
  );
  t.is(first[0]!.evidence?.vector, undefined, 'no vector unless asked');
  t.is(bodies.length, 2, 'ids and scores, then the unseen snippets by id');
  t.is(bodies[0]!._source, false);
  t.is(bodies[0]!.stored_fields, '_none_', 'nor any stored field: each hit is known by its doc values (its _id made again from them)');
  const second = await searchCandidates(counted, store.alias, body('widgets render'), cache);
  t.deepEqual(second, first);
  t.is(bodies.length, 3, 'the second search took every snippet from the cache');
});

test.serial('a document written again (a new sequence number) is read again, not taken from the cache', async (t) => {
  const cache = new SnippetLru();
  await searchCandidates(hot, store.alias, body('gadgets'), cache);
  const hit = (await hot.search<SnippetDocument>(store.alias, body('gadgets')))[0]!;
  await es.update({ index: store.alias, id: hit._id!, doc: { title: 'Gadgets, retitled' }, refresh: true });
  const [again] = await searchCandidates(hot, store.alias, body('gadgets'), cache);
  t.is(again!.doc.title, 'Gadgets, retitled');
});

test.serial('asked for vectors, each candidate comes with the vector it was indexed with (from _source on 8.x, rebuilt on request on 9.x)', async (t) => {
  const vector = Array.from({ length: 384 }, (_, i) => (i < 4 ? 0.5 : 0));
  await store.write([testSnippet(4, { content: 'vectors travel with candidates', path: 'docs/4.md', libraryId: '/cache/lib', embedding: vector })]);
  await es.indices.refresh({ index: store.alias });
  const [candidate] = await searchCandidates(hot, store.alias, body('vectors travel'), new SnippetLru(), fixture.esMajor >= 9 ? 'rebuild' : 'source');
  t.is(candidate?.doc.id, 'id4');
  t.deepEqual(Array.from(candidate?.evidence?.vector ?? []), vector);
  t.false('embedding' in (candidate?.doc ?? {}), 'the vector is evidence, never part of the snippet served');
});

test.serial('a snippet cached from a read without vectors (earlier parts of a section) is read again when vectors are asked for', async (t) => {
  const vector = Array.from({ length: 384 }, (_, i) => (i >= 4 && i < 8 ? 0.5 : 0));
  await store.write([testSnippet(5, { content: 'sprockets turn slowly', path: 'docs/5.md', libraryId: '/cache/lib', embedding: vector })]);
  await es.indices.refresh({ index: store.alias });
  const cache = new SnippetLru();
  const [plain] = await searchCandidates(hot, store.alias, body('sprockets'), cache, 'none');
  t.is(plain?.evidence?.vector, undefined);
  const mode = fixture.esMajor >= 9 ? 'rebuild' : 'source';
  const [withVector] = await searchCandidates(hot, store.alias, body('sprockets'), cache, mode);
  t.deepEqual(Array.from(withVector?.evidence?.vector ?? []), vector, 'the cached entry without its vector was not used');
  const { hot: counted, bodies } = recording();
  const [again] = await searchCandidates(counted, store.alias, body('sprockets'), cache, 'none');
  t.deepEqual(Array.from(again?.evidence?.vector ?? []), vector, 'an entry with its vector serves a search without');
  t.is(bodies.length, 1, 'from the cache');
});

test('the cache keeps at most its capacity, dropping the least recently used', (t) => {
  const lru = new SnippetLru(2);
  const [a, b, c] = ['a', 'b', 'c'].map((id) => ({
    doc: contextSnippet({ id }),
    evidence: { text: { searchTitle: '', searchBreadcrumb: '', searchBody: id, searchCode: '', searchPath: '', searchIdentifiers: '' } },
  }));
  lru.set('a', a!);
  lru.set('b', b!);
  t.is(lru.get('a'), a, 'a is now the most recently used');
  lru.set('c', c!);
  t.is(lru.size, 2);
  t.is(lru.get('b'), undefined, 'b was the least recently used');
  t.is(lru.get('a'), a);
  t.is(lru.get('c'), c);
});
