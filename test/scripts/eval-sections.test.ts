/** The eval's snippet-level scoring (scripts/eval/sections.ts) as shared/eval/README.md defines it, and its rewordings. */
import test from 'ava';
import { answerShape, normalizeHeading, scoreSections, snippetGrade, summarizeSections } from '../../scripts/eval/sections';
import { phrase } from '../../scripts/eval/variants';

test('headings are normalised as the README says: tags, roles, anchors, \\ ` * _ ~ removed, other runs of non-alphanumerics one space', (t) => {
  t.is(normalizeHeading('`ctx.cookies.set(name, value, [options])`'), 'ctx cookies set name value options');
  t.is(normalizeHeading('The `model.discriminator()` function {#discriminators}'), 'the model discriminator function');
  t.is(normalizeHeading(':func:`url_for` <em>and</em> friends'), 'urlfor and friends');
  t.is(normalizeHeading('**Upgraded** `z.discriminatedUnion()`\\!'), 'upgraded z discriminatedunion');
});

test('a snippet is relevant by its title or any breadcrumb heading; a "" section matches a page-level snippet only', (t) => {
  const qrels = [
    { path: 'docs/a.md', grade: 3, section: 'Cookies' },
    { path: 'docs/b.md', grade: 2, section: '' },
  ];
  const s = (path: string, title: string, breadcrumb: string[]) => ({ path, title, breadcrumb, tokens: 10 });
  t.is(snippetGrade(s('docs/a.md', 'Cookies', ['Context', 'Cookies']), qrels), 3);
  t.is(snippetGrade(s('docs/a.md', 'ctx.cookies.get', ['Context', 'Cookies', 'ctx.cookies.get']), qrels), 3, 'a subsection of the labelled section');
  t.is(snippetGrade(s('docs/c.md', 'Cookies', ['C', 'Cookies']), qrels), 0, 'another file');
  t.is(snippetGrade(s('docs/b.md', 'B', ['B']), qrels), 2);
  t.is(snippetGrade(s('docs/b.md', 'Deep', ['B', 'Deep']), qrels), 0);
});

test('S-Hit@k, S-MRR (every rank), S-any, tokens and the relevant share summed over the set', (t) => {
  const qrels = [{ path: 'a.md', grade: 3, section: 'Yes' }];
  const yes = { path: 'a.md', title: 'Yes', breadcrumb: ['A', 'Yes'], tokens: 100 };
  const no = { path: 'a.md', title: 'No', breadcrumb: ['A', 'No'], tokens: 300 };
  const first = scoreSections([yes, no], qrels);
  const fourth = scoreSections([no, no, no, yes], qrels);
  const none = scoreSections([no], qrels);
  t.deepEqual([first.mrr, first.hit[1], first.any, first.tokens, first.relevantTokens], [1, 1, 1, 400, 100]);
  t.deepEqual([fourth.mrr, fourth.hit[3], fourth.hit[5], fourth.firstRank], [0.25, 0, 1, 4]);
  t.deepEqual([none.mrr, none.any], [0, 0]);
  const sum = summarizeSections([first, fourth, none]);
  t.is(sum.relevantShare, 200 / (400 + 1000 + 300));
  t.is(sum.medianTokens, 400);
});

test('answer shape: twins of one section and parts out of order or without their opening part', (t) => {
  const s = (over: object) => ({ path: 'a.md', title: 'S', breadcrumb: ['A', 'S'], tokens: 10, ...over });
  t.deepEqual(answerShape([s({ kind: 'info', startLine: 3 }), s({ kind: 'code', startLine: 5 })]), { twins: 1, partsOutOfOrder: 0 });
  t.deepEqual(answerShape([s({ kind: 'code', part: 0 }), s({ kind: 'info', part: 1 })]), { twins: 0, partsOutOfOrder: 0 });
  t.deepEqual(answerShape([s({ kind: 'info', part: 1 }), s({ kind: 'info', part: 0 })]), { twins: 0, partsOutOfOrder: 1 });
  t.deepEqual(answerShape([s({ kind: 'info', part: 2 })]), { twins: 0, partsOutOfOrder: 1 }, 'a later part alone');
  t.deepEqual(
    answerShape([s({ kind: 'info', startLine: 9, continued: true })]),
    { twins: 0, partsOutOfOrder: 1 },
    'the old "(continued, part k of n)" chunk first',
  );
  t.deepEqual(
    answerShape([s({ kind: 'code', startLine: 12 }), s({ kind: 'info', startLine: 9 }), s({ kind: 'info', startLine: 20, continued: true })]),
    { twins: 1, partsOutOfOrder: 0 },
    'old twins in any order are twins, not parts out of order',
  );
});

test('rewordings: "how do I …", "… in <library>?", lower case without punctuation', (t) => {
  const q = 'Set a signed cookie with ctx.cookies.set?';
  t.is(phrase(q, '/koajs/koa', 'original'), q);
  t.is(phrase(q, '/koajs/koa', 'how-do-i'), 'how do I set a signed cookie with ctx.cookies.set?');
  t.is(phrase(q, '/expressjs/expressjs.com', 'in-library'), 'Set a signed cookie with ctx.cookies.set in expressjs?');
  t.is(phrase(q, '/koajs/koa', 'lower-no-punct'), 'set a signed cookie with ctx cookies set');
});
