/**
 * Every lockfile format on a real file (test/fixtures/lockfiles/README.md says where each is
 * from): the packages and versions it locks, and which ones the project asks for itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '../../config';
import { lockfileKind, parseLockfile, type LockedPackage } from './index';
import { pnpmKey } from './npm';

const DIR = path.join(ROOT_DIR, 'test', 'fixtures', 'lockfiles');
const read = (name: string) => parseLockfile(name, fs.readFileSync(path.join(DIR, name), 'utf8')).packages;
const find = (pkgs: LockedPackage[], name: string) => pkgs.filter((p) => p.name === name);

test('package-lock.json v3 (koajs/koa): every installed package at its version; the root asks for 23', (t) => {
  const pkgs = read('package-lock.json');
  t.is(pkgs.length, 62);
  t.deepEqual(find(pkgs, 'accepts'), [{ ecosystem: 'npm', name: 'accepts', version: '1.3.8', direct: true }]);
  t.deepEqual(find(pkgs, 'koa-compose')[0], { ecosystem: 'npm', name: 'koa-compose', version: '4.1.0', direct: true });
  t.is(pkgs.filter((p) => p.direct).length, 18 + 5);
  const app = parseLockfile('package-lock.json', fs.readFileSync(path.join(DIR, 'koa-app', 'package-lock.json'), 'utf8')).packages;
  t.deepEqual(
    app
      .filter((p) => p.direct)
      .map((p) => `${p.name}@${p.version}`)
      .sort(),
    ['@koa/router@13.1.0', 'koa@2.16.4'],
  );
});

test('pnpm-lock.yaml v9 (vuejs/core, a workspace): importers are direct, peer suffixes and workspace links dropped', (t) => {
  const pkgs = read('pnpm-lock.yaml');
  t.deepEqual(
    find(pkgs, '@babel/parser').map((p) => [p.version, p.direct]),
    [['7.29.8', true]],
  );
  // 6.0.0(rollup@4.62.4) is 6.0.0
  t.deepEqual(
    find(pkgs, '@rollup/plugin-alias').map((p) => p.version),
    ['6.0.0'],
  );
  // runtime-core's link:../reactivity is the workspace's own package, not a registry one
  t.false(pkgs.some((p) => p.version.startsWith('link:')));
  t.true(pkgs.every((p) => p.ecosystem === 'npm' && p.version !== ''));
  t.is(pnpmKey('/koa@2.16.4')?.version, '2.16.4');
  t.deepEqual(pnpmKey('/@koa/router/13.1.0'), { name: '@koa/router', version: '13.1.0' });
  t.deepEqual(pnpmKey('@vue/compiler-sfc@3.5.0(vue@3.5.0)'), { name: '@vue/compiler-sfc', version: '3.5.0' });
});

test('yarn.lock v1 (jaredpalmer/formik): one entry per resolved version, several ranges sharing it', (t) => {
  const pkgs = read('yarn.lock');
  t.is(pkgs.length, 80);
  // "@babel/core@7.12.9" and "@babel/core@^7.0.0" resolve to two versions
  t.true(find(pkgs, '@babel/core').length >= 2);
  t.is(find(pkgs, '@algolia/cache-common')[0]?.version, '4.17.1');
});

test('requirements.txt (pallets/flask, pip-compile): pinned names, normalised, comments and -r lines skipped', (t) => {
  const pkgs = read('requirements.txt');
  t.deepEqual(find(pkgs, 'sphinx'), [{ ecosystem: 'pypi', name: 'sphinx', version: '8.2.3', direct: true }]);
  t.is(find(pkgs, 'pytest')[0]?.version, '8.3.5');
  t.is(find(pkgs, 'tox')[0]?.version, '4.25.0');
  t.false(pkgs.some((p) => p.name.includes('users') || p.name.startsWith('-')));
  const loose = parseLockfile(
    'requirements-dev.txt',
    'Django>=4.2  # web\nrequests[socks]==2.32.3 ; python_version > "3.8"\n-r base.txt\ngit+https://x/y.git\nzope.interface===6.0\n',
  ).packages;
  t.deepEqual(
    loose.map((p) => [p.name, p.version]),
    [
      ['django', ''],
      ['requests', '2.32.3'],
      ['zope-interface', '6.0'],
    ],
  );
});

test('poetry.lock (python-poetry/poetry) and uv.lock (pydantic/pydantic)', (t) => {
  const poetry = read('poetry.lock');
  t.is(poetry.length, 15);
  t.is(find(poetry, 'cryptography')[0]?.version, '47.0.0');
  const uv = read('uv.lock');
  t.is(uv.length, 12, 'the project itself (pydantic, editable) is not a dependency');
  t.false(uv.some((p) => p.name === 'pydantic'));
  t.true(find(uv, 'annotated-types')[0]?.direct, 'pydantic depends on annotated-types');
  t.true(find(uv, 'autoflake')[0]?.direct, 'a dev dependency of the project');
  t.false(find(uv, 'aiohappyeyeballs')[0]?.direct);
});

test('go.mod (gin-gonic/gin): require blocks, // indirect marks what the module does not import itself', (t) => {
  const pkgs = read('go.mod');
  t.is(pkgs.length, 35);
  t.deepEqual(find(pkgs, 'github.com/gin-contrib/sse'), [{ ecosystem: 'go', name: 'github.com/gin-contrib/sse', version: 'v1.1.0', direct: true }]);
  t.false(find(pkgs, 'gopkg.in/yaml.v3')[0]?.direct);
  t.is(pkgs.filter((p) => p.direct).length, 15);
});

test('Cargo.lock (BurntSushi/ripgrep, a workspace): members are not packages; their dependencies are direct', (t) => {
  const pkgs = read('Cargo.lock');
  t.false(pkgs.some((p) => p.name === 'ripgrep' || p.name === 'grep-searcher'));
  t.deepEqual(find(pkgs, 'regex')[0], { ecosystem: 'cargo', name: 'regex', version: '1.13.1', direct: true });
  t.true(find(pkgs, 'serde_json')[0]?.direct);
  t.true(find(pkgs, 'winapi-util')[0]?.direct, 'grep-cli, a member, depends on it');
  t.false(find(pkgs, 'windows-sys')[0]?.direct ?? true, 'only winapi-util does');
});

// biome-ignore lint/suspicious/noTemplateCurlyInString: Maven's ${property} syntax, quoted in the message
const PROPERTIES_RESOLVED = 'versions from ${properties} are resolved';
test('pom.xml (spring-projects/spring-petclinic): the parent and the dependencies, managed versions left empty', (t) => {
  const pkgs = read('pom.xml');
  t.deepEqual(pkgs[0], { ecosystem: 'maven', name: 'org.springframework.boot:spring-boot-starter-parent', version: '4.0.3', direct: true });
  t.is(find(pkgs, 'org.springframework.boot:spring-boot-starter-actuator')[0]?.version, '');
  t.true(
    pkgs.some((p) => p.version !== '' && p.name !== 'org.springframework.boot:spring-boot-starter-parent'),
    PROPERTIES_RESOLVED,
  );
  t.throws(() => parseLockfile('pom.xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><project>&e;</project>'), {
    message: /DOCTYPE/,
  });
});

test('Gemfile.lock (maybe-finance/maybe, a Rails app): specs with versions; DEPENDENCIES are direct', (t) => {
  const pkgs = read('Gemfile.lock');
  t.deepEqual(find(pkgs, 'aasm'), [{ ecosystem: 'rubygems', name: 'aasm', version: '5.5.1', direct: true }]);
  t.is(find(pkgs, 'puma')[0]?.version, '6.6.0');
  t.true(find(pkgs, 'rails')[0]?.direct);
  t.false(find(pkgs, 'actioncable')[0]?.direct);
});

test('file names pick the format; anything else is a 400 naming the field', (t) => {
  t.is(lockfileKind('services/api/go.mod'), 'go.mod');
  t.is(lockfileKind('requirements/dev.txt'), 'requirements.txt');
  t.is(lockfileKind('README.md'), null);
  const bad = (name: string, text: string) => t.throws(() => parseLockfile(name, text), { message: /./ });
  for (const [name, text] of [
    ['notes.txt', 'x'],
    ['package-lock.json', '{'],
    ['pnpm-lock.yaml', 'a: [1'],
    ['Cargo.lock', 'version = '],
    ['go.mod', 'require x v1'],
    ['Gemfile.lock', 'nothing'],
    ['pom.xml', '<nope/>'],
    ['package-lock.json', 'a\u0000b'],
  ])
    bad(name, text);
  const error = t.throws(() => parseLockfile('package-lock.json', '{'));
  t.is((error as { code?: string }).code, 'validation_error');
  t.is((error as { details?: { field?: string } }).details?.field, 'lockfile');
});
