import test from 'ava';
import { fuseReciprocalRank } from './fusion';
import { contextSnippet } from './test-fixtures';
import { SEARCH_WEIGHTS } from './weights';
import { fillGaps, fuseHybrid, semanticGrades, semanticPageEvidence } from './fusion';

test('reciprocal rank fusion rewards snippets ranked well in several lists', (t) => {
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => contextSnippet({ id }));
  const code = [
    { doc: a, score: 9 },
    { doc: b, score: 8 },
    { doc: c, score: 1 },
  ];
  const prose = [
    { doc: b, score: 30 },
    { doc: d, score: 20 },
    { doc: c, score: 10 },
  ];
  const fused = fuseReciprocalRank([code, prose], 60);
  t.deepEqual(
    fused.map((f) => f.doc.id),
    ['b', 'c', 'a', 'd'],
  );
  t.is(fused[0].score, 1 / 62 + 1 / 61);
  t.is(fused[3].score, 1 / 62);
});

test('ties keep the order of first appearance; empty input gives nothing', (t) => {
  const [a, b] = ['a', 'b'].map((id) => contextSnippet({ id }));
  t.deepEqual(
    fuseReciprocalRank([[{ doc: a, score: 1 }], [{ doc: b, score: 1 }]]).map((f) => f.doc.id),
    ['a', 'b'],
  );
  t.deepEqual(fuseReciprocalRank([]), []);
});

test('blend: normalised lexical score and the cosine graded by its gap to the best, weighted; a missing leg counts 0', async (t) => {
  const { blendScores } = await import('./fusion');
  const [a, b, c] = ['a', 'b', 'c'].map((id) => contextSnippet({ id }));
  const lexical = [
    { doc: a, score: 10 },
    { doc: b, score: 5 },
  ];
  const semantic = [
    { doc: c, score: 0.8 },
    { doc: b, score: 0.7 },
    { doc: a, score: 0.5 },
  ];
  const fused = blendScores(lexical, semantic, 0.4, 0.2);
  const score = (id: string) => fused.find((f) => f.doc.id === id)!.score;
  t.is(score('a'), 0.6 * 1 + 0.4 * 0, 'a cosine 0.3 below the best gets nothing at scale 0.2');
  t.true(Math.abs(score('b') - (0.6 * 0.5 + 0.4 * 0.5)) < 1e-12, 'half the scale below the best: half the share');
  t.is(score('c'), 0.4);
  t.deepEqual(
    fused.map((f) => f.doc.id),
    ['a', 'b', 'c'],
  );
  // A semantic-only find ranks first when the semantic leg is weighted high enough.
  t.is(blendScores(lexical, semantic, 0.7, 0.2)[0].doc.id, 'c');
  // Neighbours within a hair of each other stay within a hair: noise is not stretched into rank.
  const close = blendScores(
    [],
    [
      { doc: a, score: 0.797 },
      { doc: b, score: 0.79 },
    ],
    1,
    0.2,
  );
  t.true(close[0].score - close[1].score < 0.05);
});

test('hybrid: the configured fusion; an empty semantic leg keeps the lexical list', async (t) => {
  const { cosineFromKnnScore } = await import('./fusion');
  const [a, b] = ['a', 'b'].map((id) => contextSnippet({ id }));
  const lexical = [
    { doc: a, score: 3 },
    { doc: b, score: 1 },
  ];
  t.deepEqual(fuseHybrid(lexical, []), lexical);
  const rrf = fuseHybrid(lexical, [{ doc: b, score: 0.9 }], { ...SEARCH_WEIGHTS.hybrid, method: 'rrf' });
  t.deepEqual(
    rrf.map((f) => f.doc.id),
    ['b', 'a'],
  );
  // kNN scores (1 + cosine) / 2: b's cosine 0.8, a's 0.1 (0.7 below: no share).
  const blend = fuseHybrid(
    lexical,
    [
      { doc: b, score: 0.9 },
      { doc: a, score: 0.55 },
    ],
    { ...SEARCH_WEIGHTS.hybrid, method: 'blend', semantic: 0.4, cosineScale: 0.2, identifierFactor: 0.5 },
  );
  t.deepEqual(
    blend.map((f) => f.doc.id),
    ['a', 'b'],
    'lexical 1 + semantic 0 beats lexical 1/3 + semantic 1 at weight 0.4',
  );
  // A question naming identifiers halves the semantic share: b's semantic-only lead is gone.
  const semanticOnly = [{ doc: b, score: 1 }];
  const weights = { ...SEARCH_WEIGHTS.hybrid, method: 'blend' as const, semantic: 0.8, cosineScale: 0.2, identifierFactor: 0.25 };
  t.is(fuseHybrid([{ doc: a, score: 1 }], semanticOnly, weights)[0].doc.id, 'b');
  t.is(fuseHybrid([{ doc: a, score: 1 }], semanticOnly, weights, { namesIdentifiers: true })[0].doc.id, 'a');
  t.is(cosineFromKnnScore(1), 1);
  t.is(cosineFromKnnScore(0.5), 0);
});

const ids = (list: ReadonlyArray<{ doc: { id: string } }>) => list.map((c) => c.doc.id);
const near = (a: number, b: number) => Math.abs(a - b) < 1e-12;

test('semantic grades: 1 for the best cosine, falling linearly to 0 at the scale below it', (t) => {
  const [a, b, c] = ['a', 'b', 'c'].map((id) => contextSnippet({ id }));
  const grades = semanticGrades(
    [
      { doc: a, score: 0.7 },
      { doc: b, score: 0.6 },
      { doc: c, score: 0.4 },
    ],
    0.2,
  );
  t.is(grades.get('a')?.grade, 1);
  t.true(near(grades.get('b')!.grade, 0.5));
  t.is(grades.get('c')?.grade, 0, 'further below than the scale: nothing, never negative');
  t.is(semanticGrades([], 0.2).size, 0);
  // A leg with no confident neighbour is graded against the confident cosine, not its own best.
  const weak = semanticGrades(
    [
      { doc: a, score: 0.52 },
      { doc: b, score: 0.5 },
    ],
    0.2,
    0.6,
  );
  t.true(near(weak.get('a')!.grade, 0.6));
  t.true(near(weak.get('b')!.grade, 0.5));
  t.is(semanticGrades([{ doc: a, score: 0.7 }], 0.2, 0.6).get('a')?.grade, 1, 'a confident best keeps grade 1');
});

test('gap filling: generic neighbours of a leg with no clear match do not pass the lexical answers', (t) => {
  const [top, answer, readme] = ['top', 'answer', 'readme'].map((id) => contextSnippet({ id }));
  const lexical = [
    { doc: top, score: 30 },
    { doc: answer, score: 16 },
  ];
  const semantic = [
    { doc: top, score: 0.52 },
    { doc: readme, score: 0.49 },
  ];
  t.deepEqual(ids(fillGaps(lexical, semantic, 0.8, 0.2)), ['top', 'readme', 'answer'], 'graded against its own weak best, the README passes');
  t.deepEqual(ids(fillGaps(lexical, semantic, 0.8, 0.2, 0.6)), ['top', 'answer', 'readme']);
});

test('gap filling: lexical + w·semantic·(1 − lexical)², a kNN-only find gets w·semantic', (t) => {
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => contextSnippet({ id }));
  const lexical = [
    { doc: a, score: 10 },
    { doc: b, score: 5 },
    { doc: d, score: 2 },
  ];
  const semantic = [
    { doc: c, score: 0.8 },
    { doc: b, score: 0.7 },
    { doc: a, score: 0.75 },
  ];
  const fused = fillGaps(lexical, semantic, 0.8, 0.2);
  const score = (id: string) => fused.find((f) => f.doc.id === id)!.score;
  t.is(score('a'), 1, 'the lexical best gains nothing: (1 − 1)² = 0');
  t.true(near(score('b'), 0.5 + 0.8 * 0.5 * 0.25));
  t.true(near(score('c'), 0.8), 'only in the kNN leg, best cosine: the whole weight');
  t.true(near(score('d'), 0.2), 'no semantic evidence: its lexical score alone');
  t.deepEqual(ids(fused), ['a', 'c', 'b', 'd']);
});

test('gap filling never reorders strong lexical matches, whatever their cosines', (t) => {
  // Two near-equal lexical matches; the kNN leg prefers the second (the shape of an error
  // string question whose exact page the words find and whose neighbours the vectors like).
  const [exact, neighbour, other] = ['exact', 'neighbour', 'other'].map((id) => contextSnippet({ id }));
  const lexical = [
    { doc: exact, score: 20 },
    { doc: neighbour, score: 18 },
    { doc: other, score: 4 },
  ];
  const semantic = [
    { doc: neighbour, score: 0.6 },
    { doc: other, score: 0.58 },
    { doc: exact, score: 0.45 },
  ];
  t.deepEqual(ids(fillGaps(lexical, semantic, 0.8, 0.2)).slice(0, 2), ['exact', 'neighbour']);
  // The blend at its former default lets the neighbour pass: the failure gap filling removes.
  t.is(
    fuseHybrid(
      lexical,
      semantic.map((c) => ({ doc: c.doc, score: (1 + c.score) / 2 })),
      { ...SEARCH_WEIGHTS.hybrid, method: 'blend', semantic: 0.4 },
    )[0].doc.id,
    'neighbour',
  );
});

test('gap filling lifts a snippet the words barely match above weak lexical matches the vectors do not support', (t) => {
  // A question in other words: the lexical leg's best is off-topic, the right page matches a word or two.
  const [offTopic, weak, right] = ['offTopic', 'weak', 'right'].map((id) => contextSnippet({ id }));
  const lexical = [
    { doc: offTopic, score: 10 },
    { doc: weak, score: 4 },
    { doc: right, score: 3 },
  ];
  const semantic = [
    { doc: right, score: 0.72 },
    { doc: offTopic, score: 0.45 },
  ];
  const fused = fillGaps(lexical, semantic, 0.8, 0.2);
  t.deepEqual(ids(fused), ['offTopic', 'right', 'weak']);
  t.true(near(fused[1].score, 0.3 + 0.8 * 0.49));
});

test('hybrid fill: the default method; kNN scores are turned back into cosines; an empty semantic leg keeps the lexical list', (t) => {
  t.is(SEARCH_WEIGHTS.hybrid.method, 'fill');
  const [a, b] = ['a', 'b'].map((id) => contextSnippet({ id }));
  const lexical = [
    { doc: a, score: 3 },
    { doc: b, score: 1 },
  ];
  t.deepEqual(fuseHybrid(lexical, []), lexical);
  // kNN scores (1 + cosine) / 2: b's cosine 0.8, a's 0.7 (above the confident 0.6): b's grade 1, a's 0.5.
  const fused = fuseHybrid(lexical, [
    { doc: b, score: 0.9 },
    { doc: a, score: 0.85 },
  ]);
  t.deepEqual(ids(fused), ['a', 'b']);
  // Both on one page: its evidence is the mean of its best pageTop grades, (1 + 0.5) / pageTop.
  const { pageWeight, pageTop, fillWeight } = SEARCH_WEIGHTS.hybrid;
  t.true(near(fused[1].score, 1 / 3 + fillWeight * (2 / 3) ** 2 + (pageWeight * 1.5) / pageTop));
});

test("page evidence: the mean of a page's best grades, so several neighbours on a page outweigh a lone one", (t) => {
  const onPage = (id: string, path: string) => contextSnippet({ id, path });
  const grades = semanticGrades(
    [
      { doc: onPage('t1', 'timeouts.md'), score: 0.7 },
      { doc: onPage('t2', 'timeouts.md'), score: 0.68 },
      { doc: onPage('x1', 'extensions.md'), score: 0.69 },
      { doc: onPage('t3', 'timeouts.md'), score: 0.62 },
      { doc: onPage('t4', 'timeouts.md'), score: 0.5 },
    ],
    0.2,
  );
  const evidence = semanticPageEvidence(grades, 3);
  t.true(near(evidence.get('timeouts.md')!, (1 + 0.9 + 0.6) / 3), 'its best three; the fourth does not count');
  t.true(near(evidence.get('extensions.md')!, 0.95 / 3), 'one neighbour: a third of its grade');
  t.is(evidence.get('other.md'), undefined);
});

test('gap filling with page evidence: neighbours agreeing on a page reorder close lexical matches; one neighbour does not', (t) => {
  const onPage = (id: string, path: string) => contextSnippet({ id, path });
  // The words favour a snippet on another page (1 against 0.8); the vectors find three snippets of the right page.
  const lexical = [
    { doc: onPage('words', 'extensions.md'), score: 10 },
    { doc: onPage('right', 'timeouts.md'), score: 8 },
  ];
  const agreeing = [
    { doc: onPage('right', 'timeouts.md'), score: 0.7 },
    { doc: onPage('right2', 'timeouts.md'), score: 0.69 },
    { doc: onPage('right3', 'timeouts.md'), score: 0.68 },
  ];
  const page = { weight: 0.3, top: 3 };
  const before = (list: ReturnType<typeof fillGaps>, a: string, b: string) => ids(list).indexOf(a) < ids(list).indexOf(b);
  t.true(before(fillGaps(lexical, agreeing, 0.8, 0.2, 0.6, page), 'right', 'words'));
  t.is(ids(fillGaps(lexical, agreeing, 0.8, 0.2, 0.6))[0], 'words', 'without page evidence the lexical best stays first');
  // One neighbour alone, however near, lifts its page by a third of the weight: not enough.
  t.deepEqual(ids(fillGaps(lexical, agreeing.slice(0, 1), 0.8, 0.2, 0.6, page)), ['words', 'right']);
  // Through fuseHybrid (kNN scores are (1 + cosine) / 2): on by default, off for a question naming identifiers.
  const knn = agreeing.map((c) => ({ doc: c.doc, score: (1 + c.score) / 2 }));
  t.true(before(fuseHybrid(lexical, knn), 'right', 'words'));
  t.is(ids(fuseHybrid(lexical, knn, SEARCH_WEIGHTS.hybrid, { namesIdentifiers: true }))[0], 'words');
});
