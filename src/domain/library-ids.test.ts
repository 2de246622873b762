import test from 'ava';
import { locateRepo, parseLibraryId, fileUrl, nameKey, isAddressableVersion, normaliseVersionTag } from './library-ids';
import { InvalidLibraryIdError, ValidationError } from '../errors';

const bases = { github: 'https://github.com', gitlab: 'https://gitlab.com', bitbucket: 'https://bitbucket.org' };

test('parseLibraryId accepts ids with /version and @version', (t) => {
  t.deepEqual(parseLibraryId('/koajs/koa'), { libraryId: '/koajs/koa', version: undefined });
  t.deepEqual(parseLibraryId('/koajs/koa/3.2.0'), { libraryId: '/koajs/koa', version: '3.2.0' });
  t.deepEqual(parseLibraryId('/koajs/koa@v2.16.4'), { libraryId: '/koajs/koa', version: 'v2.16.4' });
  t.deepEqual(parseLibraryId('/openapi/petstore'), { libraryId: '/openapi/petstore', version: undefined });
  t.deepEqual(parseLibraryId('/koajs/koa/latest'), { libraryId: '/koajs/koa', version: undefined });
});

test('parseLibraryId rejects other shapes with invalid_library_id', (t) => {
  for (const bad of ['koajs/koa', '/koa', '/a/b/c/d', '/a/b@', '', '/a/../b', '/a b/c', '//x', '/a/b/c@d']) {
    const e = t.throws(() => parseLibraryId(bad), { instanceOf: InvalidLibraryIdError }, bad);
    t.is(e?.code, 'invalid_library_id');
  }
});

test('locateRepo maps hosted URLs to ids and clone URLs', (t) => {
  t.like(locateRepo('github', 'https://github.com/koajs/koa', bases, []), { libraryId: '/koajs/koa', cloneUrl: 'https://github.com/koajs/koa.git' });
  t.like(locateRepo('github', 'https://github.com/koajs/koa.git/', bases, []), { libraryId: '/koajs/koa' });
  t.like(locateRepo('github', 'https://github.com/koajs/koa/tree/v2.16.4', bases, []), { libraryId: '/koajs/koa', ref: 'v2.16.4' });
  t.like(locateRepo('gitlab', 'https://gitlab.com/acme/tool/-/tree/1.0', bases, []), { libraryId: '/acme/tool', ref: '1.0' });
  t.like(locateRepo('bitbucket', 'https://bitbucket.org/acme/tool', bases, []), { libraryId: '/acme/tool' });
});

test('a URL outside its host base is a 400 naming docsRepoUrl', (t) => {
  for (const [host, url] of [
    ['github', 'https://gitlab.com/a/b'],
    ['github', 'https://github.com.evil.com/a/b'],
    ['github', 'https://github.com/onlyowner'],
    ['github', 'not a url'],
    ['github', 'https://user:pw@github.com/a/b'],
    ['gitlab', 'https://github.com/a/b'],
  ] as const) {
    const e = t.throws(() => locateRepo(host, url, bases, []), { instanceOf: ValidationError }, url);
    t.is(e?.field, 'docsRepoUrl');
  }
});

test('git host needs an allowed prefix and gets a /git/<slug> id', (t) => {
  t.throws(() => locateRepo('git', 'https://git.example.com/x/y.git', bases, []), { instanceOf: ValidationError });
  t.like(locateRepo('git', 'https://git.example.com/team/My_Lib.git', bases, ['https://git.example.com/']), { libraryId: '/git/my_lib' });
});

test('file URLs and name keys', (t) => {
  t.is(fileUrl('github', 'https://github.com/a/b', 'abc', 'docs/x y.md', 3), 'https://github.com/a/b/blob/abc/docs/x%20y.md#L3');
  t.is(fileUrl('gitlab', 'https://gitlab.com/a/b', 'abc', 'x.md', 1), 'https://gitlab.com/a/b/-/blob/abc/x.md#L1');
  t.is(nameKey('Next.js'), 'nextjs');
  t.is(nameKey('react-router'), 'reactrouter');
});

test('locateRepo compares canonical URLs and derives the id and clone URL from the canonical form', (t) => {
  t.throws(() => locateRepo('git', 'http://127.0.0.1:18099/x/y.git', bases, ['http://127.0.0.1:1809/']), { instanceOf: ValidationError });
  t.throws(() => locateRepo('git', 'https://git.example.com/allowed/../secret/y.git', bases, ['https://git.example.com/allowed/']), {
    instanceOf: ValidationError,
  });
  t.throws(() => locateRepo('git', 'https://git.example.com/allowedx/y.git', bases, ['https://git.example.com/allowed']), { instanceOf: ValidationError });
  t.like(locateRepo('git', 'HTTPS://GIT.Example.com:443/team/./sub/../Lib.git/', bases, ['https://git.example.com/team']), {
    libraryId: '/git/lib',
    cloneUrl: 'https://git.example.com/team/Lib.git',
    webUrl: 'https://git.example.com/team/Lib',
  });
  t.like(locateRepo('github', 'https://GitHub.com:443/koajs//koa/', bases, []), { libraryId: '/koajs/koa', cloneUrl: 'https://github.com/koajs/koa.git' });
  const local = { ...bases, github: 'http://127.0.0.1:1809' };
  t.throws(() => locateRepo('github', 'http://127.0.0.1:18099/a/b', local, []), { instanceOf: ValidationError });
  t.like(locateRepo('github', 'http://127.0.0.1:1809/a/b', local, []), { cloneUrl: 'http://127.0.0.1:1809/a/b.git' });
});

test('a repository on the server disk gives repository-relative file URLs (no server path)', (t) => {
  t.is(fileUrl('git', 'file:///srv/repos/team/lib', 'abc', 'docs/x y.md', 3), 'docs/x%20y.md#L3');
  t.is(fileUrl('github', 'FILE:///srv/mirror/a/b', 'abc', 'x.md', 1), 'x.md#L1');
});

test('addressable versions: what a client can send back as /<id>/<version>', (t) => {
  for (const ok of ['1.0.0', 'v2', '2023-10-16', '1.0.0+build.1', '1_x', '.5']) t.true(isAddressableVersion(ok), ok);
  for (const bad of ['../../1', '..', '.', 'release/1.0', 'latest', '1 0', '', '-rc', 'x'.repeat(101), 'v1~2', 'ä']) t.false(isAddressableVersion(bad), bad);
});

test('free-text versions become addressable tags, or none', (t) => {
  t.is(normaliseVersionTag('../../1'), '1');
  t.is(normaliseVersionTag('1.0 (beta)'), '1.0-beta');
  t.is(normaliseVersionTag('2023-10-16'), '2023-10-16');
  t.is(normaliseVersionTag(' v2 / stable '), 'v2-stable');
  t.is(normaliseVersionTag('1.0.0+build'), '1.0.0+build');
  t.is(normaliseVersionTag('café'), 'cafe');
  t.is(normaliseVersionTag('..'), undefined);
  t.is(normaliseVersionTag('latest'), undefined);
  t.is(normaliseVersionTag('///'), undefined);
  t.true((normaliseVersionTag('9'.repeat(300)) ?? '').length <= 100);
});
