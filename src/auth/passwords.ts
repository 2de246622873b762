/**
 * Password hashing with scrypt (node:crypto; a memory-hard KDF, no native dependency):
 * N=2^15, r=8, p=1, 16-byte salt, 64-byte key, stored as `scrypt$N$r$p$salt$hash`.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;
const PARAMS = { N: 32768, r: 8, p: 1 };
const KEY_LENGTH = 64;
const maxmem = (N: number, r: number) => 128 * N * r * 2;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...PARAMS, maxmem: maxmem(PARAMS.N, PARAMS.r) });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password in constant time. With no stored hash (unknown user) it still spends
 * the time of one verification, so response times do not reveal which usernames exist.
 */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('shelfmark-no-such-user');
    await check(await dummyHash, password);
    return false;
  }
  return check(hash, password);
}

async function check(stored: string, password: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (![N, R, P].every((x) => Number.isInteger(x) && x > 0) || N > 1 << 20 || R > 32 || P > 16) return false;
  const expected = Buffer.from(key, 'base64url');
  try {
    const actual = await scrypt(password.normalize('NFC'), Buffer.from(salt, 'base64url'), expected.length, { N, r: R, p: P, maxmem: maxmem(N, R) });
    return crypto.timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}
