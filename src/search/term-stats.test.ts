import test from 'ava';
import { TermStatsCache, type TermStatsFetch } from './term-stats';
import { TERM_FIELDS } from './queries/term-stats';

/** A fetch that answers from a fixed table (df = term length) and records the terms each request asked. */
function countingFetch(total = 100) {
  const asked: string[][] = [];
  const fetch: TermStatsFetch = async (body) => {
    const filters = (body.aggs as { df: { filters: { filters: Record<string, unknown> } } }).df.filters.filters;
    const terms = Object.keys(filters);
    asked.push(terms);
    return { total, df: Object.fromEntries(terms.map((t) => [t, t.length])) };
  };
  return { fetch, asked };
}

const koa = { libraryId: '/koajs/koa', version: '3.2.0', generation: 4 };

test('the first question asks for its terms within the library version, in one request', async (t) => {
  const bodies: unknown[] = [];
  const cache = new TermStatsCache(async (body) => {
    bodies.push(body);
    return { total: 812, df: { cooki: 40, ctx: 700 } };
  });
  const stats = await cache.stats({ ...koa, baseGeneration: 3 }, ['cooki', 'ctx', 'zzz']);
  t.is(stats.total, 812);
  t.deepEqual(
    [...stats.df],
    [
      ['cooki', 40],
      ['ctx', 700],
      ['zzz', 0],
    ],
    'a term no snippet has counts 0',
  );
  t.deepEqual(bodies, [
    {
      size: 0,
      track_total_hits: true,
      query: {
        bool: {
          filter: [
            { term: { libraryId: '/koajs/koa' } },
            { term: { version: '3.2.0' } },
            { bool: { filter: [{ range: { generation: { gte: 3, lte: 4 } } }], must_not: [{ range: { retired: { lte: 4 } } }] } },
          ],
        },
      },
      aggs: {
        df: {
          filters: { filters: Object.fromEntries(['cooki', 'ctx', 'zzz'].map((term) => [term, { multi_match: { query: term, fields: [...TERM_FIELDS] } }])) },
        },
      },
    },
  ]);
});

test('a second question asks only for the terms not seen yet, and none when all are known', async (t) => {
  const { fetch, asked } = countingFetch();
  const cache = new TermStatsCache(fetch);
  await cache.stats(koa, ['set', 'cooki']);
  const second = await cache.stats(koa, ['cooki', 'sign', 'set']);
  t.deepEqual(asked, [['set', 'cooki'], ['sign']]);
  t.deepEqual([second.df.get('set'), second.df.get('cooki'), second.df.get('sign')], [3, 5, 4]);
  await cache.stats(koa, ['sign', 'set']);
  t.is(asked.length, 2, 'nothing asked when every term is known');
});

test('a first question without terms asks for the snippet count alone (Elasticsearch refuses an empty filters aggregation)', async (t) => {
  const bodies: Record<string, unknown>[] = [];
  const cache = new TermStatsCache(async (body) => {
    bodies.push(body as Record<string, unknown>);
    return { total: 812, df: {} };
  });
  const stats = await cache.stats(koa, []);
  t.is(stats.total, 812);
  t.is(stats.df.size, 0);
  t.is(bodies.length, 1);
  t.false('aggs' in bodies[0]!);
  t.is(bodies[0]!.size, 0);
});

test('a new generation (or version, or library) starts afresh', async (t) => {
  const { fetch, asked } = countingFetch();
  const cache = new TermStatsCache(fetch);
  await cache.stats(koa, ['cooki']);
  await cache.stats({ ...koa, generation: 5 }, ['cooki']);
  await cache.stats({ ...koa, version: '2.16.4' }, ['cooki']);
  await cache.stats({ ...koa, libraryId: '/pallets/flask' }, ['cooki']);
  t.deepEqual(asked, [['cooki'], ['cooki'], ['cooki'], ['cooki']]);
  // The first generation is still known.
  await cache.stats(koa, ['cooki']);
  t.is(asked.length, 4);
});

test('the least recently used library version goes first when the cache is full', async (t) => {
  const { fetch, asked } = countingFetch();
  const cache = new TermStatsCache(fetch, 2);
  const scope = (generation: number) => ({ ...koa, generation });
  await cache.stats(scope(1), ['a']);
  await cache.stats(scope(2), ['a']);
  await cache.stats(scope(1), ['a']); // in use again
  await cache.stats(scope(3), ['a']); // generation 2 goes
  t.is(asked.length, 3);
  await cache.stats(scope(1), ['a']);
  t.is(asked.length, 3, 'generation 1 was kept');
  await cache.stats(scope(2), ['a']);
  t.is(asked.length, 4, 'generation 2 was asked again');
});

test('a version whose terms fill the cache starts afresh without losing the terms the question asks', async (t) => {
  const { fetch, asked } = countingFetch();
  const cache = new TermStatsCache(fetch);
  const many = Array.from({ length: 20_001 }, (_, i) => `term${i}`);
  await cache.stats(koa, many);
  const stats = await cache.stats(koa, ['term7', 'newterm']);
  t.is(stats.df.get('term7'), 'term7'.length, 'a term known before is still counted');
  t.is(stats.df.get('newterm'), 'newterm'.length);
  t.true(stats.df.size < 20_001, 'the full version started afresh');
  t.deepEqual(asked[1], ['term7', 'newterm']);
});
