import test from 'ava';
import { joiningVersion } from './merged-sources';
import { redirectMergedSources } from './find';
import type { LibraryVersionRecord } from '../store/models/library';
import type { LibrarySummary } from '../search/types';

const v = (version: string, generation = 5): LibraryVersionRecord =>
  ({
    version,
    ref: version,
    tags: [],
    commit: '',
    generation,
    state: 'finalized',
    totalSnippets: 1,
    totalTokens: 1,
    benchmarkScore: 0,
    lastUpdateDate: new Date(0),
  }) as LibraryVersionRecord;

test("a source's version of the same name joins it; its default version joins only the pinned one", (t) => {
  const website = { versions: [v('latest')] };
  t.is(joiningVersion(website, { joins: 'latest' }, 'latest')?.version, 'latest');
  t.is(joiningVersion(website, { joins: 'latest' }, 'v3.2.0'), undefined, 'a website has no tags: older versions are served from the repository alone');
  t.is(joiningVersion(website, { joins: 'v3.2.0' }, 'v3.2.0')?.version, 'latest', 'pinned to a tag');
  t.is(joiningVersion(website, { joins: 'v3.2.0' }, 'latest'), undefined);
  const tagged = { versions: [v('latest'), v('v2.16.4')] };
  t.is(joiningVersion(tagged, { joins: 'latest' }, 'v2.16.4')?.version, 'v2.16.4');
  // An OpenAPI upload or archive whose only version is named by itself.
  t.is(joiningVersion({ versions: [v('1.0.0')] }, { joins: 'latest' }, 'latest')?.version, '1.0.0');
  t.is(joiningVersion({ versions: [v('latest', 0)] }, { joins: 'latest' }, 'latest'), undefined, 'never built: nothing joins');
});

const summary = (id: string, mergedInto?: string): LibrarySummary => ({
  id,
  title: id,
  description: '',
  branch: '',
  lastUpdateDate: new Date(0),
  state: 'finalized',
  totalTokens: 0,
  totalSnippets: 0,
  benchmarkScore: 0,
  versions: [],
  ...(mergedInto ? { mergedInto } : {}),
});

test('library search answers a merged source as its library, once', (t) => {
  const out = redirectMergedSources([summary('/websites/koajs-com', '/koajs/koa'), summary('/other/lib'), summary('/koajs/koa')]);
  t.deepEqual(
    out.map((s) => s.id),
    ['/other/lib', '/koajs/koa'],
  );
  const alone = redirectMergedSources([summary('/websites/koajs-com', '/koajs/koa'), summary('/other/lib')]);
  t.deepEqual(
    alone.map((s) => [s.id, s.redirectedFrom]),
    [
      ['/koajs/koa', '/websites/koajs-com'],
      ['/other/lib', undefined],
    ],
  );
});
