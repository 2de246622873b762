import test from 'ava';
import { fuseReciprocalRank } from './fusion';
import { contextSnippet } from './test-fixtures';

test('reciprocal rank fusion rewards snippets ranked well in several lists', (t) => {
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => contextSnippet({ id }));
  const code = [{ doc: a, score: 9 }, { doc: b, score: 8 }, { doc: c, score: 1 }];
  const prose = [{ doc: b, score: 30 }, { doc: d, score: 20 }, { doc: c, score: 10 }];
  const fused = fuseReciprocalRank([code, prose], 60);
  t.deepEqual(fused.map((f) => f.doc.id), ['b', 'c', 'a', 'd']);
  t.is(fused[0].score, 1 / 62 + 1 / 61);
  t.is(fused[3].score, 1 / 62);
});

test('ties keep the order of first appearance; empty input gives nothing', (t) => {
  const [a, b] = ['a', 'b'].map((id) => contextSnippet({ id }));
  t.deepEqual(fuseReciprocalRank([[{ doc: a, score: 1 }], [{ doc: b, score: 1 }]]).map((f) => f.doc.id), ['a', 'b']);
  t.deepEqual(fuseReciprocalRank([]), []);
});

test('blend: normalised lexical score and the cosine graded by its gap to the best, weighted; a missing leg counts 0', async (t) => {
  const { blendScores } = await import('./fusion');
  const [a, b, c] = ['a', 'b', 'c'].map((id) => contextSnippet({ id }));
  const lexical = [{ doc: a, score: 10 }, { doc: b, score: 5 }];
  const semantic = [{ doc: c, score: 0.8 }, { doc: b, score: 0.7 }, { doc: a, score: 0.5 }];
  const fused = blendScores(lexical, semantic, 0.4, 0.2);
  const score = (id: string) => fused.find((f) => f.doc.id === id)!.score;
  t.is(score('a'), 0.6 * 1 + 0.4 * 0, 'a cosine 0.3 below the best gets nothing at scale 0.2');
  t.true(Math.abs(score('b') - (0.6 * 0.5 + 0.4 * 0.5)) < 1e-12, 'half the scale below the best: half the share');
  t.is(score('c'), 0.4);
  t.deepEqual(fused.map((f) => f.doc.id), ['a', 'b', 'c']);
  // A semantic-only find ranks first when the semantic leg is weighted high enough.
  t.is(blendScores(lexical, semantic, 0.7, 0.2)[0].doc.id, 'c');
  // Neighbours within a hair of each other stay within a hair: noise is not stretched into rank.
  const close = blendScores([], [{ doc: a, score: 0.797 }, { doc: b, score: 0.79 }], 1, 0.2);
  t.true(close[0].score - close[1].score < 0.05);
});

test('hybrid: the configured fusion; an empty semantic leg keeps the lexical list', async (t) => {
  const { fuseHybrid, cosineFromKnnScore } = await import('./fusion');
  const [a, b] = ['a', 'b'].map((id) => contextSnippet({ id }));
  const lexical = [{ doc: a, score: 3 }, { doc: b, score: 1 }];
  t.deepEqual(fuseHybrid(lexical, []), lexical);
  const rrf = fuseHybrid(lexical, [{ doc: b, score: 0.9 }], { method: 'rrf', semantic: 0.4, cosineScale: 0.2, identifierFactor: 0.5, rrfK: 60, knnHits: 10, numCandidatesFactor: 4 });
  t.deepEqual(rrf.map((f) => f.doc.id), ['b', 'a']);
  // kNN scores (1 + cosine) / 2: b's cosine 0.8, a's 0.1 (0.7 below: no share).
  const blend = fuseHybrid(lexical, [{ doc: b, score: 0.9 }, { doc: a, score: 0.55 }], { method: 'blend', semantic: 0.4, cosineScale: 0.2, identifierFactor: 0.5, rrfK: 60, knnHits: 10, numCandidatesFactor: 4 });
  t.deepEqual(blend.map((f) => f.doc.id), ['a', 'b'], 'lexical 1 + semantic 0 beats lexical 1/3 + semantic 1 at weight 0.4');
  // A question naming identifiers halves the semantic share: b's semantic-only lead is gone.
  const semanticOnly = [{ doc: b, score: 1 }];
  const weights = { method: 'blend' as const, semantic: 0.8, cosineScale: 0.2, identifierFactor: 0.25, rrfK: 60, knnHits: 10, numCandidatesFactor: 4 };
  t.is(fuseHybrid([{ doc: a, score: 1 }], semanticOnly, weights)[0].doc.id, 'b');
  t.is(fuseHybrid([{ doc: a, score: 1 }], semanticOnly, weights, { namesIdentifiers: true })[0].doc.id, 'a');
  t.is(cosineFromKnnScore(1), 1);
  t.is(cosineFromKnnScore(0.5), 0);
});
