import test from 'ava';
import { mergeAnswers } from './search-across';
import type { AnswerResult } from '../search/answer';

const snippet = (id: string, score: number, tokens = 100) => ({ doc: { id, tokens, title: id } as never, score });
const result = (cosine: number, snippets: Array<ReturnType<typeof snippet>>, nothingRelevant = false): AnswerResult => ({
  ranked: snippets.map((s) => ({ ...s, cosine, coverage: 1, parts: { lexical: 0, semantic: 0, title: 0, headings: 0 } })) as never,
  snippets: nothingRelevant ? [] : (snippets as never),
  nothingRelevant,
  exhausted: true,
  smallestRelevant: 100,
});

test('libraries weigh by their best cosine against the best library; the relative floor applies across them', (t) => {
  const merged = mergeAnswers(
    [
      { libraryId: '/a/strong', version: '1.0.0', result: result(0.7, [snippet('a1', 1), snippet('a2', 0.9), snippet('a3', 0.56)]) },
      { libraryId: '/b/close', version: '2.0.0', result: result(0.67, [snippet('b1', 1), snippet('b2', 0.5)]) },
      { libraryId: '/c/far', version: '3.0.0', result: result(0.5, [snippet('c1', 1)]) },
      { libraryId: '/d/none', version: '4.0.0', result: result(0.2, [snippet('d1', 1)], true) },
      { libraryId: '/e/empty', version: '5.0.0', result: undefined },
    ],
    5000,
  );
  // b weighs 1 - 0.03/0.15 = 0.8: its best leads after a's (0.8), b2 (0.4) falls below 0.55 × 1;
  // c weighs 0 and is left out, d found nothing relevant, e nothing to search.
  t.deepEqual(
    merged.map((s) => [s.libraryId, s.doc.id]),
    [
      ['/a/strong', 'a1'],
      ['/b/close', 'b1'],
      ['/a/strong', 'a2'],
      ['/a/strong', 'a3'],
    ],
  );
  t.is(merged[1]!.version, '2.0.0', 'each snippet is labelled with its library and version');
});

test('named libraries each lead with their best section, and the budget takes whole snippets', (t) => {
  const asked = [
    { libraryId: '/a/strong', version: '1', result: result(0.7, [snippet('a1', 1), snippet('a2', 0.9)]) },
    { libraryId: '/c/far', version: '3', result: result(0.5, [snippet('c1', 1), snippet('c2', 0.9)]) },
  ];
  t.deepEqual(
    mergeAnswers(asked, 5000, { leadEach: true }).map((s) => s.doc.id),
    ['a1', 'c1', 'a2'],
  );
  t.deepEqual(
    mergeAnswers(asked, 250, { leadEach: true }).map((s) => s.doc.id),
    ['a1', 'c1'],
    '100 + 4 + 100 fits 250, a third does not',
  );
  t.deepEqual(
    mergeAnswers(asked, 5000).map((s) => s.doc.id),
    ['a1', 'a2'],
    'without leadEach a far library adds nothing',
  );
});
