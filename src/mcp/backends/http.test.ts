import test from 'ava';
import { errorFromResponse, summaryFromJson } from './http';
import { formatLibraryText } from '../../search/format/libraries';

test('error bodies keep their code, message and Retry-After; other bodies get a code from the status', (t) => {
  const e = errorFromResponse(429, JSON.stringify({ error: 'rate_limit_exceeded', message: 'Slow down.' }), new Headers({ 'Retry-After': '12' }));
  t.is(e.code, 'rate_limit_exceeded');
  t.is(e.message, 'Slow down.');
  t.is(e.headers['Retry-After'], '12');
  t.true(e.expose);
  const html = errorFromResponse(502, '<html>bad gateway</html>', new Headers());
  t.is(html.code, 'internal_error');
  t.false(html.expose);
  t.is(errorFromResponse(401, '', new Headers()).code, 'invalid_api_key');
});

test('a search result reads back into the same resolve-library-id text', (t) => {
  const summary = summaryFromJson({
    id: '/a/b',
    title: 'B',
    description: 'Bee.',
    branch: 'main',
    lastUpdateDate: '2025-01-01T00:00:00.000Z',
    state: 'finalized',
    totalTokens: 10,
    totalSnippets: 3,
    stars: -1,
    trustScore: -1,
    benchmarkScore: 71.25,
    versions: ['v1'],
  });
  t.is(summary.trustScore, undefined);
  t.is(
    formatLibraryText(summary),
    '- Title: B\n- Context7-compatible library ID: /a/b\n- Description: Bee.\n- Code Snippets: 3\n- Source Reputation: Unknown\n- Benchmark Score: 71.3\n- Versions: v1',
  );
});
