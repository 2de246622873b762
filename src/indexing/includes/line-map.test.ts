import test from 'ava';
import { originalLineOf } from './line-map';

const page = ['# Guide', '', '.. include:: part.rst', '', 'Usage', '-----', '', 'Call it.'].join('\n');
const expanded = ['# Guide', '', 'Included one.', '', 'Included two.', '', 'Usage', '-----', '', 'Call it.'].join('\n');

test('a line of the page keeps its own number after an include above it; included lines take the directive line', (t) => {
  const lineOf = originalLineOf(page, expanded);
  t.is(lineOf(1), 1);
  t.is(lineOf(7), 5, '"Usage" is line 5 of the page, line 7 of the expanded text');
  t.is(lineOf(10), 8);
  t.is(lineOf(3), 3, 'the included text stands where its directive stood');
  t.is(lineOf(5), 3);
});

test('the identity for a page without includes, and out-of-range lines are clamped', (t) => {
  const same = originalLineOf(page, page);
  t.is(same(5), 5);
  const lineOf = originalLineOf(page, expanded);
  t.is(lineOf(0), 1);
  t.is(lineOf(99), 8);
});

test('several includes, one of them where the page had no line (an inserted block), and a directive spread over lines', (t) => {
  const original = ['A', '{* ./one.py ln[1:3] *}', 'B', '```{include} two.md', ':start-after: x', '```', 'C'].join('\n');
  const out = ['A', 'one 1', 'one 2', 'one 3', 'B', 'two 1', 'two 2', 'C'].join('\n');
  const lineOf = originalLineOf(original, out);
  t.deepEqual([1, 2, 3, 4, 5, 6, 7, 8].map(lineOf), [1, 2, 2, 2, 3, 4, 4, 7]);
});

test('autodoc entries one after another each stand at their own directive', (t) => {
  const original = ['Helpers', '-------', '', '.. autofunction:: a.one', '', '.. autofunction:: a.two', '', 'After'].join('\n');
  const out = ['Helpers', '-------', '', 'one()', '', '   Does one.', '', 'two()', '', '   Does two.', '', 'After'].join('\n');
  const lineOf = originalLineOf(original, out);
  t.is(lineOf(4), 4, 'one() at its directive');
  t.is(lineOf(8), 6, 'two() at its directive');
  t.is(lineOf(12), 8);
});

test("a page whose includes bring in much more text than it has still keeps its lines (the blocks' blank lines go with them)", (t) => {
  const original: string[] = [];
  const out: string[] = [];
  for (let d = 0; d < 100; d++) {
    original.push(`Section ${d}`, '', `.. include:: part${d}.rst`, '');
    out.push(`Section ${d}`, '');
    for (let k = 0; k < 150; k++) out.push(k % 5 === 4 ? '' : `included text ${d}.${k}`);
    out.push('');
  }
  const lineOf = originalLineOf(original.join('\n'), out.join('\n'));
  const lastSection = out.lastIndexOf('Section 99') + 1;
  t.is(lineOf(lastSection), original.lastIndexOf('Section 99') + 1);
  t.is(lineOf(lastSection + 2), original.lastIndexOf('.. include:: part99.rst') + 1, 'its included text stands at its directive');
});
