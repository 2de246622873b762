import test from 'ava';
import { DEFAULT_TOKENS, MAX_TOKENS, MIN_TOKENS, SEPARATOR_TOKENS, packSnippetsToBudget } from './budget';
import { contextSnippet } from './test-fixtures';
import type { RankedSnippet } from './types';

const ranked = (...tokens: number[]): RankedSnippet[] => tokens.map((n, i) => ({ doc: contextSnippet({ id: `s${i}`, tokens: n }), score: 100 - i }));
const ids = (snippets: RankedSnippet[]): string[] => snippets.map((s) => s.doc.id);
const cost = (snippets: RankedSnippet[]): number => snippets.reduce((n, s) => n + s.doc.tokens, 0) + Math.max(0, snippets.length - 1) * SEPARATOR_TOKENS;

test('the bounds of the budget', (t) => {
  t.is(DEFAULT_TOKENS, 5000);
  t.is(MIN_TOKENS, 100);
  t.is(MAX_TOKENS, 100_000);
});

test('whole snippets in rank order while they fit, separators counted', (t) => {
  const packed = packSnippetsToBudget(ranked(40, 30, 30), 100);
  // 40 + 4 + 30 = 74; + 4 + 30 = 108 > 100
  t.deepEqual(ids(packed), ['s0', 's1']);
  t.is(cost(packed), 74);
});

test('a snippet that does not fit is skipped and smaller later ones still come, in order', (t) => {
  const packed = packSnippetsToBudget(ranked(50, 80, 20, 90, 10), 100);
  t.deepEqual(ids(packed), ['s0', 's2', 's4']);
  t.true(cost(packed) <= 100);
});

test('exactly the budget fits; an oversized first snippet is skipped', (t) => {
  t.deepEqual(ids(packSnippetsToBudget(ranked(46, 50), 100)), ['s0', 's1']);
  t.deepEqual(ids(packSnippetsToBudget(ranked(500, 60), 100)), ['s1']);
  t.deepEqual(packSnippetsToBudget(ranked(500), 100), []);
  t.deepEqual(packSnippetsToBudget([], 100), []);
});

test('never exceeds the budget on random input', (t) => {
  let seed = 7;
  const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let round = 0; round < 200; round++) {
    const budget = 100 + Math.floor(random() * 5000);
    const snippets = ranked(...Array.from({ length: 40 }, () => 1 + Math.floor(random() * 800)));
    const packed = packSnippetsToBudget(snippets, budget);
    t.true(cost(packed) <= budget);
    const order = ids(packed).map((id) => Number(id.slice(1)));
    t.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
    );
  }
});
