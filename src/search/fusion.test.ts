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
