/**
 * Library search on the catalogue index (real Elasticsearch) answers exactly what the pure
 * rules of search/catalog.ts answer over the whole catalogue — the same names, order, padding
 * cut and 404 suggestions — with thousands of other libraries indexed beside the ones asked
 * for; and the index applies visibility and every kind of team policy as the in-memory rules do.
 */
import test from 'ava';
import { createEsClient, HotSearch, type EsClient } from '../../src/search/client';
import { CatalogIndex } from '../../src/search/catalog-index';
import { catalogDocument, type CatalogEntry } from '../../src/search/catalog-document';
import { rankLibraries, suggestLibraries } from '../../src/search/catalog';
import { searchLibraries, type FindPorts } from '../../src/catalog/find';
import { libraryAllowedByPolicy, defaultPolicy, type LibraryFilters } from '../../src/auth/policy';
import type { AppliedPolicy } from '../../src/auth/policies';
import type { Principal } from '../../src/auth/principal';
import type { LibrarySummary } from '../../src/search/types';
import { NoLibrariesFoundError } from '../../src/errors';
import { deleteIndices, testConfig } from '../harness';

let es: EsClient;
let hot: HotSearch;
let index: CatalogIndex;
let prefix: string;

function summary(id: string, title: string, extra: Partial<LibrarySummary> = {}): LibrarySummary {
  return {
    id,
    title,
    description: '',
    branch: 'main',
    lastUpdateDate: new Date('2026-01-01T00:00:00Z'),
    state: 'finalized',
    totalTokens: 1000,
    totalSnippets: 100,
    trustScore: 7,
    benchmarkScore: 70,
    versions: [],
    ...extra,
  };
}

// search/catalog.test.ts's catalogue, and libraries whose names come near it.
const NAMED: LibrarySummary[] = [
  summary('/koajs/koa', 'Koa', { aliases: ['koa.js'] }),
  summary('/pallets/flask', 'Flask'),
  summary('/pallets/click', 'Click'),
  summary('/colinhacks/zod', 'Zod'),
  summary('/Automattic/mongoose', 'Mongoose'),
  summary('/psf/requests', 'Requests'),
  summary('/encode/httpx', 'HTTPX'),
  summary('/expressjs/expressjs.com', 'expressjs.com'),
  summary('/axios/axios', 'axios'),
  summary('/vercel/next.js', 'Next.js'),
  summary('/remix-run/react-router', 'React Router'),
  summary('/reactjs/react.dev', 'react.dev'),
  summary('/vitejs/vite', 'Vite'),
  summary('/vuejs/docs', 'docs'),
  summary('/koajs/router', 'koa-router', { trustScore: 3 }),
  summary('/mongoosejs/mongoose-paginate', 'mongoose-paginate', { trustScore: 4 }),
  summary('/acme/tool', 'tool'),
  summary('/tool/other', 'other'),
  summary('/b/tools-extra', 'tools extra'),
  summary('/c/tol', 'tol'),
  summary('/d/toolx', 'toolx'),
  summary('/a/router', 'router', { totalSnippets: 10 }),
  summary('/b/router', 'router', { totalSnippets: 5000 }),
];

/** 3,000 libraries with made-up names that match none of the names asked below. */
function filler(): LibrarySummary[] {
  const syllables = ['qua', 'zen', 'tri', 'bul', 'wex', 'pom', 'gly', 'snu', 'orb', 'fij', 'yak', 'dru', 'xel', 'vup', 'hib'];
  const out: LibrarySummary[] = [];
  for (let i = 0; out.length < 3000; i++) {
    const name = `${syllables[i % 15]}${syllables[Math.floor(i / 15) % 15]}${syllables[Math.floor(i / 225) % 15]}${i}`;
    out.push(summary(`/org${i % 97}/${name}`, name, { trustScore: (i % 10) + 0.5 }));
  }
  return out;
}

const ALL = [...NAMED, ...filler()];

function entry(s: LibrarySummary, extra: Partial<CatalogEntry> = {}): CatalogEntry {
  return { key: s.id, private: false, teamId: null, source: 'github', built: true, latest: { generation: 1 }, changedAt: 1, summary: s, ...extra };
}

const NO_POLICY: AppliedPolicy = { applied: false, allows: () => true };
const anonymous: Principal = { kind: 'anonymous', clientId: 'test' };

function ports(policy: AppliedPolicy = NO_POLICY): FindPorts {
  return {
    catalogIndex: index,
    snippets: { searchHits: () => Promise.reject(new Error('no question is asked in these tests')) },
    policies: { forPrincipal: () => Promise.resolve(policy) },
  };
}

test.before(async () => {
  const config = testConfig();
  prefix = config.indexPrefix;
  es = createEsClient(config.elasticsearchUrl, 30_000);
  hot = new HotSearch(config.elasticsearchUrl, 30_000);
  index = new CatalogIndex(es, hot, prefix);
  await index.ensureIndex();
  await index.put(
    ALL.map((s) => catalogDocument(entry(s))),
    { refresh: false },
  );
  // Copies and sources for the visibility and policy tests.
  await index.put([
    catalogDocument(entry(summary('/privy/internal', 'internal'), { key: '/privy/internal~team_a', private: true, teamId: 'team_a' })),
    catalogDocument(entry(summary('/privy/secret', 'secret'), { key: '/privy/secret~team_b', private: true, teamId: 'team_b' })),
    catalogDocument(entry(summary('/privy/internal', 'internal', { description: 'public copy' }))),
    catalogDocument(entry(summary('/spec/petstore', 'petstore', { trustScore: 9 }), { source: 'openapi' })),
    catalogDocument(entry(summary('/spec/unbuilt', 'unbuilt'), { built: false })),
  ]);
});
test.after.always(async () => {
  await deleteIndices(es, prefix);
  await es?.close();
  await hot?.close();
});

async function found(libraryName: string, policy?: AppliedPolicy, principal: Principal = anonymous): Promise<string[] | { suggestions: string }> {
  try {
    return (await searchLibraries(ports(policy), principal, { libraryName })).libraries.map((l) => l.id);
  } catch (error) {
    if (error instanceof NoLibrariesFoundError) return { suggestions: error.message };
    throw error;
  }
}

const ASKED = [
  'koa',
  'Flask',
  '/koajs/koa',
  'koajs/koa',
  'https://github.com/koajs/koa',
  '/vercel/next.js/v14.2.0',
  'nextjs',
  'Next.js',
  'next',
  'react router',
  'react-router',
  'httpx',
  'mongoose',
  'express',
  'expressjs',
  'react',
  'vue',
  'koa.js',
  'mongose',
  'axois',
  'flsk',
  'mongo',
  'mongoose odm',
  'zod',
  'tool',
  'other',
  'acme',
  'router',
  'koa router',
  'pallets',
  'tools',
];

test('the index finds what the rules find over the whole catalogue, in the same order', async (t) => {
  for (const name of ASKED) {
    const expected = rankLibraries({ libraryName: name, libraries: ALL })
      .slice(0, 10)
      .map((r) => r.library.id);
    t.deepEqual(await found(name), expected, name);
  }
});

test('a name nobody has is a 404 with the same near names as the rules give', async (t) => {
  for (const name of ['kubernetes', 'mongoos-odm', 'django', 'python http client', 'gadjetz', 'reqests-toolbelt']) {
    t.deepEqual(rankLibraries({ libraryName: name, libraries: ALL }), [], `${name} matches nothing`);
    const answer = await found(name);
    t.false(Array.isArray(answer), name);
    const near = suggestLibraries(name, ALL);
    const message = (answer as { suggestions: string }).suggestions;
    if (near.length === 0) t.notRegex(message, /similar name/, name);
    else t.true(message.includes(near.join(', ')), `${name}: ${message} names ${near.join(', ')}`);
  }
});

test("visibility: a team sees its private copy first, never another team's; unbuilt libraries are not found", async (t) => {
  const member: Principal = { kind: 'user', userId: 'u', username: 'u', role: 'member', teamIds: ['team_a'], defaultTeamId: 'team_a', via: 'api_key' };
  const mine = await searchLibraries(ports(), member, { libraryName: 'internal' });
  t.deepEqual(
    mine.libraries.map((l) => [l.id, l.description]),
    [['/privy/internal', '']],
    'the team copy, not the public one',
  );
  const outsider = await searchLibraries(ports(), anonymous, { libraryName: 'internal' });
  t.deepEqual(
    outsider.libraries.map((l) => l.description),
    ['public copy'],
  );
  const notFound = (answer: string[] | { suggestions: string }) => (Array.isArray(answer) ? answer.join() : answer.suggestions);
  t.regex(notFound(await found('secret', undefined, member)), /^No libraries match "secret"\.$/);
  const admin: Principal = { ...member, role: 'admin', teamIds: [], defaultTeamId: null };
  t.regex(notFound(await found('secret', undefined, admin)), /^No libraries match/, 'an admin searches as a caller in its own teams too');
  t.regex(notFound(await found('unbuilt')), /^No libraries match/);
});

test('every kind of team policy filters in the index exactly as the rule allows', async (t) => {
  const base = defaultPolicy().libraryFilters;
  const cases: Array<[string, Partial<LibraryFilters>]> = [
    ['blocked', { blockedLibraries: ['/KOAJS/koa/'] }],
    ['select', { mode: 'select', allowedLibraries: ['/koajs/router'], exceptedLibraries: ['/pallets/flask'] }],
    ['trust', { minTrustScore: 5, exceptedLibraries: ['/koajs/router'] }],
    ['sources', { sourceTypes: ['openapi'] }],
    ['blocked beats excepted', { mode: 'select', allowedLibraries: ['/koajs/koa'], blockedLibraries: ['/koajs/koa'] }],
  ];
  for (const [label, filters] of cases) {
    const policy = { libraryFilters: { ...base, ...filters } };
    const applied: AppliedPolicy = { applied: true, allows: (l) => libraryAllowedByPolicy(policy, l), filters: policy.libraryFilters };
    for (const name of ['koa', 'flask', 'koa router', 'petstore', 'mongoose']) {
      const allowed = ALL.concat([summary('/spec/petstore', 'petstore', { trustScore: 9 })]).filter((s) =>
        libraryAllowedByPolicy(policy, { id: s.id, source: s.id === '/spec/petstore' ? 'openapi' : 'github', trustScore: s.trustScore ?? 0 }),
      );
      const expected = rankLibraries({ libraryName: name, libraries: allowed })
        .slice(0, 10)
        .map((r) => r.library.id);
      const answer = await found(name, applied);
      t.deepEqual(Array.isArray(answer) ? answer : [], expected, `${label}: ${name}`);
    }
  }
});
