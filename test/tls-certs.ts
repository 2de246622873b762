/**
 * Test certificates made at test time with the openssl CLI: a CA, certificates it signs,
 * and self-signed ones. Nothing is checked in; every run has fresh keys.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface KeyPair {
  key: string;
  cert: string;
  /** SHA-256 fingerprint of the certificate as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint: string;
}

export interface TestCa extends KeyPair {
  /** Path of the CA certificate (PEM), e.g. for GIT_CA_FILE. */
  certFile: string;
  /** A leaf certificate signed by this CA for the given subjectAltNames ("IP:127.0.0.1"). */
  issue(altNames: string[]): KeyPair;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-tls-'));
let counter = 0;

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function read(name: string, keyName: string): KeyPair {
  const cert = fs.readFileSync(path.join(dir, name), 'utf8');
  return { key: fs.readFileSync(path.join(dir, keyName), 'utf8'), cert, fingerprint: new crypto.X509Certificate(cert).fingerprint256 };
}

/** A self-signed certificate for `cn` with the given subjectAltNames. */
export function selfSigned(cn: string, altNames: string[]): KeyPair {
  const n = `self${counter++}`;
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-keyout',
    `${n}.key`,
    '-out',
    `${n}.crt`,
    '-subj',
    `/CN=${cn}`,
    '-addext',
    `subjectAltName=${altNames.join(',')}`,
  );
  return read(`${n}.crt`, `${n}.key`);
}

/** A new certificate authority. */
export function createCa(name = 'Shelfmark Test CA'): TestCa {
  const n = `ca${counter++}`;
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-keyout', `${n}.key`, '-out', `${n}.crt`, '-subj', `/CN=${name}`);
  const ca = read(`${n}.crt`, `${n}.key`);
  return {
    ...ca,
    certFile: path.join(dir, `${n}.crt`),
    issue(altNames) {
      const leaf = `leaf${counter++}`;
      fs.writeFileSync(path.join(dir, `${leaf}.ext`), `subjectAltName=${altNames.join(',')}\n`);
      openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${leaf}.key`, '-out', `${leaf}.csr`, '-subj', '/CN=git server');
      openssl(
        'x509',
        '-req',
        '-in',
        `${leaf}.csr`,
        '-CA',
        `${n}.crt`,
        '-CAkey',
        `${n}.key`,
        '-CAcreateserial',
        '-days',
        '2',
        '-out',
        `${leaf}.crt`,
        '-extfile',
        `${leaf}.ext`,
      );
      return read(`${leaf}.crt`, `${leaf}.key`);
    },
  };
}

/** Removes the files of this process's certificates. */
export function removeTestCerts(): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
