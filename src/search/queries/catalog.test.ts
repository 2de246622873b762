import test from 'ava';
import { buildLibraryNameQuery, buildLibrarySuggestQuery, catalogFilters } from './catalog';
import { catalogDocument, trigrams } from '../catalog-document';

test("visibility: public copies, and the caller's teams' copies when it has teams; only built libraries", (t) => {
  t.deepEqual(catalogFilters({ teams: [] }), { filter: [{ term: { built: true } }, { term: { private: false } }], must_not: [] });
  t.deepEqual(catalogFilters({ teams: ['t1'] }).filter[1], {
    bool: { should: [{ term: { private: false } }, { terms: { teamId: ['t1'] } }], minimum_should_match: 1 },
  });
});

test("team policies become filters with the rule's semantics (ids compared lowercased, without trailing slashes)", (t) => {
  const base = { mode: 'quality' as const, blockedLibraries: [], exceptedLibraries: [], minTrustScore: null, allowedLibraries: [], sourceTypes: [] };
  t.deepEqual(catalogFilters({ teams: [], filters: { ...base, blockedLibraries: ['/A/B/'] } }).must_not, [{ terms: { idLower: ['/a/b'] } }]);
  t.deepEqual(catalogFilters({ teams: [], filters: { ...base, mode: 'select', allowedLibraries: ['/x/y'], exceptedLibraries: ['/e/f'] } }).filter[2], {
    bool: { should: [{ terms: { idLower: ['/e/f'] } }, { terms: { idLower: ['/x/y'] } }], minimum_should_match: 1 },
  });
  t.deepEqual(catalogFilters({ teams: [], filters: { ...base, minTrustScore: 5, sourceTypes: ['openapi'] } }).filter[2], {
    bool: {
      should: [{ terms: { idLower: [] } }, { bool: { filter: [{ range: { trustScore: { gte: 5 } } }, { terms: { source: ['openapi'] } }] } }],
      minimum_should_match: 1,
    },
  });
  t.is(catalogFilters({ teams: [], filters: base }).filter.length, 2, 'a default policy adds nothing');
});

test('the name query has a clause per matching rule, best score first; an empty name asks nothing', (t) => {
  t.is(buildLibraryNameQuery({ libraryName: ' .. ', size: 10, teams: [] }), undefined);
  const body = buildLibraryNameQuery({ libraryName: 'Next.js', size: 100, teams: [] });
  type Clause = { constant_score?: { boost: number; filter: Record<string, unknown> }; function_score?: { query: Record<string, unknown> } };
  const clauses = (body?.query?.bool?.must as Array<{ dis_max: { queries: Clause[] } }> | undefined)?.[0]?.dis_max.queries ?? [];
  t.deepEqual(clauses[0], { constant_score: { filter: { term: { normals: 'nextjs' } }, boost: 0.95 } });
  const typos = clauses.find((c) => c.constant_score && 'deletes' in ((c.constant_score.filter.terms as object | undefined) ?? {}));
  t.truthy(typos, 'typos (names of 4 letters or more), by typo keys');
  t.is(typos?.constant_score?.boost, 0.7);
  const keys = (typos?.constant_score?.filter.terms as { deletes?: string[] } | undefined)?.deletes ?? [];
  t.true(keys.includes('nxt'), 'a key one deletion from the core (next)');
  const prefix = clauses.find((c) => c.function_score);
  t.deepEqual(prefix?.function_score?.query, { prefix: { normals: 'next' } }, 'prefixes, scored by the name length');
  t.deepEqual(body?.sort, [{ _score: { order: 'desc' } }, { quality: { order: 'desc' } }, { idLower: { order: 'asc' } }]);
  const id = buildLibraryNameQuery({ libraryName: 'https://github.com/Vercel/Next.js', size: 10, teams: [] });
  t.deepEqual((id?.query?.bool?.must as Array<{ dis_max: { queries: unknown[] } }> | undefined)?.[0]?.dis_max.queries[0], {
    constant_score: { filter: { term: { idLower: '/vercel/next.js' } }, boost: 1 },
  });
  const short = buildLibraryNameQuery({ libraryName: 'zod', size: 10, teams: [] });
  t.false(JSON.stringify(short).includes('deletes'), 'no typo allowed below 4 letters');
});

test('the suggestion query looks for typos, shared trigrams and words', (t) => {
  const body = buildLibrarySuggestQuery({ libraryName: 'gadjetz tools', size: 50, teams: [] });
  const json = JSON.stringify(body);
  t.true(json.includes('"fuzzy"'));
  t.true(json.includes('"grams":"gad"'));
  t.true(json.includes('"words":["gadjetz","tools"]'));
});

test('a catalogue document carries every name form the rules compare', (t) => {
  t.deepEqual(trigrams('react'), ['rea', 'eac', 'act']);
  t.deepEqual(trigrams('js'), ['js']);
  const doc = catalogDocument({
    key: '/vercel/next.js~team_1',
    private: true,
    teamId: 'team_1',
    source: 'github',
    built: true,
    latest: { generation: 7 },
    changedAt: 5,
    summary: {
      id: '/vercel/next.js',
      title: 'Next.js',
      description: '',
      branch: 'main',
      lastUpdateDate: new Date('2026-01-01T00:00:00Z'),
      state: 'finalized',
      totalTokens: 1,
      totalSnippets: 10,
      trustScore: 8,
      benchmarkScore: 80,
      versions: ['14.2.0'],
      aliases: ['nextjs-docs'],
    },
  });
  t.is(doc.idLower, '/vercel/next.js');
  t.deepEqual(doc.normals, ['nextjs', 'nextjsdocs']);
  t.deepEqual(doc.cores, ['next']);
  t.deepEqual(doc.words.sort(), ['docs', 'js', 'next', 'nextjs']);
  t.is(doc.ownerNormal, 'vercel');
  t.is(doc.summary.lastUpdateDate, '2026-01-01T00:00:00.000Z');
});
