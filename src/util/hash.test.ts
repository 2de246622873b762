import test from 'ava';
import { sha256 } from './hash';

test('sha256 of empty string', (t) => {
  t.is(sha256(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});
