import test from 'ava';
import type { RescoredCandidate } from './rescore';
import { isPartOf, mergeParts, missingParts, withSectionParts } from './section-parts';
import { infoSection, scoredCandidate, timeoutPart } from './test-fixtures';
import type { RankedSnippet, SnippetDocument } from './types';

const info = (title: string, content: string, over: Partial<SnippetDocument> = {}) => infoSection(title, content, { tokens: 100, ...over });
const part = timeoutPart;
const served = (o: Partial<SnippetDocument>, score = 1): RankedSnippet => ({ doc: scoredCandidate(o).doc, score });

test('parts of one section come together where its best part ranks, in order, the opening part first', (t) => {
  const [p0, p1, p2, p3] = [part(0, 10), part(1, 40), part(2, 70), part(3, 90)].map((o) => scoredCandidate(o).doc);
  const other = scoredCandidate(info('Timeouts', 'A timeout applies.')).doc;
  const sameTitleElsewhere = scoredCandidate(part(0, 5, { path: 'docs/api/server.md' })).doc;
  const pool = [p2, other, p1, p0, p3, sameTitleElsewhere].map((doc, i) => ({ doc, score: 1 - i / 10 }) as RescoredCandidate);
  const selected: RankedSnippet[] = [
    { doc: p2, score: 0.9 },
    { doc: other, score: 0.8 },
    { doc: p1, score: 0.7 },
    { doc: sameTitleElsewhere, score: 0.6 },
  ];
  const groups = withSectionParts(selected, pool);
  t.deepEqual(
    groups.map((g) => g.map((s) => [s.doc.id, s.score])),
    [
      // Part 0 was not selected but is in the pool: it leads; part 3 comes after the last chosen part, so it stays out.
      [
        [p0.id, 0.9],
        [p1.id, 0.9],
        [p2.id, 0.9],
      ],
      [[other.id, 0.8]],
      [[sameTitleElsewhere.id, 0.6]],
    ],
  );
  // A whole section (no part number) is a group of its own.
  t.deepEqual(withSectionParts([{ doc: other, score: 1 }], pool), [[{ doc: other, score: 1 }]]);
});

test('missingParts names the sections an answer holds a later part of without the parts before it; isPartOf finds them again', (t) => {
  const part = (k: number, title = 'Options') => ({ doc: { ...scoredCandidate(info(title, `part ${k}`, { part: k, path: 'docs/a.md' })).doc }, score: 1 });
  t.deepEqual(missingParts([part(0), part(1)]), []);
  t.deepEqual(missingParts([part(2)]), [{ path: 'docs/a.md', title: 'Options', breadcrumb: ['Guide', 'Options'], below: 2 }]);
  t.deepEqual(missingParts([part(0), part(2)]), [{ path: 'docs/a.md', title: 'Options', breadcrumb: ['Guide', 'Options'], below: 2 }], 'a gap counts');
  const wanted = missingParts([part(1)]);
  t.true(isPartOf(part(0).doc, wanted));
  t.false(isPartOf(part(0, 'Other').doc, wanted), 'another section of the page');
  t.false(isPartOf({ ...part(0).doc, part: undefined }, wanted), 'a whole section is not a part');
});

test('adjacent parts of one section become one snippet while it fits the ceiling: prose and code in order, the opening part its source', (t) => {
  const p0 = served(part(0, 10, { kind: 'info', tokens: 300 }), 0.9);
  const p1 = served(part(1, 40, { kind: 'code', code: 'client.timeout = 5', description: 'Set it:', language: 'python', tokens: 300 }), 0.9);
  const p2 = served(part(2, 70, { tokens: 300 }), 0.9);
  const other = served(info('Retries', 'Retry a request.'), 0.5);
  const merged = mergeParts([p0, p1, p2, other], 1000);
  t.is(merged.length, 2);
  t.like(merged[0]!.doc, {
    id: p0.doc.id,
    startLine: 10,
    part: 0,
    lastPart: 2,
    tokens: 900,
    kind: 'code',
    code: 'client.timeout = 5',
    description: 'Set it:',
    language: 'python',
  });
  t.is(merged[0]!.doc.content, [p0, p1, p2].map((s) => s.doc.content).join('\n\n'));
  t.is(merged[0]!.score, 0.9);
  t.is(merged[1], other);
  // Over the ceiling the run stops; the next part starts a snippet of its own (and may take the one after).
  const two = mergeParts([p0, p1, p2], 700);
  t.deepEqual(
    two.map((s) => [s.doc.part, s.doc.lastPart]),
    [
      [0, 1],
      [2, undefined],
    ],
  );
  t.deepEqual(mergeParts([p0, p1, p2], 0), [p0, p1, p2], 'a ceiling of 0 merges nothing');
});

test('only adjacent parts of the same section merge: not another section, not a gap, not whole sections', (t) => {
  const p0 = served(part(0, 10));
  const p2 = served(part(2, 70));
  t.is(mergeParts([p0, p2], 1000).length, 2, 'a gap between parts');
  const elsewhere = served(part(1, 40, { path: 'docs/api/server.md' }));
  t.is(mergeParts([p0, elsewhere], 1000).length, 2, 'the same title on another page');
  const whole = [served(info('A', 'a')), served(info('A', 'a', { path: 'docs/x.md' }))];
  t.is(mergeParts(whole, 1000).length, 2, 'sections without parts');
  t.is(mergeParts([served(part(1, 40)), p0], 1000).length, 2, 'out of order');
});

test('a merged snippet holds every part from its first to its last: missingParts asks only for the parts before it', (t) => {
  const [p1, p2] = [served(part(1, 40)), served(part(2, 70))];
  const merged = mergeParts([p1, p2], 1000);
  t.is(merged.length, 1);
  t.deepEqual(missingParts(merged), [{ path: 'docs/api/client.md', title: 'Timeout options', breadcrumb: ['Client', 'Timeout options'], below: 2 }]);
  t.deepEqual(missingParts(mergeParts([served(part(0, 10)), p1, p2], 1000)), [], 'from the opening part on nothing is missing');
  t.deepEqual(
    missingParts([...mergeParts([served(part(0, 10)), p1], 1000), served(part(3, 90))]).map((m) => m.below),
    [3],
    'part 2 is missing after a merged 0–1',
  );
});
