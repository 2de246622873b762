import test from 'ava';
import { analyzeQuery } from './analysis';
import { countToken, libraryIdf, rescoreCandidates } from './rescore';
import { infoSection, scoredCandidate, unit } from './test-fixtures';
import type { TermStats } from './term-stats';
import { SEARCH_WEIGHTS } from './weights';

const stats = (total: number, df: Record<string, number>): TermStats => ({ total, df: new Map(Object.entries(df)) });
const info = infoSection;
const near = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1e-6;

test('countToken counts whole tokens only', (t) => {
  t.is(countToken('ctx ctx.cookies.set ctx', 'ctx'), 2);
  t.is(countToken('cookies.set cooki', 'cooki'), 1);
  t.is(countToken('aa a aaa a', 'a'), 2);
  t.is(countToken('set', 'set'), 1);
  t.is(countToken('reset settings set', 'set'), 1);
  t.is(countToken('', 'set'), 0);
});

test('libraryIdf: a word every snippet of the library has weighs about nothing, a rare one most', (t) => {
  const s = stats(1000, { ctx: 1000, cooki: 1 });
  t.true(libraryIdf(s, 'ctx') < 0.001);
  t.true(near(libraryIdf(s, 'cooki'), Math.log(1 + 999.5 / 1.5)));
  t.true(near(libraryIdf(s, 'never'), Math.log(1 + 1000.5 / 0.5)), 'a word in no snippet');
});

test("the library's own frequencies decide: a word all its snippets share does not rank", (t) => {
  const analyzed = analyzeQuery('ctx cookie');
  t.deepEqual(analyzed.terms, ['ctx', 'cooki']);
  const busy = scoredCandidate(info('Context', 'The ctx object: ctx is passed to ctx middleware, ctx everywhere.'));
  const cookies = scoredCandidate(info('Cookies', 'Cookies are read from the request, see ctx for more words here.'));
  // In koa every snippet says ctx: cookies decide.
  const koa = rescoreCandidates([busy, cookies], analyzed, stats(500, { ctx: 500, cooki: 12 }), undefined);
  t.deepEqual(
    koa.map((r) => r.doc.id),
    [cookies.doc.id, busy.doc.id],
  );
  t.true(koa[0].parts.lexical > 10 * koa[1].parts.lexical, 'ctx weighs nearly nothing in koa');
  // Coverage counts the question's words a snippet holds, whatever their weight: ctx is still there.
  t.true(near(koa[1].coverage, 0.5));
  t.true(near(koa[0].coverage, 1));
  // Which of them, by their place in the question: the evidence a candidate is for.
  t.is(koa[1].matched, '0');
  t.is(koa[0].matched, '0,1');
  // In a library where ctx is rare and cookies are everywhere, the other way round.
  const other = rescoreCandidates([busy, cookies], analyzed, stats(500, { ctx: 3, cooki: 500 }), undefined);
  t.deepEqual(
    other.map((r) => r.doc.id),
    [busy.doc.id, cookies.doc.id],
  );
});

test('a heading that carries the question lifts a snippet above the same words in the body', (t) => {
  const body = 'Pass a timeout in seconds to every request you send.';
  const plain = scoredCandidate(info('Configuration', body));
  const titled = scoredCandidate(info('Timeouts', body));
  const out = rescoreCandidates([plain, titled], analyzeQuery('timeout'), stats(100, { timeout: 4 }), undefined);
  t.deepEqual(
    out.map((r) => r.doc.id),
    [titled.doc.id, plain.doc.id],
  );
  t.deepEqual(out[0].parts.title, 1);
  t.deepEqual(out[0].parts.headings, 1);
  t.deepEqual([out[1].parts.title, out[1].parts.headings], [0, 0]);
  // Only in the heading path (a parent section's title): the path share, not the title's.
  const parent = scoredCandidate(info('Per request', body, { breadcrumb: ['Guide', 'Timeouts', 'Per request'] }));
  const [r] = rescoreCandidates([parent], analyzeQuery('timeout'), stats(100, { timeout: 4 }), undefined);
  t.deepEqual([r.parts.title, r.parts.headings], [0, 1]);
});

test('cosines are graded from the best one down to 0 at the scale below it', (t) => {
  const w = SEARCH_WEIGHTS.rescore;
  t.is(w.cosineScale, 0.3);
  const at = (cos: number) => [cos, Math.sqrt(1 - cos * cos)];
  const pool = [0.5, 0.9, 0.75].map((cos, i) => scoredCandidate(info(`Section ${i}`, 'Unrelated words only here.'), at(cos)));
  const noVector = scoredCandidate(info('Section 3', 'Unrelated words only here too.'));
  const out = rescoreCandidates([...pool, noVector], analyzeQuery('timeout'), stats(100, { timeout: 4 }), unit([1, 0]));
  const of = (c: { doc: { id: string } }) => out.find((r) => r.doc.id === c.doc.id);
  const grade = (c: { doc: { id: string } }) => of(c)?.parts.semantic;
  t.true(near(of(pool[1])?.cosine, 0.9));
  t.true(near(grade(pool[1]), 1));
  t.true(near(grade(pool[2]), 0.5));
  t.is(grade(pool[0]), 0, 'more than the scale below the best');
  t.is(of(noVector)?.cosine, undefined);
  t.truthy(of(noVector));
  t.is(grade(noVector), 0);
  t.deepEqual(
    out.map((r) => r.doc.id),
    [pool[1], pool[2], pool[0], noVector].map((c) => c.doc.id),
    'ties keep the pool order',
  );
  // Without the question's vector nothing is graded.
  t.true(rescoreCandidates(pool, analyzeQuery('timeout'), stats(100, {}), undefined).every((r) => r.cosine === undefined && r.parts.semantic === 0));
});

test('the score is the weighted sum of its parts; lexical is BM25F over the best of the pool', (t) => {
  const w = SEARCH_WEIGHTS.rescore;
  const pool = [
    scoredCandidate(info('Timeouts', 'Set a timeout for each request.'), [1, 0.2]),
    scoredCandidate(info('Retries', 'Retries wait between attempts, a timeout applies to each.'), [0.8, 0.6]),
    scoredCandidate(info('Proxies', 'Proxies are configured per client.'), [0.1, 1]),
  ];
  const out = rescoreCandidates(pool, analyzeQuery('set a timeout'), stats(100, { set: 30, timeout: 4 }), unit([1, 0]));
  t.true(near(out[0].parts.lexical, 1), 'the best BM25F is 1');
  for (const r of out) {
    t.true(r.parts.lexical >= 0 && r.parts.lexical <= 1);
    t.true(near(r.score, w.lexical * r.parts.lexical + w.semantic * r.parts.semantic + w.title * r.parts.title + w.headings * r.parts.headings));
  }
  t.deepEqual(
    out.map((r) => r.doc.title),
    ['Timeouts', 'Retries', 'Proxies'],
  );
  t.is(out[2].parts.lexical, 0);
  t.deepEqual(rescoreCandidates([], analyzeQuery('x'), stats(1, {}), undefined), []);
});
