import test from 'ava';
import type { LibrarySummary } from '../types';
import { formatResolveLibraryText, presentLibrary, sourceReputation } from './libraries';

const koa: LibrarySummary = {
  id: '/koajs/koa',
  title: 'Koa',
  description: 'Expressive middleware for node.js using ES2017 async functions',
  branch: 'master',
  lastUpdateDate: new Date('2026-01-02T03:04:05.000Z'),
  state: 'finalized',
  totalTokens: 51234,
  totalSnippets: 312,
  stars: 35000,
  trustScore: 9.1,
  benchmarkScore: 87.25,
  versions: ['2.16.4', '3.2.0'],
  aliases: ['koa.js'],
};
const openapi: LibrarySummary = {
  ...koa,
  id: '/openapi/petstore',
  title: 'Petstore',
  description: 'Sample API',
  stars: undefined,
  trustScore: undefined,
  benchmarkScore: 40,
  versions: [],
};

test('presentLibrary gives the Context7 search entry, unknowns as -1', (t) => {
  t.is(
    JSON.stringify(presentLibrary(koa)),
    JSON.stringify({
      id: '/koajs/koa',
      title: 'Koa',
      description: 'Expressive middleware for node.js using ES2017 async functions',
      branch: 'master',
      lastUpdateDate: '2026-01-02T03:04:05.000Z',
      state: 'finalized',
      totalTokens: 51234,
      totalSnippets: 312,
      stars: 35000,
      trustScore: 9.1,
      benchmarkScore: 87.25,
      versions: ['2.16.4', '3.2.0'],
    }),
  );
  const unknown = presentLibrary(openapi);
  t.is(unknown.stars, -1);
  t.is(unknown.trustScore, -1);
});

test('the resolve-library-id text is byte-exact', (t) => {
  t.is(
    formatResolveLibraryText([koa, openapi]),
    [
      '- Title: Koa',
      '- Context7-compatible library ID: /koajs/koa',
      '- Description: Expressive middleware for node.js using ES2017 async functions',
      '- Code Snippets: 312',
      '- Source Reputation: High',
      '- Benchmark Score: 87.3',
      '- Versions: 2.16.4, 3.2.0',
      '----------',
      '- Title: Petstore',
      '- Context7-compatible library ID: /openapi/petstore',
      '- Description: Sample API',
      '- Code Snippets: 312',
      '- Source Reputation: Unknown',
      '- Benchmark Score: 40',
    ].join('\n'),
  );
  t.is(formatResolveLibraryText([]), 'No documentation libraries found matching your query.');
});

test('source reputation thresholds', (t) => {
  t.is(sourceReputation(7), 'High');
  t.is(sourceReputation(6.9), 'Medium');
  t.is(sourceReputation(4), 'Medium');
  t.is(sourceReputation(3.99), 'Low');
  t.is(sourceReputation(0), 'Low');
  t.is(sourceReputation(undefined), 'Unknown');
  t.is(sourceReputation(-1), 'Unknown');
});
