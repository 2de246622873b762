import test from 'ava';
import { jaccard, normaliseForDedupe, shingleHashes } from '../../util/shingles';
import { createDuplicateFilter } from './dedupe';
import { cpuMs } from '../../util/cpu-time';

/** Deterministic pseudo-random words (mulberry32), so tests do not depend on Math.random. */
function words(seed: number, n: number): string[] {
  let s = seed;
  const next = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  return Array.from({ length: n }, () => `w${(next() % 50_000).toString(36)}`);
}

test('normalisation ignores whitespace and case', (t) => {
  t.is(normaliseForDedupe('  Const A =\n\t1;  '), 'const a = 1;');
});

test('exact duplicates (modulo whitespace and case) within a group', (t) => {
  const isDup = createDuplicateFilter();
  t.false(isDup('code', 'npm install koa'));
  t.true(isDup('code', 'npm   install  KOA\n'));
  t.false(isDup('info', 'npm install koa'), 'groups are separate');
  t.false(isDup('code', 'npm install express'), 'short texts differing in a word are different');
});

test('near duplicates of long texts: one changed word among many', (t) => {
  const base = words(1, 200);
  const changed = [...base];
  changed[100] = 'different';
  const isDup = createDuplicateFilter();
  t.false(isDup('info', base.join(' ')));
  t.true(isDup('info', changed.join(' ')));
  t.false(isDup('info', words(2, 200).join(' ')), 'an unrelated text');
  const half = [...base.slice(0, 100), ...words(3, 100)];
  t.false(isDup('info', half.join(' ')), 'half the same is not a duplicate');
});

test('the threshold is a Jaccard similarity of word 3-shingles', (t) => {
  const a = shingleHashes(normaliseForDedupe(words(4, 100).join(' ')));
  t.is(a.length, 98);
  t.is(jaccard(a, a), 1);
  t.true(
    a.every((v, i) => i === 0 || v > a[i - 1]),
    'sorted and unique',
  );
  const b = shingleHashes(normaliseForDedupe(words(5, 100).join(' ')));
  t.true(jaccard(a, b) < 0.05);
  t.is(jaccard(a, a.subarray(0, 10), 0.9), 0, 'sizes alone rule it out');
  t.is(shingleHashes('two words').length, 0);
});

test('roughly linear: 20,000 long snippets in well under a second, also with a shingle they all share', (t) => {
  const texts = Array.from({ length: 20_000 }, (_, i) => `import { app } from 'framework'\n${words(i + 10, 60).join(' ')}`);
  const isDup = createDuplicateFilter();
  let duplicates = 0;
  const { ms } = cpuMs(() => {
    for (const text of texts) if (isDup('code', text)) duplicates++;
  });
  t.log(`${Math.round(ms)} ms`);
  t.is(duplicates, 0);
  t.true(ms < 1000, `${Math.round(ms)} ms`);
});
