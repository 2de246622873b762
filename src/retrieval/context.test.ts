import test from 'ava';
import { candidatesFor, underfilled } from './context';
import { DEFAULT_TOKENS, MAX_TOKENS, MIN_TOKENS } from '../search/budget';
import { SEARCH_WEIGHTS } from '../search/weights';

test('candidates grow with the budget within 30..500', (t) => {
  // At least the pool the answer is re-scored from (weights.ts `answer.lexicalHits`).
  t.is(SEARCH_WEIGHTS.answer.lexicalHits, 30);
  t.is(candidatesFor(MIN_TOKENS), 30);
  t.is(candidatesFor(DEFAULT_TOKENS), 32);
  t.is(candidatesFor(4800), 30);
  t.is(candidatesFor(4801), 31);
  t.is(candidatesFor(20_000), 125);
  t.is(candidatesFor(MAX_TOKENS), 500);
  for (let b = MIN_TOKENS; b < MAX_TOKENS; b += 997) t.true(candidatesFor(b + 997) >= candidatesFor(b));
});

test('a budget is underfilled when more than a tenth of it is unused', (t) => {
  const of = (...tokens: number[]) => tokens.map((n) => ({ doc: { tokens: n } }) as never);
  t.true(underfilled(of(), 100));
  t.true(underfilled(of(40, 49), 100));
  t.false(underfilled(of(40, 50), 100));
  t.false(underfilled(of(100), 100));
});
