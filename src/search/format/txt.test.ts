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

test('an info snippet without breadcrumb uses its title; no snippets give an empty text', (t) => {
  const info = { ...RANKED_FIXTURE[1].doc, breadcrumb: [] };
  t.true(renderSnippetText(info).startsWith('### Cookies\n\nSource: '));
  t.is(formatContextText([]), '');
});
