import test from 'ava';
import { backoffMs, effectiveHours, MAX_BACKOFF_MS, nextCheckAfter } from './schedule';

const HOUR = 3_600_000;
const defaults = { github: 24, gitlab: 12, bitbucket: 0, git: 6, website: 72, llmstxt: 0 };

test("a library's own schedule wins over its source kind's default; uploads never refresh", (t) => {
  t.is(effectiveHours({ source: 'github', schedule: undefined }, defaults), 24);
  t.is(effectiveHours({ source: 'gitlab', schedule: { mode: 'default', everyHours: 0 } }, defaults), 12);
  t.is(effectiveHours({ source: 'bitbucket', schedule: { mode: 'default', everyHours: 0 } }, defaults), 0);
  t.is(effectiveHours({ source: 'github', schedule: { mode: 'every', everyHours: 3 } }, defaults), 3);
  t.is(effectiveHours({ source: 'github', schedule: { mode: 'never', everyHours: 3 } }, defaults), 0);
  t.is(effectiveHours({ source: 'openapi', schedule: { mode: 'every', everyHours: 3 } }, defaults), 0);
  t.is(effectiveHours({ source: 'archive', schedule: { mode: 'every', everyHours: 3 } }, defaults), 0);
  t.is(effectiveHours({ source: 'website', schedule: undefined }, defaults), 72);
});

test('the next check is one interval on, or never', (t) => {
  const from = new Date('2026-01-01T00:00:00Z');
  t.deepEqual(nextCheckAfter(from, 2), new Date('2026-01-01T02:00:00Z'));
  t.is(nextCheckAfter(from, 0), null);
});

test('failures double the wait up to a week (or one interval when that is longer)', (t) => {
  t.deepEqual(
    [1, 2, 3, 4].map((n) => backoffMs(6, n) / HOUR),
    [6, 12, 24, 48],
  );
  t.is(backoffMs(24, 20), MAX_BACKOFF_MS);
  t.is(backoffMs(24 * 30, 3), 24 * 30 * HOUR);
});
