import test from 'ava';
import { nearestVersion, selectVersions, tagMatches, versionRuleInput } from './version-rule';

const tags = ['v1.0.0', 'v1.0.1', 'v1.1.0', 'v1.2.0', 'v1.2.3', 'v2.0.0-beta.1', 'v2.0.0', 'v2.0.1', 'nightly', 'release/3', 'docs-2024'];

test('minors: the latest patch of each of the last N minor lines, pre-releases left out', (t) => {
  t.deepEqual(selectVersions({ kind: 'minors', count: 3 }, tags), ['v2.0.1', 'v1.2.3', 'v1.1.0']);
  t.deepEqual(selectVersions({ kind: 'minors', count: 1 }, ['1.0.0', '1.0.10', '1.0.9']), ['1.0.10'], 'numeric, not string, order');
});

test('range: every release in a semver range; pattern: a glob over addressable tags', (t) => {
  t.deepEqual(selectVersions({ kind: 'range', range: '>=1.1.0 <2' }, tags), ['v1.2.3', 'v1.2.0', 'v1.1.0']);
  t.deepEqual(selectVersions({ kind: 'range', range: '^2' }, tags), ['v2.0.1', 'v2.0.0']);
  t.deepEqual(selectVersions({ kind: 'pattern', pattern: 'docs-*' }, tags), ['docs-2024']);
  t.deepEqual(selectVersions({ kind: 'pattern', pattern: 'release*' }, tags), [], 'release/3 cannot be addressed');
  t.true(tagMatches({ kind: 'range', range: '^2' }, 'v2.1.0'));
  t.false(tagMatches({ kind: 'pattern', pattern: 'v1.*' }, 'v2.1.0'));
  t.is(tagMatches({ kind: 'minors', count: 2 }, 'v2.1.0'), 'check');
});

test('rules are validated with a message naming the field', (t) => {
  t.true(versionRuleInput.safeParse({ kind: 'minors', count: 3 }).success);
  t.true(versionRuleInput.safeParse(null).success);
  for (const bad of [{ kind: 'minors', count: 0 }, { kind: 'range', range: 'not a range!!' }, { kind: 'latest' }, 'v1.*', { kind: 'pattern', pattern: '' }]) {
    const r = versionRuleInput.safeParse(bad);
    t.false(r.success, JSON.stringify(bad));
    if (!r.success) t.regex(r.error.issues[0].message, /versionRule/);
  }
});

test('the nearest indexed version: same release line first, else the longest shared prefix', (t) => {
  t.is(nearestVersion('v1.2.4', ['v2.0.1', 'v1.2.3', 'v1.1.0']), 'v1.2.3');
  t.is(nearestVersion('1.1', ['v2.0.1', 'v1.2.3', 'v1.1.0']), 'v1.1.0');
  t.is(nearestVersion('nightly-2', ['stable', 'nightly']), 'nightly');
  t.is(nearestVersion('v1', []), null);
});
