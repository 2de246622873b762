import test from 'ava';
import { buildLibraryContentQuery, readLibraryContentScores } from './libraries';

test('buildLibraryContentQuery collapses on libraryId over the candidates', (t) => {
  const body = buildLibraryContentQuery({ libraryIds: ['/koajs/koa', '/expressjs/expressjs.com', '/koajs/koa'], query: 'set a cookie' });
  t.truthy(body);
  t.is(body?.size, 2);
  t.deepEqual(body?.collapse, { field: 'libraryId' });
  t.deepEqual(body?._source, ['libraryId']);
  t.is(body?.track_total_hits, false);
  t.deepEqual(body?.query?.bool?.filter, [{ terms: { libraryId: ['/koajs/koa', '/expressjs/expressjs.com'] } }]);
  t.is(body?.query?.bool?.minimum_should_match, 1);
  // No library-name demotion across libraries: every term is topical.
  const should = body?.query?.bool?.should;
  t.deepEqual(Array.isArray(should) ? should[0] : should, {
    combined_fields: {
      query: 'set cooki',
      fields: ['searchTitle^3', 'searchBreadcrumb^2', 'searchBody', 'searchCode', 'searchPath^1.5'],
      operator: 'or',
      boost: 1,
    },
  });
});

test('served generations restrict the content scored', (t) => {
  const body = buildLibraryContentQuery({
    libraryIds: ['/koajs/koa', '/pallets/flask'],
    query: 'cookie',
    generations: [
      { libraryId: '/koajs/koa', version: 'latest', generation: 3, baseGeneration: 2 },
      { libraryId: '/other/lib', version: 'latest', generation: 1 },
    ],
  });
  t.deepEqual(body?.query?.bool?.filter, [
    {
      bool: {
        should: [
          {
            bool: {
              filter: [
                { term: { libraryId: '/koajs/koa' } },
                { term: { version: 'latest' } },
                { bool: { filter: [{ range: { generation: { gte: 2, lte: 3 } } }], must_not: [{ range: { retired: { lte: 3 } } }] } },
              ],
            },
          },
        ],
        minimum_should_match: 1,
      },
    },
  ]);
});

test('nothing to score gives no query', (t) => {
  t.is(buildLibraryContentQuery({ libraryIds: [], query: 'cookie' }), undefined);
  t.is(buildLibraryContentQuery({ libraryIds: ['/koajs/koa'], query: 'how do I' }), undefined);
  t.is(buildLibraryContentQuery({ libraryIds: ['/koajs/koa'], query: 'cookie', generations: [] }), undefined);
});

test('readLibraryContentScores keeps each library best score', (t) => {
  const scores = readLibraryContentScores({
    hits: {
      hits: [
        { _score: 12.5, _source: { libraryId: '/koajs/koa' } },
        { _score: 3, _source: { libraryId: '/pallets/flask' } },
        { _score: 4, _source: { libraryId: '/koajs/koa' } },
        { _score: null, _source: { libraryId: '/x/y' } },
        { _score: 9 },
      ],
    },
  });
  t.deepEqual(
    [...scores],
    [
      ['/koajs/koa', 12.5],
      ['/pallets/flask', 3],
    ],
  );
});
