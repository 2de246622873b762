import test from 'ava';
import { mappingOf, pinFor, pinsOf } from './pins';
import type { ProjectPackageRecord } from '../store/models/project';

const pkg = (name: string, version: string, extra: Partial<ProjectPackageRecord> = {}): ProjectPackageRecord => ({
  ecosystem: 'cargo',
  name,
  version,
  direct: false,
  lockfile: 'Cargo.lock',
  libraryId: '/rust-lang/regex',
  matchedBy: 'registry-name',
  alternatives: [],
  ...extra,
});

test('one pin per library: the package named like the repository, then the surest rule, then a direct one, then the newest version; unversioned and unmapped packages pin nothing', (t) => {
  const pins = pinsOf([
    pkg('regex-syntax', '0.8.5', { direct: true, matchedBy: 'registry-name' }),
    pkg('regex', '1.11.1', { matchedBy: 'name' }),
    pkg('serde', '1.0.200', { libraryId: '/serde-rs/serde', matchedBy: 'name', direct: true }),
    pkg('serde', '1.0.229', { libraryId: '/serde-rs/serde', matchedBy: 'name', direct: true }),
    pkg('serde_derive', '1.0.229', { libraryId: '/serde-rs/serde', matchedBy: 'name' }),
    pkg('spring-boot-starter-web', '', { libraryId: '/spring-projects/spring-boot', ecosystem: 'maven' }),
    pkg('left-pad', '1.3.0', { libraryId: null, matchedBy: null }),
    pkg('@koa/router', '13.1.0', { ecosystem: 'npm', libraryId: '/koajs/router', matchedBy: 'registry-name' }),
    pkg('koa-router', '12.0.0', { ecosystem: 'npm', libraryId: '/koajs/router', matchedBy: 'name' }),
  ]);
  t.deepEqual(
    pins.map((p) => `${p.libraryId}@${p.version} (${p.package})`),
    ['/koajs/router@13.1.0 (@koa/router)', '/rust-lang/regex@1.11.1 (regex)', '/serde-rs/serde@1.0.229 (serde)'],
  );
  t.is(pinFor(pins, '/Serde-RS/serde')?.version, '1.0.229');
  t.is(pinFor(pins, '/koajs/koa'), undefined);
});

test('the mapping rate counts the direct packages, or all when the lockfiles do not say', (t) => {
  const p = (direct: boolean, libraryId: string | null) => ({ direct, libraryId });
  t.deepEqual(mappingOf([p(true, '/a/b'), p(true, null), p(false, null), p(false, '/c/d')]), { packages: 4, mapped: 2, direct: 2, directMapped: 1, rate: 0.5 });
  t.deepEqual(mappingOf([p(false, '/a/b'), p(false, null), p(false, null)]), { packages: 3, mapped: 1, direct: 0, directMapped: 0, rate: 0.333 });
  t.is(mappingOf([]).rate, 0);
});
