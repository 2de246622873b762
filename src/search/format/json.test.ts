import test from 'ava';
import { RANKED_FIXTURE } from './fixture';
import { formatContextJson } from './json';

test('the JSON format: Context7 lists plus our ranked snippets', (t) => {
  const json = formatContextJson(RANKED_FIXTURE);
  t.is(
    JSON.stringify(json),
    JSON.stringify({
      codeSnippets: [
        {
          codeTitle: 'Setting a signed cookie',
          codeDescription: 'Set a cookie that the client cannot forge:',
          codeLanguage: 'js',
          codeTokens: 42,
          codeId: 'https://github.com/koajs/koa/blob/v3.2.0/docs/api/context.md#L120',
          pageTitle: 'Context',
          codeList: [{ language: 'js', code: "ctx.cookies.set('name', 'tobi', { signed: true });" }],
        },
        {
          codeTitle: 'Markdown inside code',
          codeDescription: '',
          codeLanguage: '',
          codeTokens: 12,
          codeId: 'https://github.com/koajs/koa/blob/v3.2.0/docs/guide.md#L5',
          pageTitle: 'Guide',
          codeList: [{ language: '', code: 'echo "```"' }],
        },
      ],
      infoSnippets: [
        {
          pageId: 'https://github.com/koajs/koa/blob/v3.2.0/docs/api/index.md#L10',
          breadcrumb: 'Context > API > Cookies',
          content: 'Koa uses the cookies module.\nOptions are passed through.',
          contentTokens: 20,
        },
      ],
      snippets: [
        {
          kind: 'code',
          title: 'Setting a signed cookie',
          description: 'Set a cookie that the client cannot forge:',
          content: '',
          language: 'js',
          code: "ctx.cookies.set('name', 'tobi', { signed: true });",
          breadcrumb: ['Context', 'ctx.cookies.set()'],
          pageTitle: 'Context',
          pageKind: 'guide',
          tokens: 42,
          score: 0.9123,
          id: 'c1',
          source: { path: 'docs/api/context.md', url: 'https://github.com/koajs/koa/blob/v3.2.0/docs/api/context.md#L120', startLine: 120 },
        },
        {
          kind: 'info',
          title: 'Cookies',
          description: '',
          content: 'Koa uses the cookies module.\nOptions are passed through.',
          language: '',
          code: '',
          breadcrumb: ['Context', 'API', 'Cookies'],
          pageTitle: 'Context',
          pageKind: 'guide',
          tokens: 20,
          score: 0.5,
          id: 'i1',
          source: { path: 'docs/api/index.md', url: 'https://github.com/koajs/koa/blob/v3.2.0/docs/api/index.md#L10', startLine: 10 },
        },
        {
          kind: 'code',
          title: 'Markdown inside code',
          description: '',
          content: '',
          language: '',
          code: 'echo "```"',
          breadcrumb: [],
          pageTitle: 'Guide',
          pageKind: 'guide',
          tokens: 12,
          score: 0.25,
          id: 'c2',
          source: { path: 'docs/guide.md', url: 'https://github.com/koajs/koa/blob/v3.2.0/docs/guide.md#L5', startLine: 5 },
        },
      ],
    }),
  );
});

test("a section's snippet: its prose is the code description, its fenced examples the codeList, its page kind shown", (t) => {
  const content = "Set a cookie:\n\n```js\nctx.cookies.set('a', 'b');\n```\n\nRead it back:\n\n````md\n```js\nctx.cookies.get('a');\n```\n````";
  const section = { ...RANKED_FIXTURE[0], doc: { ...RANKED_FIXTURE[0].doc, description: 'Set a cookie:', content, pageKind: 'migration' as const } };
  const json = formatContextJson([section]);
  t.deepEqual(json.codeSnippets[0].codeDescription, 'Set a cookie:\n\nRead it back:');
  t.deepEqual(json.codeSnippets[0].codeList, [
    { language: 'js', code: "ctx.cookies.set('a', 'b');" },
    { language: 'md', code: "```js\nctx.cookies.get('a');\n```" },
  ]);
  t.is(json.snippets[0].content, content);
  t.is(json.snippets[0].pageKind, 'migration');
});

test('the presenter copies, so the response never shares the stored arrays', (t) => {
  const json = formatContextJson(RANKED_FIXTURE);
  t.not(json.snippets[0].breadcrumb, RANKED_FIXTURE[0].doc.breadcrumb);
  t.deepEqual(formatContextJson([]), { codeSnippets: [], infoSnippets: [], snippets: [] });
});

test('a source on the server disk is presented by its place in the repository (codeId, pageId, source.url)', (t) => {
  const onDisk = RANKED_FIXTURE.map((s) => ({ ...s, doc: { ...s.doc, url: `file:///srv/secret/${s.doc.path}#L${s.doc.startLine}` } }));
  const json = formatContextJson(onDisk);
  t.false(JSON.stringify(json).includes('/srv/secret'));
  t.false(JSON.stringify(json).includes('file:'));
  t.is(json.snippets[0].source.url, `${RANKED_FIXTURE[0].doc.path}#L${RANKED_FIXTURE[0].doc.startLine}`);
});

test('a snippet merged from adjacent parts of a section says which: its first part and its last', (t) => {
  const merged = { ...RANKED_FIXTURE[0], doc: { ...RANKED_FIXTURE[0].doc, part: 0, lastPart: 2 } };
  t.like(formatContextJson([merged]).snippets[0], { part: 0, lastPart: 2 });
  t.false('lastPart' in formatContextJson([RANKED_FIXTURE[0]]).snippets[0], 'absent on a snippet that was not merged');
});
