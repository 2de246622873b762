import test from 'ava';
import { RANKED_FIXTURE } from './fixture';
import { formatContextText, renderSnippetText } from './txt';

test('the text format is byte-exact, Context7 style', (t) => {
  t.is(
    formatContextText(RANKED_FIXTURE),
    [
      '### Setting a signed cookie',
      '',
      'Source: https://github.com/koajs/koa/blob/v3.2.0/docs/api/context.md#L120',
      '',
      'Set a cookie that the client cannot forge:',
      '',
      '```js',
      "ctx.cookies.set('name', 'tobi', { signed: true });",
      '```',
      '',
      '--------------------------------',
      '',
      '### Context > API > Cookies',
      '',
      'Source: https://github.com/koajs/koa/blob/v3.2.0/docs/api/index.md#L10',
      '',
      'Koa uses the cookies module.',
      'Options are passed through.',
      '',
      '--------------------------------',
      '',
      '### Markdown inside code',
      '',
      'Source: https://github.com/koajs/koa/blob/v3.2.0/docs/guide.md#L5',
      '',
      '````',
      'echo "```"',
      '````',
    ].join('\n'),
  );
});

test("a section's snippet (prose with its examples in content) is shown under its breadcrumb as written", (t) => {
  const content = "Set a cookie:\n\n```js\nctx.cookies.set('a', 'b');\n```";
  const doc = { ...RANKED_FIXTURE[0].doc, content };
  t.is(renderSnippetText(doc), `### Context > ctx.cookies.set()\n\nSource: https://github.com/koajs/koa/blob/v3.2.0/docs/api/context.md#L120\n\n${content}`);
});

test('an info snippet without breadcrumb uses its title; no snippets give an empty text', (t) => {
  const info = { ...RANKED_FIXTURE[1].doc, breadcrumb: [] };
  t.true(renderSnippetText(info).startsWith('### Cookies\n\nSource: '));
  t.is(formatContextText([]), '');
});

test('a source on the server disk (snippets indexed with a file: URL) is shown by its place in the repository', (t) => {
  const doc = { ...RANKED_FIXTURE[0].doc, url: 'file:///srv/secret/repo/docs/api/context.md#L120', path: 'docs/api/context.md', startLine: 120 };
  const text = renderSnippetText(doc);
  t.true(text.includes('Source: docs/api/context.md#L120'), text);
  t.false(text.includes('/srv/secret'));
});
