import test from 'ava';
import type { ParsedSnippet } from '../types';
import { joinSectionParts, leadSentence, SMALL_PART } from './parts';

const info = (content: string, over: Partial<ParsedSnippet> = {}): ParsedSnippet => ({
  kind: 'info', title: 'ctx.cookies.set(name, value, [options])', breadcrumb: ['Context', 'API', 'ctx.cookies.set(name, value, [options])'],
  pageTitle: 'Context', description: '', content, language: '', code: '', path: 'docs/api/context.md', startLine: 77, ...over,
});
const long = (word: string) => `* \`${word}\`: ${'an option that matters a great deal '.repeat(20)}`;

test('later parts of a split section open with its lead and say which part they are', (t) => {
  const parts = [info(`Set cookie \`name\` to \`value\` with \`options\`:\n\n${long('maxAge')}`), info(long('overwrite'), { startLine: 81 }), info(long('signed'), { startLine: 85 })];
  const out = joinSectionParts(parts);
  t.is(out.length, 3);
  t.is(out[0].content, parts[0].content);
  t.true(out[1].content.startsWith('Set cookie `name` to `value` with `options`: (continued, part 2 of 3)\n\n* `overwrite`'));
  t.true(out[2].content.startsWith('Set cookie `name` to `value` with `options`: (continued, part 3 of 3)\n\n* `signed`'));
  t.deepEqual(out.map((p) => p.startLine), [77, 81, 85], 'each part keeps its own line');
  t.not(out[1].content, out[2].content);
});

test('a small part is merged into the one before it when they fit together', (t) => {
  const small = 'Koa uses the cookies module where options are simply passed.';
  t.true(small.length < SMALL_PART);
  const out = joinSectionParts([info(`Set cookie with options:\n\n${long('maxAge')}`), info(small, { startLine: 90 })]);
  t.is(out.length, 1);
  t.true(out[0].content.endsWith(`\n\n${small}`));
  t.is(out[0].startLine, 77);
});

test('other snippets and single-part sections pass through untouched, in order', (t) => {
  const code: ParsedSnippet = { ...info(''), kind: 'code', code: 'x()', title: 'ctx.cookies.set(name, value, [options])' };
  const other = info('Another section entirely, with enough words.', { title: 'ctx.throw()', breadcrumb: ['Context', 'ctx.throw()'] });
  const otherFile = info(long('a'), { path: 'docs/other.md' });
  const input = [info(long('first')), code, info(long('second')), other, otherFile];
  t.deepEqual(joinSectionParts(input), input, 'parts separated by a code snippet or in another file are not one section');
});

test('the lead is the first sentence or introducing line, bounded', (t) => {
  t.is(leadSentence('Get cookie `name` with `options`:\n\n- signed'), 'Get cookie `name` with `options`:');
  t.is(leadSentence('Routes map paths. Each has a handler.'), 'Routes map paths.');
  t.is(leadSentence('no punctuation here'), 'no punctuation here');
  const lead = leadSentence(`${'word '.repeat(100)}end.`);
  t.true(lead.length <= 241 && lead.endsWith('…'));
});
