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
  const text = embeddingText({ ...base, title: 'Install', pageTitle: 'Guide', breadcrumb: ['Setup'], content: 'word '.repeat(500) });
  const [path, prose] = text.split('\n');
  t.is(path, 'Guide > Setup > Install');
  t.is(prose.length, 400);
});

test('empty parts are left out', (t) => {
  t.is(embeddingText({ ...base, title: 'Only a title' }), 'Only a title');
});
