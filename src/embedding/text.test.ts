import test from 'ava';
import { embeddingText } from './text';

const base = { title: '', breadcrumb: [] as string[], pageTitle: '', description: '', content: '', code: '' };

test('headings path, then prose, then the start of the code; repeats dropped', (t) => {
  const text = embeddingText({
    ...base,
    title: 'ctx.cookies.set()',
    pageTitle: 'Context',
    breadcrumb: ['Context', 'API', 'ctx.cookies.set()'],
    description: 'Set cookie `name` to **value** with [options](#opts):',
    code: "ctx.cookies.set('name', 'tobi', {\n  signed: true\n});",
  });
  t.is(text, "Context > API > ctx.cookies.set()\nSet cookie name to value with [options]:\nctx.cookies.set('name', 'tobi', { signed: true });");
});

test('the page title leads when the breadcrumb does not start with it; long parts are cut', (t) => {
  const text = embeddingText({ ...base, title: 'Install', pageTitle: 'Guide', breadcrumb: ['Setup'], content: 'word '.repeat(500), code: 'x'.repeat(1000) });
  const [path, prose, code] = text.split('\n');
  t.is(path, 'Guide > Setup > Install');
  t.is(prose, 'word '.repeat(180).slice(0, 900));
  t.is(code, 'x'.repeat(450));
});

test("a section snippet's prose comes from its content without the fenced code, which is read from `code` once", (t) => {
  const text = embeddingText({
    ...base,
    title: 'Cookies',
    pageTitle: 'Context',
    breadcrumb: ['Context', 'Cookies'],
    description: 'Set a cookie:',
    content: "Koa uses the cookies module.\n\nSet a cookie:\n\n```js\nctx.cookies.set('a', 'b');\n```\n\nOptions are passed through.",
    code: "ctx.cookies.set('a', 'b');",
  });
  t.is(text, "Context > Cookies\nKoa uses the cookies module. Set a cookie: Options are passed through.\nctx.cookies.set('a', 'b');");
});

test('empty parts are left out', (t) => {
  t.is(embeddingText({ ...base, title: 'Only a title' }), 'Only a title');
});
