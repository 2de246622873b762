import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from './config';

const base = { ELASTICSEARCH_URL: 'http://127.0.0.1:9200', MONGODB_URI: 'mongodb://127.0.0.1:27017/', SHELFMARK_SECRET: 'x'.repeat(32) };

test('defaults apply', (t) => {
  const c = loadConfig(base);
  t.is(c.port, 3000);
  t.is(c.indexPrefix, 'shelfmark');
  t.is(c.gitHosts.github, 'https://github.com');
  t.true(Object.isFrozen(c));
});

test('a bad value stops start-up naming the variable', (t) => {
  const e = t.throws(() => loadConfig({ ...base, PORT: 'eighty' }), { instanceOf: ConfigError });
  t.regex(e.message, /PORT/);
  const e2 = t.throws(() => loadConfig({ ...base, MONGODB_URI: 'http://x' }), { instanceOf: ConfigError });
  t.regex(e2.message, /MONGODB_URI/);
  const e3 = t.throws(() => loadConfig({ ...base, SHELFMARK_INDEX_PREFIX: 'Bad Prefix' }), { instanceOf: ConfigError });
  t.regex(e3.message, /SHELFMARK_INDEX_PREFIX/);
});

test('missing store URLs say how to provision them', (t) => {
  const e = t.throws(() => loadConfig({ SHELFMARK_SECRET: 'x'.repeat(32), SHELFMARK_DATA_DIR: '/nonexistent-shelfmark' }), { instanceOf: ConfigError });
  t.regex(e.message, /ELASTICSEARCH_URL|MONGODB_URI/);
  t.regex(e.message, /services -- up/);
});

test('lists are split on commas', (t) => {
  const c = loadConfig({ ...base, GIT_ALLOWED_URL_PREFIXES: 'http://a/, http://b/' });
  t.deepEqual(c.gitAllowedPrefixes, ['http://a/', 'http://b/']);
});

test('GIT_ALLOWED_URL_PREFIXES entries must be usable URLs', (t) => {
  for (const bad of ['https://user:pw@git.example.com/', 'git.example.com/team', 'https://h/?x=1', 'file:///nonexistent-shelfmark-prefix']) {
    const e = t.throws(() => loadConfig({ ...base, GIT_ALLOWED_URL_PREFIXES: bad }), { instanceOf: ConfigError }, bad);
    t.regex(e.message, /GIT_ALLOWED_URL_PREFIXES/);
  }
});

test('WEB_ALLOWED_HOSTS takes names and CIDRs; a bad entry stops start-up naming the variable', (t) => {
  t.deepEqual(loadConfig({ ...base, WEB_ALLOWED_HOSTS: 'docs.internal, 10.0.0.0/8' }).web.allowedHosts, ['docs.internal', '10.0.0.0/8']);
  t.deepEqual(loadConfig(base).web.allowedHosts, []);
  for (const bad of ['10.0.0.0/40', 'http://docs/']) {
    const e = t.throws(() => loadConfig({ ...base, WEB_ALLOWED_HOSTS: bad }), { instanceOf: ConfigError }, bad);
    t.regex(e.message, /WEB_ALLOWED_HOSTS/);
  }
});

test('GIT_CA_FILE must be a readable PEM bundle; GIT_TLS_PINNED entries are parsed', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-cfg-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'not-pem.txt'), 'hello');
  for (const bad of [path.join(dir, 'missing.pem'), path.join(dir, 'not-pem.txt')]) {
    const e = t.throws(() => loadConfig({ ...base, GIT_CA_FILE: bad }), { instanceOf: ConfigError }, bad);
    t.regex(e.message, /GIT_CA_FILE: must be a readable PEM file/);
  }
  const system = ['/etc/ssl/certs/ca-certificates.crt', '/etc/ssl/cert.pem'].find((f) => fs.existsSync(f));
  if (system) t.is(loadConfig({ ...base, GIT_CA_FILE: system }).gitTls.caFile, system);
  t.deepEqual(loadConfig(base).gitTls, { caFile: undefined, pins: [] });

  const pin = `git.internal:8443=sha256/${'0A'.repeat(32)}`;
  t.deepEqual(loadConfig({ ...base, GIT_TLS_PINNED: pin }).gitTls.pins, [{ host: 'git.internal', port: 8443, sha256: '0A'.repeat(32) }]);
  const e = t.throws(() => loadConfig({ ...base, GIT_TLS_PINNED: 'git.internal=abc' }), { instanceOf: ConfigError });
  t.regex(e.message, /GIT_TLS_PINNED/);
});

test("REFRESH_DEFAULT_HOURS sets each source kind's schedule; unnamed kinds never refresh", (t) => {
  t.deepEqual(loadConfig(base).refreshDefaultHours, { github: 24, gitlab: 24, bitbucket: 24, git: 24, website: 72, llmstxt: 24 });
  t.deepEqual(loadConfig({ ...base, REFRESH_DEFAULT_HOURS: 'github=6, git=0' }).refreshDefaultHours, {
    github: 6,
    gitlab: 0,
    bitbucket: 0,
    git: 0,
    website: 0,
    llmstxt: 0,
  });
  for (const bad of ['github', 'openapi=3', 'github=-1', 'github=99999', 'gitlab=two']) {
    const e = t.throws(() => loadConfig({ ...base, REFRESH_DEFAULT_HOURS: bad }), { instanceOf: ConfigError }, bad);
    t.regex(e.message, /REFRESH_DEFAULT_HOURS/);
  }
});
