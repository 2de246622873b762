import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseTlsPins, readCaBundle, systemCaBundle } from './tls-trust';

const FP = 'AB:'.repeat(31) + 'AB';

test('pins: host:port=sha256/<hex>, colons optional, hosts canonical', (t) => {
  t.deepEqual(parseTlsPins([`Git.Internal:8443=sha256/${FP}`]), [{ host: 'git.internal', port: 8443, sha256: 'AB'.repeat(32) }]);
  t.deepEqual(parseTlsPins([`[0:0::1]:443=SHA256/${'ab'.repeat(32)}`]), [{ host: '[::1]', port: 443, sha256: 'AB'.repeat(32) }]);
  t.deepEqual(parseTlsPins([]), []);
});

test('pins: a missing port, a short or non-hex fingerprint or another hash are refused', (t) => {
  for (const bad of [
    `git.internal=sha256/${FP}`,
    'git.internal:443=sha256/ABCD',
    `git.internal:443=sha1/${FP}`,
    `git.internal:443=${FP}`,
    `git.internal:99999=sha256/${FP}`,
    `git.internal:443=sha256/${'zz'.repeat(32)}`,
    `::1:443=sha256/${FP}`,
  ]) {
    t.throws(() => parseTlsPins([bad]), undefined, bad);
  }
});

test('CA bundles must hold at least one parsable certificate', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-ca-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'empty.pem'), 'nothing here\n');
  fs.writeFileSync(path.join(dir, 'broken.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  t.throws(() => readCaBundle(path.join(dir, 'missing.pem')), { message: /ENOENT/ });
  t.throws(() => readCaBundle(path.join(dir, 'empty.pem')), { message: /no PEM certificate/ });
  t.throws(() => readCaBundle(path.join(dir, 'broken.pem')));
  const system = systemCaBundle();
  t.true(system.pem.includes('BEGIN CERTIFICATE'), system.source);
});
