/**
 * The eval's dataset reader, context client and aggregation. The client is exercised
 * against a small local HTTP server that answers like /v2/context does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { DatasetError, libraryIdOf, parseDataset } from '../../scripts/eval/dataset';
import { contextUrl, fetchContext, readContextBody } from '../../scripts/eval/client';
import { aggregate, selectWorst, type EntryResult } from '../../scripts/eval/aggregate';
import { missScores, scoreRanking } from '../../scripts/eval/metrics';

test('parseDataset reads entries and keeps an optional version as text', (t) => {
  const entries = parseDataset({
    entries: [
      { library: '/koajs/koa', query: ' q1 ', intent: 'api-lookup', qrels: [{ path: 'docs/a.md', grade: 3 }] },
      { library: '/koajs/koa', version: 2.0, query: 'q2', intent: 'conceptual', qrels: [{ path: 'docs/b.md', grade: 1 }] },
    ],
  });
  t.is(entries.length, 2);
  t.is(entries[0].query, 'q1');
  t.is(entries[0].version, undefined);
  t.is(entries[1].version, '2');
  t.is(libraryIdOf(entries[0]), '/koajs/koa');
  t.is(libraryIdOf({ library: '/koajs/koa', version: '3.2.0' }), '/koajs/koa/3.2.0');
});

test('parseDataset names the bad entry', (t) => {
  t.throws(() => parseDataset({}), { instanceOf: DatasetError, message: /entries/ });
  t.throws(() => parseDataset({ entries: [{ library: 'koa', query: 'q', intent: 'x', qrels: [{ path: 'a', grade: 1 }] }] }), {
    message: /entry 1: library koa/,
  });
  t.throws(() => parseDataset({ entries: [{ library: '/a/b', query: 'q', intent: 'x', qrels: [] }] }), { message: /entry 1: `qrels`/ });
  t.throws(() => parseDataset({ entries: [{ library: '/a/b', query: 'q', intent: 'x', qrels: [{ path: 'a', grade: 1.5 }] }] }), { message: /grade/ });
  t.throws(() => parseDataset({ entries: [{ library: '/a/b', intent: 'x', qrels: [{ path: 'a', grade: 1 }] }] }), { message: /`query`/ });
});

test('contextUrl asks for JSON with the default budget', (t) => {
  const url = new URL(contextUrl('http://127.0.0.1:3000', '/koajs/koa/3.2.0', 'ctx.body & 404?'));
  t.is(url.pathname, '/v2/context');
  t.deepEqual(Object.fromEntries(url.searchParams), { libraryId: '/koajs/koa/3.2.0', query: 'ctx.body & 404?', type: 'json' });
});

test('readContextBody keeps snippet order and repeats', (t) => {
  const body = {
    snippets: [
      { tokens: 10, title: 'A', breadcrumb: ['Page', 'A'], kind: 'code', part: 1, source: { path: 'a.md', startLine: 3 } },
      { tokens: 5, source: { path: 'b.md' } },
      { tokens: 1, source: { path: 'a.md' } },
    ],
  };
  const read = readContextBody(body);
  t.deepEqual({ paths: read.paths, tokens: read.tokens }, { paths: ['a.md', 'b.md', 'a.md'], tokens: 16 });
  // What snippet-level scoring and the answer-shape counts read of each snippet.
  t.deepEqual(read.snippets[0], { path: 'a.md', title: 'A', breadcrumb: ['Page', 'A'], tokens: 10, kind: 'code', startLine: 3, part: 1 });
  t.deepEqual(read.snippets[1], { path: 'b.md', title: '', breadcrumb: [], tokens: 5 });
  t.throws(() => readContextBody({ codeSnippets: [] }), { message: /snippets/ });
});

async function withServer(handler: http.RequestListener, run: (url: string) => Promise<void>): Promise<void> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('fetchContext waits out a 429 and scores the answer', async (t) => {
  let calls = 0;
  let waited = 0;
  await withServer(
    (req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":"rate_limit_exceeded","message":"slow down"}');
        return;
      }
      t.is(new URL(req.url ?? '', 'http://x').searchParams.get('type'), 'json');
      t.is(req.headers.authorization, 'Bearer smk_test');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ snippets: [{ tokens: 7, source: { path: 'docs/a.md' } }] }));
    },
    async (url) => {
      const call = await fetchContext({ baseUrl: url, apiKey: 'smk_test', maxRetryWaitMs: 20, onRateLimited: (ms) => (waited = ms) }, '/a/b', 'q');
      t.is(call.status, 200);
      t.deepEqual(call.paths, ['docs/a.md']);
      t.is(call.tokens, 7);
      t.is(call.rateLimited, 1);
      t.is(waited, 20);
      t.is(call.error, undefined);
    },
  );
});

test('fetchContext reports a non-200 answer with its error code', async (t) => {
  await withServer(
    (_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"library_not_found","message":"No library /a/b."}'),
    async (url) => {
      const call = await fetchContext({ baseUrl: url }, '/a/b', 'q');
      t.is(call.status, 404);
      t.is(call.error, '404 library_not_found: No library /a/b.');
      t.deepEqual(call.paths, []);
    },
  );
});

function result(index: number, library: string, intent: string, paths: string[], extra: Partial<EntryResult> = {}): EntryResult {
  const qrels = [{ path: 'good.md', grade: 3 }];
  return {
    index,
    library,
    libraryId: library,
    query: `q${index}`,
    intent,
    qrels,
    status: 200,
    latencyMs: 10 * (index + 1),
    tokens: 100,
    paths,
    scores: scoreRanking(paths, qrels),
    rateLimited: 0,
    ...extra,
  };
}

test('aggregate means overall, per library and per intent; errors are misses', (t) => {
  const results = [
    result(0, '/a/x', 'api-lookup', ['good.md']),
    result(1, '/a/x', 'conceptual', ['bad.md', 'good.md']),
    result(2, '/b/y', 'api-lookup', [], { status: 500, error: '500 internal_error', tokens: 0, scores: missScores() }),
  ];
  const agg = aggregate(results);
  t.is(agg.overall.n, 3);
  t.is(agg.overall.errors, 1);
  t.is(agg.overall.scores.mrr, (1 + 0.5 + 0) / 3);
  t.is(agg.overall.scores.hit[1], 1 / 3);
  t.is(agg.overall.medianLatencyMs, 20);
  t.is(agg.overall.meanTokens, 100);
  t.deepEqual(Object.keys(agg.byLibrary), ['/a/x', '/b/y']);
  t.is(agg.byLibrary['/a/x'].scores.mrr, 0.75);
  t.is(agg.byIntent['api-lookup'].scores.mrr, 0.5);
  t.is(agg.byIntent.conceptual.n, 1);
});

test('selectWorst lists misses first, then the lowest, never perfect answers', (t) => {
  const results = [
    result(0, '/a/x', 'i', ['good.md']),
    result(1, '/a/x', 'i', ['bad.md', 'good.md']),
    result(2, '/a/x', 'i', ['bad.md']),
    result(3, '/a/x', 'i', ['x.md', 'y.md', 'good.md']),
  ];
  t.deepEqual(
    selectWorst(results, 10).map((r) => r.index),
    [2, 3, 1],
  );
  t.deepEqual(
    selectWorst(results, 1).map((r) => r.index),
    [2],
  );
});
