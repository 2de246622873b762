import test from 'ava';
import { chooseVersion, parseVersionAsk } from './version-choice';
import { latestIndexed, provenanceLine, provenanceOf } from './provenance';
import type { LibraryRecord, LibraryVersionRecord } from '../store/models/library';

const at = new Date('2026-11-01T10:00:00Z');
const version = (name: string, tags: string[] = [], commit = `c-${name}`): LibraryVersionRecord => ({
  version: name,
  ref: name === 'latest' ? 'main' : name,
  tags,
  commit,
  generation: 1,
  state: 'finalized',
  totalSnippets: 1,
  totalTokens: 1,
  benchmarkScore: 1,
  lastUpdateDate: at,
});
// latest is 3.2.0; 2.16.4 and 2.15.0 are indexed apart; 3.0.0-rc.1 a pre-release.
const lib = {
  _id: '/koajs/koa',
  versions: [version('latest', ['3.2.0'], 'head'), version('2.16.4'), version('2.15.0'), version('3.0.0-rc.1')],
  sourceState: null,
} as Pick<LibraryRecord, '_id' | 'versions' | 'sourceState'>;

test('what a version value asks for: default, exact, range, closest', (t) => {
  t.deepEqual(parseVersionAsk(undefined), { kind: 'default' });
  t.deepEqual(parseVersionAsk('latest'), { kind: 'default' });
  t.deepEqual(parseVersionAsk('2.16.4'), { kind: 'exact', version: '2.16.4' });
  t.deepEqual(parseVersionAsk('3'), { kind: 'exact', version: '3' }, 'a bare number is a name, not a range: never widened silently');
  for (const range of ['^2', '~2.15', '>=2 <3', '2.x', '2 - 3', '*']) t.deepEqual(parseVersionAsk(range), { kind: 'range', range }, range);
  t.deepEqual(parseVersionAsk('closest:2.15.3'), { kind: 'closest', target: '2.15.3' });
  t.deepEqual(parseVersionAsk('closest'), { kind: 'closest', target: undefined });
  t.throws(() => parseVersionAsk('^^x'), { message: /neither a version nor a semver range/ });
  t.throws(() => parseVersionAsk('2.0 (beta)'), { message: /not a version name/ });
});

test('exact versions are served as asked or refused with the indexed ones: never substituted', (t) => {
  const none = chooseVersion(lib, undefined, undefined);
  t.is(none?.record.version, 'latest');
  t.is(none?.served, '3.2.0', 'the default branch is named by its tag');
  t.is(none?.resolution, 'default');
  t.is(none?.requested, null);
  t.is(chooseVersion(lib, undefined, '2.16.4')?.record.version, '2.16.4');
  t.is(chooseVersion(lib, undefined, 'v2.16.4')?.record.version, '2.16.4', 'a leading v is optional');
  t.is(chooseVersion(lib, undefined, '3.2.0')?.record.version, 'latest', 'a tag of the default branch addresses it');
  t.is(chooseVersion(lib, '2.15.0', undefined)?.record.version, '2.15.0', 'the version in the id');
  const error = t.throws(() => chooseVersion(lib, undefined, '2.16.3'));
  t.is((error as { code?: string }).code, 'tag_not_found');
  t.regex(error?.message ?? '', /Available versions: .*2\.16\.4/);
  t.is((error as { details?: { nearest?: string } }).details?.nearest, '2.16.4');
  t.throws(() => chooseVersion(lib, undefined, '3'), { message: /does not exist/ }, '"3" is not widened to 3.2.0');
});

test('ranges serve the newest indexed version in them, pre-releases left out, and say why', (t) => {
  const caret = chooseVersion(lib, undefined, '^2');
  t.is(caret?.record.version, '2.16.4');
  t.is(caret?.resolution, 'range');
  t.is(caret?.requested, '^2');
  t.regex(caret?.reason ?? '', /2\.16\.4 is the newest indexed version in the range "\^2"/);
  t.is(chooseVersion(lib, undefined, '~2.15')?.record.version, '2.15.0');
  t.is(chooseVersion(lib, undefined, '>=3')?.served, '3.2.0', 'through the default branch tag');
  t.is(chooseVersion(lib, undefined, '^v2')?.record.version, '2.16.4', 'a v in a range is read as in tags');
  t.throws(() => chooseVersion(lib, undefined, '^4'), { message: /Version "\^4" of \/koajs\/koa does not exist/ });
});

test('closest is served only when asked, and names what it served', (t) => {
  const near = chooseVersion(lib, undefined, 'closest:2.16.1');
  t.is(near?.record.version, '2.16.4');
  t.is(near?.resolution, 'closest');
  t.is(near?.requested, 'closest:2.16.1');
  t.regex(near?.reason ?? '', /2\.16\.1 is not indexed; 2\.16\.4 is the closest indexed version \(same release line\)/);
  const present = chooseVersion(lib, undefined, 'closest:2.15.0');
  t.is(present?.resolution, 'exact', 'an indexed version asked with closest is simply that version');
  t.is(chooseVersion(lib, '2.16.0', 'closest')?.record.version, '2.16.4', 'closest beside a version in the id');
  t.throws(() => chooseVersion(lib, undefined, 'closest'), { message: /needs a version to be close to/ });
});

test('a version named in the id and another in version is a 400, the same one is fine', (t) => {
  const error = t.throws(() => chooseVersion(lib, '2.15.0', '2.16.4'));
  t.is((error as { code?: string }).code, 'validation_error');
  t.is(chooseVersion(lib, '2.15.0', 'v2.15.0')?.record.version, '2.15.0');
});

test('provenance: served tag, commit and date, latest indexed, newer releases and a branch behind its source', (t) => {
  t.is(latestIndexed(lib), '3.2.0', 'by semver, pre-releases after releases');
  const old = provenanceOf(lib, chooseVersion(lib, undefined, '2.15.0')!);
  t.deepEqual(old.versionServed, { version: '2.15.0', record: '2.15.0', ref: '2.15.0', commit: 'c-2.15.0', indexedAt: at.toISOString() });
  t.is(old.latestIndexed, '3.2.0');
  t.is(old.newerRelease, '3.2.0');
  t.is(old.behindSource, null, 'a tag does not move');
  t.is(old.source, null);
  const seen = { ...lib, sourceState: { checkedAt: new Date('2026-11-02T00:00:00Z'), head: 'newer-head', newestTag: '3.3.0' } };
  const latest = provenanceOf(seen, chooseVersion(seen, undefined, undefined)!);
  t.is(latest.behindSource, true, 'the source head moved past the served commit');
  t.is(latest.newerRelease, '3.3.0', 'a release the source has and the index does not');
  t.deepEqual(latest.source, { checkedAt: '2026-11-02T00:00:00.000Z', newestRelease: '3.3.0' });
  const current = provenanceOf(
    { ...lib, sourceState: { checkedAt: new Date('2026-11-02T00:00:00Z'), head: 'head', newestTag: '3.2.0' } },
    chooseVersion(lib, undefined, undefined)!,
  );
  t.is(current.behindSource, false);
  t.is(current.newerRelease, null);
  const line = provenanceLine(provenanceOf(lib, chooseVersion(lib, undefined, 'closest:2.16.1')!));
  t.is(
    line,
    'Docs: /koajs/koa 2.16.4 @ c-2.16.4, indexed 2026-11-01; asked closest:2.16.1, served 2.16.4 (2.16.1 is not indexed; 2.16.4 is the closest indexed version (same release line)); latest indexed: 3.2.0; newer release: 3.2.0.',
  );
});
