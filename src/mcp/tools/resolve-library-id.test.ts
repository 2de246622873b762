import test from 'ava';
import { formatResolveAnswer, POLICY_NOTE, RESOLVE_HEADER } from './resolve-library-id';
import { overviewQuery } from './get-library-docs';
import type { LibrarySummary } from '../../search/types';

const lib = (id: string, trustScore?: number): LibrarySummary => ({
  id,
  title: id.slice(1),
  description: `About ${id}.`,
  branch: 'main',
  lastUpdateDate: new Date(0),
  state: 'finalized',
  totalTokens: 100,
  totalSnippets: 12,
  trustScore,
  benchmarkScore: 80,
  versions: [],
});

test('the answer is the header, then the libraries separated by dashes; the policy note only when filtered', (t) => {
  const text = formatResolveAnswer({ libraries: [lib('/a/one', 8), lib('/a/two', 5)], searchFilterApplied: false });
  t.true(text.startsWith(`${RESOLVE_HEADER}\n\n----------\n\n- Title: a/one`));
  t.regex(text, /- Source Reputation: High\n[\s\S]*\n----------\n- Title: a\/two\n[\s\S]*- Source Reputation: Medium/);
  t.false(text.includes(POLICY_NOTE));
  t.true(formatResolveAnswer({ libraries: [lib('/a/one')], searchFilterApplied: true }).includes(`\n\n${POLICY_NOTE}\n\n`));
});

test('get-library-docs without a topic asks for an overview of the project', (t) => {
  t.is(overviewQuery('/koajs/koa'), 'koa overview getting started usage');
  t.is(overviewQuery('/vercel/next.js@v14'), 'next.js overview getting started usage');
});
