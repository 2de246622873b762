import test from 'ava';
import type { ParsedSnippet } from '../types';
import { renderSnippetText } from '../../search/format/txt';
import { SNIPPET_BOUNDS } from './bounds';
import { finishSnippets, type FinishContext } from './finish';
import { countTokens } from './tokens';
import { cpuMs } from '../../util/cpu-time';

const ctx: FinishContext = {
  libraryId: '/koajs/koa',
  version: 'latest',
  fileUrl: (path, line) => `https://github.com/koajs/koa/blob/abc123/${path}#L${line}`,
  fileHashes: new Map([['docs/api/context.md', 'blob-1']]),
};

const code = (over: Partial<ParsedSnippet> = {}): ParsedSnippet => ({
  kind: 'code',
  title: 'Setting a cookie',
  breadcrumb: ['Context', 'API', 'ctx.cookies.set()'],
  pageTitle: 'Context',
  description: 'Set a signed cookie on the response.',
  content: '',
  language: 'js',
  code: "ctx.cookies.set('name', 'tobi', { signed: true });",
  path: 'docs/api/context.md',
  startLine: 12,
  ...over,
});

const info = (over: Partial<ParsedSnippet> = {}): ParsedSnippet => ({
  kind: 'info',
  title: 'Context',
  breadcrumb: ['Context'],
  pageTitle: 'Context',
  description: '',
  content: 'A Koa Context encapsulates node request and response objects into a single object.',
  language: '',
  code: '',
  path: 'docs/api/context.md',
  startLine: 1,
  ...over,
});

test('identity, URL, file hash and empty search fields', (t) => {
  const [doc] = finishSnippets([code()], ctx);
  t.is(doc.libraryId, '/koajs/koa');
  t.is(doc.version, 'latest');
  t.is(doc.generation, 0);
  t.is(doc.url, 'https://github.com/koajs/koa/blob/abc123/docs/api/context.md#L12');
  t.is(doc.fileHash, 'blob-1');
  t.is(finishSnippets([code({ path: 'other.md' })], ctx)[0].fileHash, '', 'unknown files have no hash');
  t.regex(doc.id, /^[0-9a-f]{24}$/);
  for (const field of ['searchTitle', 'searchBreadcrumb', 'searchBody', 'searchCode', 'searchPath', 'searchIdentifiers'] as const) t.is(doc[field], '');
});

test('ids are stable and depend on library, version, path, line, kind and text', (t) => {
  const id = (s: ParsedSnippet, c: FinishContext = ctx) => finishSnippets([s], c)[0].id;
  t.is(id(code()), id(code()));
  t.is(id(code({ title: 'Another title', description: 'Other words here.' })), id(code()), 'titles and descriptions are not identity');
  const ids = new Set([
    id(code()),
    id(code(), { ...ctx, libraryId: '/koajs/other' }),
    id(code(), { ...ctx, version: '2.16.4' }),
    id(code({ path: 'docs/api/request.md' })),
    id(code({ startLine: 13 })),
    id(code({ code: 'ctx.body = 1;' })),
    id(info({ startLine: 12 })),
  ]);
  t.is(ids.size, 7);
});

test('tokens count the snippet as a client receives it', (t) => {
  const [c, i] = finishSnippets([code(), info()], ctx);
  t.is(c.tokens, countTokens(renderSnippetText(c)));
  t.is(i.tokens, countTokens(renderSnippetText(i)));
  t.true(c.tokens > 20 && i.tokens > 15);
});

test('sizes are bounded: code, description, content, titles', (t) => {
  const longCode = Array.from({ length: 2000 }, (_, n) => `console.log(${n});`).join('\n');
  const longProse = 'Koa is small and expressive. '.repeat(300);
  const [c, i] = finishSnippets(
    [code({ code: longCode, description: longProse, title: 'T'.repeat(500) }), info({ content: longProse, breadcrumb: ['B'.repeat(300), 'Context'] })],
    ctx,
  );
  t.true(c.code.length <= SNIPPET_BOUNDS.code && c.code.endsWith('\n...'));
  t.true(
    c.code
      .split('\n')
      .slice(0, -1)
      .every((l) => /^console\.log\(\d+\);$/.test(l)),
    'cut at a line boundary',
  );
  t.true(c.description.length <= SNIPPET_BOUNDS.description && c.description.endsWith('...'));
  t.true(c.title.length <= SNIPPET_BOUNDS.title);
  t.true(i.content.length <= SNIPPET_BOUNDS.content && /expressive\. \.\.\.$/.test(i.content), 'cut at a sentence');
  t.true(i.breadcrumb[0].length <= SNIPPET_BOUNDS.title);
});

test('empty snippets are dropped; blank lines around code are trimmed', (t) => {
  const out = finishSnippets(
    [code({ code: '  \n\n ' }), info({ content: ' \n ' }), info({ content: '---- *** ----' }), code({ code: '\n\n  x = 1\n\n' })],
    ctx,
  );
  t.is(out.length, 1);
  t.is(out[0].code, '  x = 1');
});

test('a missing title falls back to the page title, then the file name', (t) => {
  t.is(finishSnippets([code({ title: ' ' })], ctx)[0].title, 'Context');
  t.is(finishSnippets([code({ title: '', pageTitle: '' })], ctx)[0].title, 'context.md');
});

test("kind-specific fields are cleared: an info snippet has no code, language or description; a code snippet keeps its section's Markdown", (t) => {
  const section = "Set a signed cookie on the response.\n\n```js\nctx.cookies.set('name', 'tobi', { signed: true });\n```";
  const [c, i] = finishSnippets([code({ content: `  ${section}\n` }), info({ code: 'stray', language: 'js', description: 'stray' })], ctx);
  t.is(c.content, section);
  t.is(c.code, "ctx.cookies.set('name', 'tobi', { signed: true });");
  t.is(c.language, 'js');
  t.is(i.code, '');
  t.is(i.language, '');
  t.is(i.description, '');
});

test('page kind, page version and section part are kept; absent ones stay absent', (t) => {
  const [a, b] = finishSnippets([code({ pageKind: 'migration', pageVersion: '3', part: 1 }), info()], ctx);
  t.is(a.pageKind, 'migration');
  t.is(a.pageVersion, '3');
  t.is(a.part, 1);
  t.false('pageKind' in b || 'pageVersion' in b || 'part' in b);
});

test('two sections showing the same example in different prose are not duplicates; the same section twice is', (t) => {
  const example = "\n\n```js\nctx.cookies.set('name', 'tobi', { signed: true });\n```";
  const out = finishSnippets(
    [
      code({ content: `Set a signed cookie on the response.${example}`, path: 'docs/a.md' }),
      code({ content: `Cookies are signed with the app keys.${example}`, path: 'docs/b.md' }),
      code({ content: `Set a signed cookie on the response.${example}`, path: 'docs/c.md' }),
    ],
    ctx,
  );
  t.deepEqual(
    out.map((s) => s.path),
    ['docs/a.md', 'docs/b.md'],
  );
});

test('exact duplicates: the lowest path and line is kept, whatever the input order', (t) => {
  const snippets = [
    code({ path: 'docs/b.md', startLine: 5 }),
    code({ path: 'docs/a.md', startLine: 9, code: "ctx.cookies.set('name',   'tobi', { signed: true });\n" }),
    code({ path: 'docs/a.md', startLine: 3, code: "CTX.cookies.set('name', 'tobi', { signed: true });" }),
    info({ path: 'docs/z.md' }),
    info({ path: 'docs/y.md', content: 'A Koa Context encapsulates node request and response\nobjects into a single object.' }),
  ];
  const out = finishSnippets(snippets, ctx);
  t.deepEqual(
    out.map((s) => `${s.kind} ${s.path}:${s.startLine}`),
    ['code docs/a.md:3', 'info docs/y.md:1'],
  );
});

test('code and prose with the same text are not duplicates of each other', (t) => {
  const text = 'npm install koa and then write the first middleware';
  t.is(finishSnippets([code({ code: text }), info({ content: text })], ctx).length, 2);
});

test('near duplicates of long snippets are dropped; different ones are kept', (t) => {
  const body = Array.from({ length: 40 }, (_, n) => `app.use(async (ctx, next) => { ctx.state.step${n} = await load${n}(ctx.query.id); await next(); });`).join(
    '\n',
  );
  const tweaked = body.replace('step7', 'stepSeven');
  const other = Array.from({ length: 40 }, (_, n) => `router.get('/items/${n}', async (ctx) => { ctx.body = await db.items.find${n}(); });`).join('\n');
  const out = finishSnippets(
    [code({ code: tweaked, path: 'docs/z.md' }), code({ code: body, path: 'docs/a.md' }), code({ code: other, path: 'docs/m.md' })],
    ctx,
  );
  t.deepEqual(
    out.map((s) => s.path),
    ['docs/a.md', 'docs/m.md'],
  );
});

test('short snippets that differ in a word are both kept', (t) => {
  t.is(finishSnippets([code({ code: 'npm install koa' }), code({ code: 'npm install koa-router', startLine: 20 })], ctx).length, 2);
});

test('output keeps the input order and is deterministic', (t) => {
  const input = [info({ path: 'z.md' }), code({ path: 'a.md' }), code({ path: 'm.md', code: 'x = 2' })];
  const first = finishSnippets(input, ctx);
  t.deepEqual(
    first.map((s) => s.path),
    ['z.md', 'a.md', 'm.md'],
  );
  t.deepEqual(finishSnippets(input, ctx), first);
});

test('20,000 snippets finish in a few seconds', (t) => {
  const input: ParsedSnippet[] = [];
  for (let n = 0; n < 20_000; n++) {
    const text = `const client${n} = createClient({ url: process.env.URL_${n}, retries: ${n % 7} });\nawait client${n}.connect();\nconsole.log(await client${n}.get('key-${n}'));`;
    input.push(
      n % 2
        ? code({ code: text, path: `docs/p${n % 500}.md`, startLine: n })
        : info({ content: `Section ${n} explains how option ${n} changes the client. ${text}`, path: `docs/p${n % 500}.md`, startLine: n }),
    );
  }
  const { value: out, ms } = cpuMs(() => finishSnippets(input, ctx));
  t.log(`${Math.round(ms)} ms for ${input.length} snippets`);
  t.is(out.length, 20_000);
  t.true(ms < 5000);
});
