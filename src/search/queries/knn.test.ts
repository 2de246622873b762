import test from 'ava';
import { buildKnnQuery } from './knn';
import { CONTEXT_SOURCE_FIELDS } from '../types';

test('the kNN leg: one library version and generation, k hits, rounded vector, no vectors returned', (t) => {
  const vector = [0.1234567891, -0.5, 0];
  const body = buildKnnQuery({ libraryId: '/koajs/koa', version: 'latest', generation: 7, vector, size: 42 });
  t.deepEqual(body._source, [...CONTEXT_SOURCE_FIELDS]);
  t.false((CONTEXT_SOURCE_FIELDS as readonly string[]).includes('embedding'));
  t.deepEqual(body.knn, {
    field: 'embedding',
    query_vector: [0.123457, -0.5, 0],
    k: 42,
    num_candidates: 168,
    filter: [
      { term: { libraryId: '/koajs/koa' } },
      { term: { version: 'latest' } },
      { bool: { filter: [{ range: { generation: { gte: 7, lte: 7 } } }], must_not: [{ range: { retired: { lte: 7 } } }] } },
    ],
  });
  t.is(body.size, 42);
  const small = buildKnnQuery({ libraryId: '/a/b', version: 'v1', vector, size: 5 });
  t.is((small.knn as { num_candidates: number }).num_candidates, 100, 'at least 100 candidates');
  t.is((small.knn as { filter: unknown[] }).filter.length, 2, 'no generation: every generation');
  const incremental = buildKnnQuery({ libraryId: '/a/b', version: 'v1', generation: 9, baseGeneration: 4, vector, size: 5 });
  t.deepEqual(
    (incremental.knn as { filter: unknown[] }).filter[2],
    { bool: { filter: [{ range: { generation: { gte: 4, lte: 9 } } }], must_not: [{ range: { retired: { lte: 9 } } }] } },
    'the served range of an incremental build',
  );
});
