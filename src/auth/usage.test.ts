import test from 'ava';
import { lastDays, normaliseQuery, queryHash } from './usage';

test('normaliseQuery collapses whitespace and lowercases', (t) => {
  t.is(normaliseQuery('  How do I   use\nMiddleware? '), 'how do i use middleware?');
  t.is(normaliseQuery('   '), null);
  t.true((normaliseQuery('word '.repeat(100))?.length ?? 0) <= 200);
  t.is(normaliseQuery('x'.repeat(500)), '***', 'long opaque strings are treated as secrets');
});

test('normaliseQuery removes secrets', (t) => {
  const cases = [
    'auth with smk_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG please',
    'clone https://user:hunter2@github.com/a/b',
    'token ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
    'password=hunter2secret and more',
    'Bearer abc.def.ghi',
    'key Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4',
  ];
  const leaked = ['abcdefghijklmnopqrstuvwxyz0123456789', 'hunter2', 'ghp_abcdefghijklmnop', 'hunter2secret', 'abc.def.ghi', 'zm9vymfyymf6cxv4zm9v'];
  cases.forEach((q, i) => {
    const n = normaliseQuery(q) ?? '';
    t.false(n.includes(leaked[i]), `${q} → ${n}`);
  });
});

test('queryHash is stable and short; lastDays lists UTC dates oldest first', (t) => {
  t.is(queryHash('a'), queryHash('a'));
  t.is(queryHash('a').length, 16);
  t.deepEqual(lastDays(3, new Date('2024-03-01T23:59:59Z')), ['2024-02-28', '2024-02-29', '2024-03-01']);
});

test('lowScoreQueries: a question is low against its own library, summed over days; a library needs a few questions first', async (t) => {
  const { lowScoreQueries, MIN_SCORED_QUESTIONS } = await import('./usage-queries');
  const row = (libraryId: string, query: string, score: number, n = 1) => ({ libraryId, query, count: n, scoreSum: score * n, scored: n });
  // Two libraries with the same shape at scales 10x apart: a raw threshold could not serve both.
  const shape = [4, 4.5, 5, 5.5, 6, 1.5];
  const rows = [
    ...shape.map((s, i) => row('/big/lib', `q${i}`, s * 10)),
    ...shape.map((s, i) => row('/small/lib', `q${i}`, s)),
    // The same question on another day: its mean is over both days' answers.
    row('/small/lib', 'q5', 1.5, 2),
    ...[1, 9, 9].map((s, i) => row('/few/lib', `q${i}`, s)),
    { libraryId: '/big/lib', query: 'unscored', count: 3, scoreSum: 0, scored: 0 },
  ];
  const low = lowScoreQueries(rows);
  t.deepEqual(low.map((q) => [q.libraryId, q.query, q.count]).sort(), [
    ['/big/lib', 'q5', 1],
    ['/small/lib', 'q5', 3],
  ]);
  t.true(
    low.every((q) => q.relativeScore > 0 && q.relativeScore < 0.5),
    JSON.stringify(low),
  );
  t.is(
    low.find((q) => q.libraryId === '/few/lib'),
    undefined,
    `fewer than ${MIN_SCORED_QUESTIONS} questions: no distribution yet`,
  );
  t.deepEqual(lowScoreQueries(shape.map((s, i) => row('/even/lib', `q${i}`, 5))), [], 'questions that score alike are none of them low');
});
