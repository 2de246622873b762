import test from 'ava';
import { clientLibraryId, preferredCopies, privateLibraryKey, resolveVersion, scopeRank, versionNames } from './library-keys';
import { TagNotFoundError } from '../errors';
import type { LibraryVersionRecord } from '../store/models/library';

const v = (version: string, tags: string[] = [], generation = 1): LibraryVersionRecord => ({
  version,
  ref: version,
  tags,
  commit: 'c',
  generation,
  state: 'finalized',
  totalSnippets: 1,
  totalTokens: 1,
  benchmarkScore: 1,
  lastUpdateDate: new Date(0),
});
const lib = { _id: '/koajs/koa', versions: [v('latest', ['3.2.0']), v('2.16.4'), v('1.0.0', [], 0)] };

test('no version → latest', (t) => {
  t.is(resolveVersion(lib, undefined)?.version, 'latest');
});

test('a tag at the head of the default branch addresses latest', (t) => {
  t.is(resolveVersion(lib, '3.2.0')?.version, 'latest');
  t.is(resolveVersion(lib, 'v3.2.0')?.version, 'latest', 'a leading v is the same version');
});

test('an indexed tag addresses its own version', (t) => {
  t.is(resolveVersion(lib, '2.16.4')?.version, '2.16.4');
});

test('an unknown or unbuilt tag is tag_not_found listing the available versions, never substituted', (t) => {
  const e = t.throws(() => resolveVersion(lib, '2.0.0'), { instanceOf: TagNotFoundError });
  t.is(e?.code, 'tag_not_found');
  t.regex(e?.message ?? '', /3\.2\.0, 2\.16\.4/);
  t.throws(() => resolveVersion(lib, '1.0.0'), { instanceOf: TagNotFoundError }, 'a version whose first build has not finished');
});

test('versionNames lists tags newest first without "latest"', (t) => {
  t.deepEqual(versionNames(lib), ['3.2.0', '2.16.4', '1.0.0']);
});

test('stored keys: a team copy is <id>~<teamId>; the client id is the part before ~', (t) => {
  t.is(privateLibraryKey('/acme/internal', 'team_a'), '/acme/internal~team_a');
  t.is(clientLibraryId('/acme/internal~team_a'), '/acme/internal');
  t.is(clientLibraryId('/acme/internal~public'), '/acme/internal');
  t.is(clientLibraryId('/acme/internal'), '/acme/internal');
});

test("copies: the caller's teams first (in order), then the public one; other teams' never", (t) => {
  const pub = { _id: '/acme/internal', private: false, teamId: null };
  const a = { _id: '/acme/internal~team_a', private: true, teamId: 'team_a' };
  const b = { _id: '/acme/internal~team_b', private: true, teamId: 'team_b' };
  const legacy = { _id: '/acme/old', private: true, teamId: 'team_b' };
  t.is(scopeRank(a, ['team_b', 'team_a']), 1);
  t.is(scopeRank(pub, ['team_b', 'team_a']), 2);
  t.is(scopeRank(a, []), -1);
  t.deepEqual(preferredCopies([pub, a, b, legacy], ['team_a']), [a]);
  t.deepEqual(preferredCopies([pub, a, b, legacy], ['team_b', 'team_a']), [b, legacy]);
  t.deepEqual(preferredCopies([pub, a, b, legacy], []), [pub]);
});
