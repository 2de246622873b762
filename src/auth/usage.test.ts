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
