import test from 'ava';
import { announcesMissingExample, snippetShape } from './shape';

const snippet = (over: Partial<Parameters<typeof snippetShape>[0][number]> = {}) => ({
  kind: 'info' as const,
  path: 'docs/a.md',
  title: 'Cookies',
  breadcrumb: ['Guide', 'Cookies'],
  content: 'Cookies are set on the response.',
  code: '',
  description: '',
  tokens: 40,
  ...over,
});

test('prose announcing an example it does not hold dangles; a section ending with its example does not', (t) => {
  t.true(announcesMissingExample({ content: 'Set a cookie as follows:' }));
  t.true(announcesMissingExample({ content: 'Intro.\n\n```js\nx()\n```\n\nThen call it like this:\n' }));
  t.false(announcesMissingExample({ content: 'Set a cookie as follows:\n\n```js\nctx.cookies.set("a", "b");\n```' }));
  t.false(announcesMissingExample({ content: '' }), 'code alone (an operation) has its prose in the description');
  t.false(announcesMissingExample({ content: 'Cookies are set on the response.' }));
});

test('the old shape counts as twins and later parts; the new one as neither', (t) => {
  const old = snippetShape([
    snippet({ content: 'Set a cookie as follows:' }),
    snippet({ kind: 'code', content: '', code: 'ctx.cookies.set()', description: 'Set a cookie as follows:', tokens: 30 }),
    snippet({ title: 'Options', breadcrumb: ['Guide', 'Options'], content: 'Options are: (continued, part 2 of 2)\n\n* a', tokens: 900 }),
  ]);
  t.deepEqual(
    { dangling: old.dangling, twins: old.twins, laterParts: old.laterParts, largest: old.largest },
    { dangling: 1, twins: 1, laterParts: 1, largest: 900 },
  );
  const fresh = snippetShape([
    snippet({ kind: 'code', content: 'Set a cookie as follows:\n\n```js\nctx.cookies.set()\n```', code: 'ctx.cookies.set()', part: 0 }),
    snippet({ kind: 'info', content: 'More options follow.', part: 1 }),
  ]);
  t.is(fresh.dangling, 0);
  t.is(fresh.laterParts, 1);
  t.is(fresh.twins, 0, 'parts of one section differing in kind are not twins');
});

test('pages by kind, and maintainers pages and stubs as junk (by path when indexed before kinds)', (t) => {
  const shape = snippetShape(
    [
      snippet({ pageKind: 'guide' }),
      snippet({ path: 'CHANGES.md', pageKind: 'changelog' }),
      snippet({ path: 'wiki/notes.md', pageKind: 'internal' }),
      snippet({ path: 'sandbox/x.md' }),
    ],
    (p) => p.startsWith('sandbox/'),
  );
  t.deepEqual(shape.pagesByKind, { guide: 1, changelog: 1, internal: 2 });
  t.is(shape.junkPages, 2);
});
