import test from 'ava';
import { API_KEY_PATTERN, decryptSecret, encryptSecret, generateApiKey, hashApiKey, safeEqual } from './crypto';

const SECRET = 'a-test-secret-of-at-least-32-characters!!';

test('encryptSecret / decryptSecret round-trip', (t) => {
  const blob = encryptSecret('ghp_supersecrettoken123', SECRET);
  t.is(decryptSecret(blob, SECRET), 'ghp_supersecrettoken123');
  t.false(blob.includes('supersecret'));
  t.regex(blob, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
});

test('a random IV makes every encryption different', (t) => {
  t.not(encryptSecret('same', SECRET), encryptSecret('same', SECRET));
});

test('tampering, another secret or another context fail to decrypt', (t) => {
  const blob = encryptSecret('token', SECRET, 'usr_1:github');
  const parts = blob.split('.');
  const data = Buffer.from(parts[3], 'base64url');
  data[0] ^= 1;
  const tampered = [parts[0], parts[1], parts[2], data.toString('base64url')].join('.');
  t.throws(() => decryptSecret(tampered, SECRET, 'usr_1:github'));
  t.throws(() => decryptSecret(blob, `${SECRET}x`, 'usr_1:github'));
  t.throws(() => decryptSecret(blob, SECRET, 'usr_2:github'));
  t.throws(() => decryptSecret('not-a-blob', SECRET));
  t.is(decryptSecret(blob, SECRET, 'usr_1:github'), 'token');
});

test('generated API keys have the smk_ prefix and 43 url-safe characters', (t) => {
  const key = generateApiKey();
  t.true(key.startsWith('smk_'));
  t.is(key.length, 4 + 43);
  t.regex(key, API_KEY_PATTERN);
  t.not(generateApiKey(), key);
  t.false(API_KEY_PATTERN.test('sk_live_abc'));
  t.false(API_KEY_PATTERN.test('smk_short'));
});

test('hashApiKey is a stable sha256 hex; safeEqual compares values', (t) => {
  t.is(hashApiKey('smk_x'), hashApiKey('smk_x'));
  t.regex(hashApiKey('smk_x'), /^[0-9a-f]{64}$/);
  t.true(safeEqual('abc', 'abc'));
  t.false(safeEqual('abc', 'abd'));
  t.false(safeEqual('abc', 'abcd'));
});
