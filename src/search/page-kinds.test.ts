import test from 'ava';
import { changeQuestion, majorOf, pageKindFactor, targetVersions } from './page-kinds';
import { SEARCH_WEIGHTS } from './weights';

const w = SEARCH_WEIGHTS.pageKinds;

test('changeQuestion: whether a question asks what changed, the versions it goes to, and the ones it leaves', (t) => {
  const cases: [string, string, boolean, number[], number[]][] = [
    ['how do I set a cookie', '/koajs/koa', false, [], []],
    ['what changed in koa 3', '/koajs/koa', true, [3], []],
    ["what's new in version 2.0", '/pallets/flask', true, [2], []],
    ['8 -> 9 breaking changes', '/Automattic/mongoose', true, [9], []],
    ['mongoose 8 → 9 breaking changes', '/Automattic/mongoose', true, [9], []],
    ['upgrade from v2 to v3', '/koajs/koa', true, [3], []],
    ['koa 2 to 3 migration', '/koajs/koa', true, [3], []],
    ['what changed from koa 2', '/koajs/koa', true, [], [2]],
    ['is findById deprecated?', '/Automattic/mongoose', true, [], []],
    ['migrating to mongoose 9', '/Automattic/mongoose', true, [9], []],
    ['release notes of vite 8', '/vitejs/vite', true, [8], []],
    ['what changed between 1.4 and 2.0', '/sqlalchemy/sqlalchemy', true, [2], []],
    ['after moving to express 5, req.body is undefined', '/expressjs/expressjs.com', true, [5], []],
    ['how do I use http2 and es2015 modules', '/encode/httpx', false, [], []],
    ['set the timeout to 30 seconds', '/psf/requests', false, [], []],
    // Two versions compared ask what changed, towards the newer one; plain numbers compared do not.
    ['express 5 vs 4: do async handlers still need try/catch', '/expressjs/expressjs.com', true, [5], []],
    ['koa 2 vs. koa 3', '/koajs/koa', true, [3], []],
    ['zod v3 versus v4 error maps', '/colinhacks/zod', true, [4], []],
    ['version 3 compared to 4', '/koajs/koa', true, [4], []],
    ['koa vs express: why no router', '/koajs/koa', false, [], []],
    ['5 vs 10 retries', '/psf/requests', false, [], []],
  ];
  for (const [query, library, asks, versions, from] of cases) {
    const { aboutError: _aboutError, ...change } = changeQuestion(query, library);
    t.deepEqual(change, { asksWhatChanged: asks, versions, from }, query);
  }
});

test('majorOf reads tags and page versions; branches have none', (t) => {
  t.deepEqual(['3.2.0', 'v4', '2.0', '9', ' 1.4 ', 'latest', 'main', '', undefined].map(majorOf), [3, 4, 2, 9, 1, undefined, undefined, undefined, undefined]);
});

test('targetVersions: the versions named, else the served major, else the newest version a change page of the pool is about', (t) => {
  const pool = [
    { pageKind: 'migration' as const, pageVersion: '8' },
    { pageKind: 'changelog' as const, pageVersion: '9.1' },
    { pageKind: 'guide' as const, pageVersion: '12' },
    { pageKind: 'migration' as const },
  ];
  t.deepEqual(targetVersions(changeQuestion('koa 2 to 3 migration', '/koajs/koa'), '3.2.0', pool), [3]);
  t.deepEqual(targetVersions(changeQuestion('what changed from koa 2', '/koajs/koa'), '3.2.0', pool), [3], 'leaving 2 on 3: the guide to 3');
  t.deepEqual(targetVersions(changeQuestion('what changed from koa 2', '/koajs/koa'), '2.16.4', pool), [3], 'leaving 2 on 2: the next one');
  t.deepEqual(targetVersions(changeQuestion('breaking changes'), '3.2.0', pool), [3]);
  t.deepEqual(targetVersions(changeQuestion('breaking changes'), 'main', pool), [9], 'a guide carries no version that counts');
  t.deepEqual(targetVersions(changeQuestion('breaking changes'), 'latest', [{ pageKind: 'guide' }]), []);
});

test("pageKindFactor: guides, reference and examples are never weighed; maintainers' pages and stubs always are", (t) => {
  for (const query of ['how do I set a cookie', 'what changed in koa 3']) {
    const question = changeQuestion(query);
    for (const pageKind of ['guide', 'reference', 'example', undefined] as const)
      t.is(pageKindFactor({ pageKind }, question, [3]), 1, `${pageKind} / ${query}`);
    t.is(pageKindFactor({ pageKind: 'internal' }, question, [3]), w.internal);
    t.is(pageKindFactor({ pageKind: 'stub' }, question, [3]), w.internal);
  }
});

test('changeQuestion: whether a question is about an error or a warning', (t) => {
  const about = [
    'svelte warns Mutating unbound props is strongly discouraged',
    'PydanticUserError: `Order` is not fully defined; you should define `Item`',
    'OperationalError (2006, MySQL server has gone away) after a night idle',
    'why does my test fail with a 404',
    'props_invalid_pattern when destructuring',
    'the build throws on an import',
    'req.body is undefined in my POST handler',
    'error handling',
  ];
  for (const query of about) t.true(changeQuestion(query).aboutError, query);
  const not = ['context', 'each blocks', 'model config', 'how do I set a cookie', 'url_for with _external', 'share a reactive value with nested children'];
  for (const query of not) t.false(changeQuestion(query).aboutError, query);
});

test('pageKindFactor: an error catalogue weighs less unless the question is about an error', (t) => {
  t.is(pageKindFactor({ pageKind: 'errors' }, changeQuestion('context'), [5]), w.errorsForOther);
  t.is(pageKindFactor({ pageKind: 'errors' }, changeQuestion('how do I pass props to a child'), [5]), w.errorsForOther);
  t.is(pageKindFactor({ pageKind: 'errors' }, changeQuestion('svelte warns that a prop is mutated'), [5]), 1);
  t.true(w.errorsForOther < 1);
});

test('pageKindFactor: changelogs, migration guides and posts are demoted for a how-to question, more for another version', (t) => {
  const howTo = changeQuestion('how do I set a cookie');
  t.is(pageKindFactor({ pageKind: 'blog' }, howTo, [3]), w.blog);
  t.is(pageKindFactor({ pageKind: 'changelog' }, howTo, [3]), w.changeForHowTo);
  t.is(pageKindFactor({ pageKind: 'migration', pageVersion: '3' }, howTo, [3]), w.changeForHowTo);
  t.is(pageKindFactor({ pageKind: 'migration', pageVersion: '2' }, howTo, [3]), w.otherVersionForHowTo);
  t.is(pageKindFactor({ pageKind: 'migration', pageVersion: '2' }, howTo, []), w.changeForHowTo, 'no target: no version is other');
  t.true(w.otherVersionForHowTo < w.changeForHowTo && w.changeForHowTo < 1 && w.blog < 1);
});

test('pageKindFactor: for what changed, the page about the version asked leads, then undated ones, then other versions', (t) => {
  const question = changeQuestion('mongoose 8 → 9 breaking changes');
  const targets = targetVersions(question, '9.9.3', []);
  const factor = (pageVersion?: string) => pageKindFactor({ pageKind: 'migration', pageVersion }, question, targets);
  t.is(factor('9'), w.targetForChange);
  t.is(factor(undefined), w.changeForChange);
  t.is(factor('7'), w.otherVersionForChange);
  t.is(factor('4'), w.otherVersionForChange);
  t.true(w.targetForChange > w.changeForChange && w.changeForChange > 1 && w.otherVersionForChange < 1);
  t.is(pageKindFactor({ pageKind: 'blog' }, question, targets), w.blogForChange);
  // The version served when the question names none: on koa 3.2.0, the guide to 3 and not the one to 2.
  const served = targetVersions(changeQuestion('what changed?'), '3.2.0', []);
  t.is(pageKindFactor({ pageKind: 'migration', pageVersion: '3' }, changeQuestion('what changed?'), served), w.targetForChange);
  t.is(pageKindFactor({ pageKind: 'migration', pageVersion: '2' }, changeQuestion('what changed?'), served), w.otherVersionForChange);
});
