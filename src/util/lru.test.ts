import test from 'ava';
import { Lru } from './lru';

test('the least recently used entry goes when it is full; a read keeps an entry', (t) => {
  const lru = new Lru<number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  t.is(lru.get('a'), 1);
  lru.set('c', 3);
  t.is(lru.size, 2);
  t.is(lru.get('b'), undefined, 'b was the least recently used');
  t.is(lru.get('a'), 1);
  lru.set('a', 4);
  t.is(lru.get('a'), 4, 'a write replaces');
});
