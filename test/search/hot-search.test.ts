import test from 'ava';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { HotSearch, isEsUnavailable, type EsClient } from '../../src/search/client';
import { SnippetStore } from '../../src/search/snippet-store';
import type { SnippetDocument } from '../../src/search/types';
import { testSnippet, testSnippetStore, type TestSnippetStore } from './store-fixture';

let fixture: TestSnippetStore;
let es: EsClient;
let prefix: string;
let url: string;
let store: SnippetStore;

const doc = (i: number, text: string): SnippetDocument => testSnippet(i, { content: text, libraryId: '/hot/lib' });

test.before(async () => {
  fixture = await testSnippetStore();
  ({ es, store, prefix, url } = fixture);
  await store.write([doc(1, 'widgets render panels'), doc(2, 'gadgets render nothing')]);
});
test.after.always(async () => {
  await fixture?.close();
});

const query = (words: string) => ({
  size: 5,
  query: { bool: { filter: [{ term: { libraryId: '/hot/lib' } }], should: [{ match: { searchBody: words } }], minimum_should_match: 1 } },
});

test('returns only _id, _source and _score of each hit (and sequence numbers when asked), the same hits as the client', async (t) => {
  const hot = new HotSearch(url, 5000);
  try {
    const hits = await hot.search<SnippetDocument>(store.alias, query('widget'));
    t.is(hits.length, 1);
    t.deepEqual(Object.keys(hits[0]).sort(), ['_id', '_score', '_source']);
    const numbered = await hot.search<SnippetDocument>(store.alias, { ...query('widget'), seq_no_primary_term: true });
    t.deepEqual(Object.keys(numbered[0]).sort(), ['_id', '_primary_term', '_score', '_seq_no', '_source']);
    t.is(hits[0]._source?.id, 'id1');
    const viaClient = await es.search<SnippetDocument>({ index: store.alias, ...query('widget') });
    t.is(hits[0]._score, viaClient.hits.hits[0]._score);
    t.deepEqual(await hot.search(store.alias, query('nothingatall')), [], 'no hits: an empty list');
  } finally {
    await hot.close();
  }
});

test('an error answer (missing index) is an error naming the status, not a 503', async (t) => {
  const hot = new HotSearch(url, 5000);
  try {
    const error = await t.throwsAsync(hot.search(`${prefix}-nope`, query('x')));
    t.regex(error.message, /404/);
    t.false(isEsUnavailable(error));
  } finally {
    await hot.close();
  }
});

test('an unreachable cluster and a silent one are the client error classes a 503 is made of', async (t) => {
  const closed = await new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
  const down = new HotSearch(`http://127.0.0.1:${closed}`, 1000);
  t.true(isEsUnavailable(await t.throwsAsync(down.search('x', {}))));
  await down.close();

  const silent = http.createServer(() => undefined); // accepts, never answers
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const slow = new HotSearch(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, 300);
  const started = Date.now();
  const error = await t.throwsAsync(slow.search('x', {}));
  t.true(isEsUnavailable(error), String(error));
  t.true(Date.now() - started < 3000);
  await slow.close();
  silent.closeAllConnections();
  silent.close();
});

test('credentials and a path prefix in the URL are used', async (t) => {
  let seen: { path?: string; auth?: string } = {};
  const server = http.createServer((req, res) => {
    seen = { path: req.url, auth: req.headers.authorization };
    res.setHeader('content-type', 'application/json');
    res.end('{"hits":{"hits":[{"_score":1.5,"_source":{"id":"a"}}]}}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const hot = new HotSearch(`http://user:p%40ss@127.0.0.1:${(server.address() as AddressInfo).port}/es/`, 1000);
  try {
    t.deepEqual(await hot.search('my-index', {}), [{ _score: 1.5, _source: { id: 'a' } }]);
    t.is(
      seen.path,
      '/es/my-index/_search?filter_path=hits.hits._id,hits.hits._source,hits.hits._score,hits.hits._seq_no,hits.hits._primary_term,hits.hits.fields',
    );
    t.is(seen.auth, `Basic ${Buffer.from('user:p@ss').toString('base64')}`);
  } finally {
    await hot.close();
    server.closeAllConnections();
    server.close();
  }
});
