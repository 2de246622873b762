import test from 'ava';
import { hashPassword, verifyPassword } from './passwords';

test('scrypt hashes verify, reject wrong passwords, and are salted', async (t) => {
  const h = await hashPassword('correct horse');
  t.regex(h, /^scrypt\$32768\$8\$1\$/);
  t.false(h.includes('correct horse'));
  t.true(await verifyPassword(h, 'correct horse'));
  t.false(await verifyPassword(h, 'correct horsE'));
  t.not(await hashPassword('correct horse'), h);
});

test('unknown users and malformed hashes verify false', async (t) => {
  t.false(await verifyPassword(undefined, 'x'));
  t.false(await verifyPassword('md5$abc', 'x'));
  t.false(await verifyPassword('scrypt$99999999999$8$1$AA$AA', 'x'));
});
