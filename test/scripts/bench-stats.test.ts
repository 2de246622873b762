/** Percentiles (nearest rank) and run summaries of the benchmark, on hand-computed data. */
import test from 'ava';
import { mean, median, percentile, ratio, summarizeLatencies } from '../../scripts/bench/harness/stats';

const hundred = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100

test('percentile uses the nearest rank', (t) => {
  t.is(percentile(hundred, 50), 50);
  t.is(percentile(hundred, 95), 95);
  t.is(percentile(hundred, 99), 99);
  t.is(percentile(hundred, 100), 100);
  t.is(percentile([15, 20, 35, 40, 50], 30), 20); // ceil(1.5) = 2nd
  t.is(percentile([15, 20, 35, 40, 50], 40), 20); // ceil(2.0) = 2nd
  t.is(percentile([15, 20, 35, 40, 50], 50), 35);
  t.is(percentile([15, 20, 35, 40, 50], 1), 15);
});

test('percentile does not depend on input order and leaves it alone', (t) => {
  const values = [9, 1, 5, 3, 7];
  t.is(percentile(values, 50), 5);
  t.deepEqual(values, [9, 1, 5, 3, 7]);
});

test('percentile of nothing is NaN; p outside (0, 100] throws', (t) => {
  t.true(Number.isNaN(percentile([], 50)));
  t.throws(() => percentile([1], 0), { instanceOf: RangeError });
  t.throws(() => percentile([1], 101), { instanceOf: RangeError });
});

test('median and mean', (t) => {
  t.is(median([3, 1, 2]), 2);
  t.is(median([4, 1, 3, 2]), 2.5);
  t.true(Number.isNaN(median([])));
  t.is(mean([1, 2, 3, 6]), 3);
  t.true(Number.isNaN(mean([])));
});

test('summarizeLatencies reports throughput over wall-clock time', (t) => {
  const s = summarizeLatencies(hundred, 3, 2000);
  t.deepEqual(s, { ok: 100, failed: 3, rps: 50, min: 1, mean: 50.5, p50: 50, p95: 95, p99: 99, max: 100 });
});

test('summarizeLatencies of a run with no successes', (t) => {
  const s = summarizeLatencies([], 7, 1000);
  t.is(s.ok, 0);
  t.is(s.failed, 7);
  t.is(s.rps, 0);
  t.true(Number.isNaN(s.p50));
  t.true(Number.isNaN(s.max));
});

test('summarizeLatencies handles more values than a call can take as arguments', (t) => {
  const many = Array.from({ length: 300_000 }, (_, i) => i % 1000);
  const s = summarizeLatencies(many, 0, 10_000);
  t.is(s.min, 0);
  t.is(s.max, 999);
  t.is(s.rps, 30_000);
});

test('ratio is NaN when a side is missing', (t) => {
  t.is(ratio(6, 2), 3);
  t.true(Number.isNaN(ratio(6, 0)));
  t.true(Number.isNaN(ratio(Number.NaN, 2)));
});
