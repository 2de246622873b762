import test from 'ava';
import { QueryCache } from './query-cache';

test('an answer is served again while its generation is current and it is young; else computed again', async (t) => {
  let clock = 0;
  let computed = 0;
  const cache = new QueryCache<number>(10, 1000, () => clock);
  const compute = async () => ++computed;
  t.is(await cache.get('a', 'g1', compute), 1);
  t.is(await cache.get('a', 'g1', compute), 1, 'remembered');
  t.is(await cache.get('a', 'g2', compute), 2, 'a new generation computes again');
  clock = 999;
  t.is(await cache.get('a', 'g2', compute), 2);
  clock = 1000;
  t.is(await cache.get('a', 'g2', compute), 3, 'too old: computed again');
});

test('when full, the least recently used answer goes; capacity 0 remembers nothing', async (t) => {
  const cache = new QueryCache<string>(2, 60_000);
  const calls: string[] = [];
  const compute = (key: string) => async () => {
    calls.push(key);
    return key;
  };
  await cache.get('a', '', compute('a'));
  await cache.get('b', '', compute('b'));
  await cache.get('a', '', compute('a'));
  await cache.get('c', '', compute('c'));
  t.is(cache.size, 2);
  await cache.get('a', '', compute('a'));
  await cache.get('b', '', compute('b'));
  t.deepEqual(calls, ['a', 'b', 'c', 'b'], 'b was the least recently used when c came');
  const off = new QueryCache<string>(0, 60_000);
  await off.get('a', '', compute('x'));
  await off.get('a', '', compute('x'));
  t.is(off.size, 0);
});

test('a failed computation is not remembered', async (t) => {
  const cache = new QueryCache<number>(10, 60_000);
  await t.throwsAsync(cache.get('a', '', async () => Promise.reject(new Error('store down'))));
  t.is(await cache.get('a', '', async () => 7), 7);
});
