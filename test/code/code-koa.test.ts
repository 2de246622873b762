/**
 * The code tools on a real repository: koa at v2.16.4 and at its default branch, cloned from
 * the local mirror into the test Git server and indexed through the real pipeline. Every
 * expected answer is read from Git itself at the same commit (git grep, git show), so the
 * tools must answer over exactly the tree the version was indexed from.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, type GitServer } from '../git-server';
import { adminKey } from '../helpers';

const MIRROR = process.env.SHELFMARK_KOA_MIRROR ?? '/work/.mirror/koajs+koa/repo';
const real = fs.existsSync(MIRROR) ? test.serial : test.serial.skip;

let git: GitServer;
let app: TestApp;
let key: string;
const gitAt = (...args: string[]) => execFileSync('git', [`--git-dir=${MIRROR}`, ...args], { maxBuffer: 64 << 20 }).toString();
const V2 = 'v2.16.4';

test.before(async () => {
  if (!fs.existsSync(MIRROR)) return;
  git = await startGitServer();
  execFileSync('git', ['clone', '-q', '--bare', MIRROR, path.join(git.root, 'koajs', 'koa.git')]);
  app = await createTestApp({
    GITHUB_BASE_URL: git.url,
    GIT_ALLOWED_URL_PREFIXES: `${git.url}/`,
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
    RATE_LIMIT_KEY_PER_MINUTE: '100000',
  });
  key = await adminKey(app);
  for (const url of [`${git.url}/koajs/koa/tree/${V2}`, `${git.url}/koajs/koa`]) {
    const res = await app.request.post('/v2/add/repo/github').set('authorization', `Bearer ${key}`).send({ docsRepoUrl: url });
    if (res.status !== 200) throw new Error(`adding ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  }
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const code = (query: Record<string, string | number | boolean>) =>
  app.request
    .get('/v2/code')
    .set('authorization', `Bearer ${key}`)
    .query({ libraryId: '/koajs/koa', type: 'json', limit: 200, ...query });
/** `path:line` of git grep's hits at a commit, as the tools report them. */
const grep = (ref: string, ...args: string[]) =>
  gitAt('grep', '-n', ...args, ref)
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) =>
      l
        .slice(ref.length + 1)
        .split(':')
        .slice(0, 2)
        .join(':'),
    )
    .sort();
const hits = (body: { matches: Array<{ path: string; line: number }> }) => body.matches.map((m) => `${m.path}:${m.line}`).sort();
const lineOf = (ref: string, file: string, pattern: RegExp) =>
  gitAt('show', `${ref}:${file}`)
    .split('\n')
    .findIndex((l) => pattern.test(l)) + 1;

real('each version keeps the tree of its own commit and says which it read', async (t) => {
  const lib = await app.services.libraries.get('/koajs/koa', { fresh: true });
  for (const [version, ref] of [
    [V2, V2],
    [undefined, 'HEAD'],
  ] as const) {
    const commit = gitAt('rev-parse', `${ref}^{commit}`).trim();
    const res = await code({ operation: 'outline', path: 'lib', ...(version ? { version } : {}) });
    t.is(res.status, 200, JSON.stringify(res.body));
    t.is(res.body.tree.commit, commit);
    t.is(res.body.provenance.versionServed.commit, commit);
    t.true(lib?.versions.some((v) => v.commit === commit));
    t.deepEqual(
      res.body.files,
      gitAt('ls-tree', '--name-only', `${ref}:lib`)
        .trim()
        .split('\n')
        .map((f) => `lib/${f}`),
    );
  }
  const txt = await app.request.get('/v2/code').query({ libraryId: `/koajs/koa/${V2}`, operation: 'outline', path: 'lib' });
  t.regex(txt.text, new RegExp(`^Code: /koajs/koa ${V2} @ ${gitAt('rev-parse', `${V2}^{commit}`).trim().slice(0, 12)}`));
  t.is(txt.headers['x-shelfmark-version-served'], V2);
});

real("search: literal, case-insensitive and regex answers are git grep's at the same commit", async (t) => {
  for (const [version, ref] of [
    [V2, V2],
    ['latest', 'HEAD'],
  ] as const) {
    const literal = await code({ operation: 'search', query: 'ctx.throw(', version });
    t.deepEqual(hits(literal.body), grep(ref, '-F', 'ctx.throw('), `literal at ${ref}`);
    const insensitive = await code({ operation: 'search', query: 'content-type', version });
    t.deepEqual(hits(insensitive.body), grep(ref, '-i', '-F', 'content-type'), `smart case at ${ref}`);
    const regex = await code({ operation: 'search', query: '^function \\w+\\(', regex: true, version });
    t.deepEqual(hits(regex.body), grep(ref, '-E', '^function \\w+\\('), `regex at ${ref}`);
  }
  const scoped = await code({ operation: 'search', query: 'respond', path: 'lib/*.js', version: V2 });
  t.true(scoped.body.matches.length > 0);
  t.true(scoped.body.matches.every((m: { path: string }) => m.path.startsWith('lib/')));
  const capped = await code({ operation: 'search', query: 'ctx', version: V2, limit: 5 });
  t.is(capped.body.matches.length, 5);
  t.is(capped.body.stoppedBy, 'limit');
});

real('definition and references of a symbol, from the grammar and the identifiers', async (t) => {
  const use = await code({ operation: 'definition', query: 'Application.use', version: V2 });
  t.deepEqual(
    use.body.symbols.map((s: { path: string; line: number; kind: string }) => [s.path, s.line, s.kind]),
    [['lib/application.js', lineOf(V2, 'lib/application.js', /^\s+use\s*\(fn\)\s*\{/), 'method']],
  );
  const respond = await code({ operation: 'definition', query: 'respond', version: V2 });
  t.is(respond.body.symbols[0].path, 'lib/application.js');
  t.is(respond.body.symbols[0].line, lineOf(V2, 'lib/application.js', /^function respond\(/));

  const refs = await code({ operation: 'references', query: 'respond', version: V2 });
  t.deepEqual(hits(refs.body), grep(V2, '-w', 'respond'));
  const declared = refs.body.matches.filter((m: { kind: string }) => m.kind === 'definition');
  t.deepEqual(
    declared.map((m: { path: string; line: number }) => `${m.path}:${m.line}`),
    [`lib/application.js:${respond.body.symbols[0].line}`],
  );
  const txt = await app.request.get('/v2/code').query({ libraryId: '/koajs/koa', version: V2, operation: 'references', query: 'respond' });
  t.regex(txt.text, /references of respond \(\* marks a declaration\): \d+ lines in \d+ files/);
});

real('outline of a file and a range of lines read as written', async (t) => {
  const outline = await code({ operation: 'outline', path: 'lib/application.js', version: V2 });
  const names = outline.body.symbols.map(
    (s: { kind: string; name: string; container?: string }) => `${s.kind} ${s.container ? `${s.container}.` : ''}${s.name}`,
  );
  for (const expected of ['class Application', 'method Application.listen', 'method Application.use', 'method Application.callback', 'function respond'])
    t.true(names.includes(expected), expected);
  const file = gitAt('show', `${V2}:lib/application.js`).split('\n');
  const read = await code({ operation: 'read', path: 'lib/application.js', startLine: 120, endLine: 140, version: V2 });
  t.is(read.body.file.text, file.slice(119, 140).join('\n'));
  t.is(read.body.file.totalLines, file.length);
  const txt = await app.request
    .get('/v2/code')
    .query({ libraryId: '/koajs/koa', version: V2, operation: 'read', path: 'lib/application.js', startLine: 1, endLine: 3 });
  t.regex(
    txt.text,
    new RegExp(`lib/application.js lines 1-3 of ${file.length} \\(read on with startLine=4\\):\\n\\n1\\| ${file[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
  );
});

real('bad input is a clear 4xx and names the field', async (t) => {
  const cases: Array<[Record<string, string | number>, number, string, RegExp]> = [
    [{ operation: 'read', path: 'lib/nope.js' }, 404, 'not_found', /lib\/nope\.js is not a kept file/],
    [{ operation: 'search', query: '(unclosed', regex: 'true' }, 400, 'validation_error', /not a valid regular expression/],
    [{ operation: 'search' }, 400, 'validation_error', /search needs query/],
    [{ operation: 'definition', query: 'a b' }, 400, 'validation_error', /symbol name/],
    [{ operation: 'read', path: 'lib/application.js', startLine: 999999 }, 400, 'validation_error', /startLine must be a line/],
    [{ operation: 'grep', query: 'x' }, 400, 'validation_error', /operation/],
    [{ operation: 'search', query: 'x', version: '9.9.9' }, 404, 'tag_not_found', /Available versions/],
  ];
  for (const [query, status, error, message] of cases) {
    const res = await code(query);
    t.is(res.status, status, JSON.stringify(query));
    t.is(res.body.error, error);
    t.regex(res.body.message, message);
  }
});
