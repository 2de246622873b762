import test from 'ava';
import { boostedFields, buildContextQuery, contextShouldClauses, libraryNameTerms } from './context';
import { analyzeQuery } from '../analysis';
import { SEARCH_WEIGHTS } from '../weights';

const FIELDS = ['searchTitle^3', 'searchBreadcrumb^2', 'searchBody', 'searchCode', 'searchPath^1.5'];

test('buildContextQuery produces the exact request', (t) => {
  const body = buildContextQuery({
    libraryId: '/koajs/koa',
    version: '3.2.0',
    generation: 7,
    query: 'koa: how do I delete a cookie with ctx.cookies.set()? "signed cookies"',
    size: 80,
  });
  t.deepEqual(body, {
    size: 80,
    track_total_hits: false,
    _source: [
      'id',
      'kind',
      'title',
      'description',
      'content',
      'language',
      'code',
      'breadcrumb',
      'pageTitle',
      'path',
      'url',
      'startLine',
      'tokens',
      'pageKind',
      'pageVersion',
      'part',
      'libraryId',
    ],
    query: {
      bool: {
        filter: [
          { term: { libraryId: '/koajs/koa' } },
          { term: { version: '3.2.0' } },
          { bool: { filter: [{ range: { generation: { gte: 7, lte: 7 } } }], must_not: [{ range: { retired: { lte: 7 } } }] } },
        ],
        should: [
          { combined_fields: { query: 'delet cooki ctx.cookies.set cookies.set ctx set sign', fields: FIELDS, operator: 'or', boost: 1 } },
          {
            multi_match: {
              query: 'delet cooki ctx.cookies.set cookies.set ctx set sign',
              type: 'best_fields',
              fields: ['searchTitle', 'searchBreadcrumb^0.7'],
              boost: 0.6,
            },
          },
          {
            multi_match: {
              query: 'sign cooki',
              type: 'best_fields',
              fields: ['searchTitle.shingles^1.5', 'searchBody.shingles', 'searchCode.shingles^0.7'],
              boost: 0.6,
            },
          },
          {
            multi_match: {
              query: 'delet cooki ctx.cookies.set cookies.set ctx cooki set',
              type: 'best_fields',
              fields: ['searchTitle.shingles^1.5', 'searchBody.shingles', 'searchCode.shingles^0.7'],
              boost: 0.6,
            },
          },
          { match: { searchIdentifiers: { query: 'ctx.cookies.set cookies.set set', boost: 1.5 } } },
          {
            multi_match: {
              query: 'sign cooki',
              type: 'phrase',
              slop: 2,
              fields: ['searchTitle', 'searchBody', 'searchCode'],
              boost: 2,
            },
          },
          { combined_fields: { query: 'remov destroi unset', fields: FIELDS, operator: 'or', boost: 0.25 } },
          { combined_fields: { query: 'koa', fields: FIELDS, operator: 'or', boost: 0.1 } },
        ],
        minimum_should_match: 1,
      },
    },
  });
});

test('without a generation there is no generation filter', (t) => {
  const body = buildContextQuery({ libraryId: '/pallets/flask', version: '3.1.3', query: 'blueprint url_prefix', size: 60 });
  t.deepEqual(body.query?.bool?.filter, [{ term: { libraryId: '/pallets/flask' } }, { term: { version: '3.1.3' } }]);
  t.is(body.size, 60);
});

test("a merged library's query matches its own served version or any joining source's", (t) => {
  const body = buildContextQuery({
    libraryId: '/koajs/koa',
    version: 'latest',
    generation: 9,
    baseGeneration: 7,
    also: [{ libraryId: '/websites/koajs-com', version: 'latest', generation: 4 }],
    query: 'cookie',
    size: 30,
  });
  const served = (generation: number, base: number) => ({
    bool: { filter: [{ range: { generation: { gte: base, lte: generation } } }], must_not: [{ range: { retired: { lte: generation } } }] },
  });
  t.deepEqual(body.query?.bool?.filter, [
    {
      bool: {
        should: [
          { bool: { filter: [{ term: { libraryId: '/koajs/koa' } }, { term: { version: 'latest' } }, served(9, 7)] } },
          { bool: { filter: [{ term: { libraryId: '/websites/koajs-com' } }, { term: { version: 'latest' } }, served(4, 4)] } },
        ],
        minimum_should_match: 1,
      },
    },
  ]);
});

test('a question of stop words only filters without scoring clauses', (t) => {
  const body = buildContextQuery({ libraryId: '/pallets/flask', version: '3.1.3', query: 'how do I?', size: 10 });
  t.deepEqual(body.query, {
    bool: { filter: [{ term: { libraryId: '/pallets/flask' } }, { term: { version: '3.1.3' } }] },
  });
});

test('a question that only names the library still searches for the name', (t) => {
  const should = contextShouldClauses(analyzeQuery('koa'), libraryNameTerms('/koajs/koa'), SEARCH_WEIGHTS.query);
  t.deepEqual(should[0], { combined_fields: { query: 'koa', fields: FIELDS, operator: 'or', boost: 1 } });
  t.false(should.some((q) => q.combined_fields?.boost === 0.1));
});

test('libraryNameTerms strips site suffixes and js', (t) => {
  t.deepEqual([...libraryNameTerms('/koajs/koa')], ['koa']);
  t.deepEqual([...libraryNameTerms('/expressjs/expressjs.com')], ['expressj', 'express']);
  t.deepEqual([...libraryNameTerms('/vercel/next.js')], ['next.js', 'next', 'js']);
  t.deepEqual([...libraryNameTerms('/openapi/petstore')], ['petstor']);
});

test('boostedFields leaves weight 1 implicit', (t) => {
  t.deepEqual(boostedFields({ a: 1, b: 2.5 }), ['a', 'b^2.5']);
});

test('buildContextQuery skips `from` candidates only when asked to', (t) => {
  const base = { libraryId: '/pallets/flask', version: '3.1.3', query: 'blueprint url_prefix', size: 84 };
  t.false('from' in buildContextQuery(base));
  t.false('from' in buildContextQuery({ ...base, from: 0 }));
  t.is(buildContextQuery({ ...base, from: 42 }).from, 42);
  t.is(buildContextQuery({ ...base, from: 42 }).size, 84);
});
