import test from 'ava';
import { analyzeQuery } from './analysis';
import { answerFromLegs, candidatePool, nothingRelevant, relevanceFloor, type AnswerInput } from './answer';
import { isPageIntro, withPageRepeats, withPageSupport } from './page-evidence';
import type { RescoredCandidate } from './rescore';
import { infoSection, scoredCandidate, timeoutPart, unit, termStats } from './test-fixtures';
import type { SnippetDocument } from './types';
import { SEARCH_WEIGHTS } from './weights';

const w = SEARCH_WEIGHTS.answer;
const stats = termStats({ timeout: 5, set: 60, cooki: 8 });
const info = (title: string, content: string, over: Partial<SnippetDocument> = {}) => infoSection(title, content, { tokens: 100, ...over });
/** A unit vector at `cos` to the question's [1, 0]. */
const at = (cos: number) => [cos, Math.sqrt(1 - cos * cos)];
const input = (lexical: AnswerInput['lexical'], over: Partial<AnswerInput> = {}): AnswerInput => ({
  lexical,
  semantic: [],
  analyzed: analyzeQuery('set a timeout'),
  stats,
  budget: 5000,
  libraryId: '/acme/http',
  version: '3.2.0',
  query: 'set a timeout',
  ...over,
});
const ids = (snippets: readonly { doc: { id: string } }[]) => snippets.map((s) => s.doc.id);
/** The fixtures' snippets all hold the same words of "set a timeout": the tests of the other rules leave repeated evidence aside. */
const rulesApart = { ...SEARCH_WEIGHTS, answer: { ...w, sameEvidence: Infinity } };

test('nothing is relevant when the best cosine in the pool is below the floor', (t) => {
  // The words match, the meaning does not: for a question (more than a topic's few terms,
  // none of them in a heading) the vectors decide.
  const question = 'set a timeout on slow uploads over the network';
  const asked = { query: question, analyzed: analyzeQuery(question) };
  t.true(asked.analyzed.terms.length > w.topicTerms);
  const below = [w.cosineFloor - 0.01, 0.2].map((cos) => scoredCandidate(info('Sessions', `Set a timeout on slow uploads (${cos}).`), at(cos)));
  const none = answerFromLegs(input(below, { queryVector: unit([1, 0]), ...asked }));
  t.true(none.nothingRelevant);
  t.deepEqual(none.snippets, []);
  t.is(none.ranked.length, 2, 'the pool is still ranked (the 404 names its nearest sections)');
  // A candidate holding every word of the question needs `wholeQuestion` less cosine.
  const whole = (cos: number) => scoredCandidate(info('Sessions', `Set a timeout on slow uploads over the network (${cos}).`), at(cos));
  t.false(
    answerFromLegs(input([whole(w.cosineFloor - 0.01)], { queryVector: unit([1, 0]), ...asked })).nothingRelevant,
    'every word held, just below the floor',
  );
  t.true(
    answerFromLegs(input([whole(w.cosineFloor - w.wholeQuestion - 0.01)], { queryVector: unit([1, 0]), ...asked })).nothingRelevant,
    'every word held is not enough far below it',
  );
  const above = [w.cosineFloor + 0.01, 0.2].map((cos) =>
    scoredCandidate(info('Sessions', `Set a timeout on slow uploads over the network (${cos}).`), at(cos)),
  );
  const some = answerFromLegs(input(above, { queryVector: unit([1, 0]), ...asked }));
  t.false(some.nothingRelevant);
  t.true(some.snippets.length > 0);
});

test('without vectors, nothing is relevant when no snippet holds the coverage floor of the question', (t) => {
  const unrelated = [
    scoredCandidate(info('Proxies', 'Proxies are configured per client.')),
    scoredCandidate(info('Auth', 'Pass credentials with every call.')),
  ];
  const none = answerFromLegs(input(unrelated, { query: 'how do I bake sourdough bread', analyzed: analyzeQuery('how do I bake sourdough bread') }));
  t.true(none.nothingRelevant);
  t.deepEqual(none.snippets, []);
  const one = answerFromLegs(input([...unrelated, scoredCandidate(info('Timeouts', 'A timeout applies to each request.'))]));
  t.false(one.nothingRelevant);
  t.deepEqual(
    one.snippets.map((s) => s.doc.title),
    ['Timeouts'],
  );
  // The floors themselves, on re-scored rows.
  const row = (cosine: number | undefined, coverage: number, title = 0) =>
    ({ cosine, coverage, parts: { lexical: 0, semantic: 0, title, headings: title } }) as RescoredCandidate;
  t.true(nothingRelevant([], false, w));
  t.true(nothingRelevant([row(undefined, w.coverageFloor - 0.05)], false, w));
  t.false(nothingRelevant([row(undefined, w.coverageFloor - 0.05), row(undefined, w.coverageFloor + 0.05)], false, w));
  t.true(nothingRelevant([row(w.cosineFloor - 0.05, 0.9)], true, w), 'with vectors the cosine decides');
  t.false(nothingRelevant([row(undefined, w.coverageFloor + 0.05)], true, w), 'vectors on but none in the pool: the coverage decides');
  // Both legs: the question's words in a candidate's own heading count towards the cosine floor.
  const below = w.cosineFloor - w.headingEvidence / 2;
  t.true(nothingRelevant([row(below, 0.5, 0.3)], true, w), 'a few of its words in a heading do not make a question about the library');
  t.false(nothingRelevant([row(below, 0.5, 1)], true, w), 'a heading holding the whole question lowers the cosine it needs');
  t.true(nothingRelevant([row(below, 0.5, 0), row(0, 0.5, 1)], true, w), 'the cosine and the heading are one candidate’s');
  // A topic of a word or two is answered when one candidate holds all its terms, whatever its cosine.
  t.false(nothingRelevant([row(0.1, 1)], true, w, 1), 'a one-word topic held whole by a candidate');
  t.false(nothingRelevant([row(0.1, 0.5), row(0.05, 1)], true, w, w.topicTerms));
  t.true(nothingRelevant([row(0.1, 0.5)], true, w, 2), 'a two-word topic with one word in the library is not about it');
  t.true(nothingRelevant([row(0.1, 1)], true, w, w.topicTerms + 1), 'a longer question needs the cosine');
  t.false(nothingRelevant([row(w.cosineFloor - w.wholeQuestion + 0.01, 1)], true, w, w.topicTerms + 1), 'less of it when one candidate holds every term');
  t.true(nothingRelevant([row(w.cosineFloor - w.wholeQuestion + 0.01, 0.9)], true, w, w.topicTerms + 1), 'not when it holds most of them');
});

test('a one-word topic with a poor cosine is answered from the snippet holding the word; a topic from elsewhere is not', (t) => {
  // The question's vector is [1, 0]: every candidate's cosine is far below the floor.
  const pool = [
    scoredCandidate(info('Request Config', 'These are the options for making requests: timeout, headers, params.'), at(0.16)),
    scoredCandidate(info('Interceptors', 'Intercept requests or responses before they are handled.'), at(0.1)),
  ];
  const ask = (query: string) => answerFromLegs(input(pool, { query, analyzed: analyzeQuery(query), queryVector: unit([1, 0]) }));
  const topic = ask('timeout');
  t.false(topic.nothingRelevant);
  t.deepEqual(
    topic.snippets.map((s) => s.doc.title),
    ['Request Config'],
  );
  t.true(ask('sourdough bread').nothingRelevant);
  t.true(ask('set a timeout on slow uploads over the network').nothingRelevant, 'a question needs the cosine');
});

test('a topic is answered by the page whose heading says exactly what it says, before sections naming it among other words', (t) => {
  const page = scoredCandidate(info('Request Body', 'Declare a request body with a Pydantic model.', { path: 'docs/body.md', breadcrumb: ['Request Body'] }));
  const sections = [
    scoredCandidate(
      info('Use the RequestValidationError body', 'The request body that failed validation is in the error.', {
        path: 'docs/errors.md',
        breadcrumb: ['Handling Errors', 'Use the RequestValidationError body'],
      }),
    ),
    scoredCandidate(
      info('Accessing the request body in a handler', 'Read the request body in an exception handler.', {
        path: 'docs/custom.md',
        breadcrumb: ['Custom Request', 'Accessing the request body in a handler'],
      }),
    ),
  ];
  const ask = (query: string) => answerFromLegs(input([...sections, page], { query, analyzed: analyzeQuery(query) }));
  const topic = ask('request body');
  t.true(topic.ranked.find((r) => r.doc.id === page.doc.id)?.named);
  t.is(topic.ranked[0]!.doc.title, 'Request Body');
  const flat = { ...w, namedPage: 1 };
  const unweighted = answerFromLegs(input([...sections, page], { query: 'request body', analyzed: analyzeQuery('request body') }), {
    ...SEARCH_WEIGHTS,
    answer: flat,
  });
  t.is(unweighted.ranked.find((r) => r.doc.id === page.doc.id)!.score * w.namedPage, topic.ranked.find((r) => r.doc.id === page.doc.id)!.score);
  // A deeper section named so is not the page about it; a heading with another word does not name the question.
  const deep = scoredCandidate(
    info('Request Body', 'Configure the request body of the proxy.', { path: 'docs/proxy.md', breadcrumb: ['Proxy', 'Request Body'] }),
  );
  const deeper = answerFromLegs(input([deep], { query: 'request body', analyzed: analyzeQuery('request body') }));
  t.true(deeper.ranked[0]!.named, 'its heading names the question');
  t.is(
    deeper.ranked[0]!.score,
    answerFromLegs(input([deep], { query: 'request body', analyzed: analyzeQuery('request body') }), { ...SEARCH_WEIGHTS, answer: flat }).ranked[0]!.score,
  );
  t.falsy(ask('request body size').ranked.find((r) => r.doc.id === page.doc.id)?.named);
});

test('the answer stops where relevance falls below a share of the best snippet', (t) => {
  const strong = scoredCandidate(info('Timeouts', 'Set a timeout: the timeout applies to each request.'));
  const close = scoredCandidate(info('Request timeout', 'Set the timeout of one request.'));
  const weak = scoredCandidate(info('Sessions', 'Sessions keep settings; you can set many things on them.'));
  const result = answerFromLegs(input([weak, close, strong]));
  const top = result.ranked[0].score;
  const kept = result.ranked.filter((r) => r.score >= w.relativeFloor * top);
  t.true(kept.length > 0 && kept.length < result.ranked.length, 'the floor cuts the pool');
  t.deepEqual(ids(result.snippets), ids(kept));
  t.false(ids(result.snippets).includes(weak.doc.id));
  t.false(result.exhausted);
});

test('a long snippet needs more relevance than a short one to be served; the best snippet always is', (t) => {
  t.is(relevanceFloor(1, 50, w), w.relativeFloor, 'short snippets: the relative floor');
  t.is(relevanceFloor(1, w.sizeFloorFrom, w), w.relativeFloor);
  t.is(relevanceFloor(1, w.sizeFloorFrom * 2, w), w.relativeFloor * (1 + w.sizeFloor), 'one doubling');
  t.is(relevanceFloor(1, w.sizeFloorFrom * 8, w), w.relativeFloor * (1 + 3 * w.sizeFloor), 'three doublings');
  t.is(relevanceFloor(2, 400, w), 2 * relevanceFloor(1, 400, w), 'relative to the best score');

  const best = scoredCandidate(info('Timeouts', 'Set a timeout: the timeout applies to each request.', { tokens: 1600 }));
  const short = scoredCandidate(info('Request timeout', 'Set the timeout of one request.', { tokens: 100 }));
  const long = scoredCandidate(info('Request timeouts', 'Set the timeout of each one request.', { tokens: 1600 }));
  const steep = { ...SEARCH_WEIGHTS, answer: { ...rulesApart.answer, sizeFloor: 0.5 } };
  const flat = { ...SEARCH_WEIGHTS, answer: { ...rulesApart.answer, sizeFloor: 0 } };
  const both = answerFromLegs(input([best, short, long]), flat);
  t.deepEqual(new Set(ids(both.snippets)), new Set([best.doc.id, short.doc.id, long.doc.id]), 'without the size term all three pass');
  const sized = answerFromLegs(input([best, short, long]), steep);
  t.true(ids(sized.snippets).includes(best.doc.id), 'the best is served however long it is');
  t.true(ids(sized.snippets).includes(short.doc.id));
  t.false(ids(sized.snippets).includes(long.doc.id), 'as relevant as the short one, but 16 times longer');
});

test('a lone hit needs more relevance: a snippet alone on its page above the floors is served only near the best', (t) => {
  const row = (path: string, score: number) => ({ doc: { path, id: `${path}@${score}` }, score });
  const loneMin = 0.65;
  const passed = [
    row('docs/cookies.md', 1),
    row('docs/cookies.md', 0.6),
    row('docs/sessions.md', 0.7),
    row('docs/proxies.md', 0.6),
    row('docs/auth.md', 0.55),
    row('docs/auth.md', 0.54),
  ];
  t.deepEqual(
    withPageSupport(passed, loneMin).map((r) => r.doc.id),
    ['docs/cookies.md@1', 'docs/cookies.md@0.6', 'docs/sessions.md@0.7', 'docs/auth.md@0.55', 'docs/auth.md@0.54'],
    'a page with two candidates supports both; a lone one stays only at the lone floor',
  );
  t.deepEqual(
    withPageSupport([row('docs/only.md', 0.2)], loneMin).map((r) => r.doc.id),
    ['docs/only.md@0.2'],
    'the best always stays',
  );

  // Through the answer: the same relevance, alone on its page or beside another of its page.
  const best = scoredCandidate(info('Timeouts', 'Set a timeout: the timeout applies to each request.', { path: 'docs/timeouts.md' }));
  const lone = scoredCandidate(info('Session settings', 'Sessions keep settings: set one timeout there.', { path: 'docs/sessions.md' }));
  const answered = answerFromLegs(input([best, lone]), rulesApart);
  const ratio = answered.ranked[1]!.score / answered.ranked[0]!.score;
  t.true(ratio >= w.relativeFloor && ratio < w.lonePageFloor, `the second scores between the floors (${ratio.toFixed(2)})`);
  t.deepEqual(ids(answered.snippets), [best.doc.id], 'alone on its page: left out');
  const off = answerFromLegs(input([best, lone]), { ...SEARCH_WEIGHTS, answer: { ...rulesApart.answer, lonePageFloor: 0 } });
  t.deepEqual(ids(off.snippets), [best.doc.id, lone.doc.id], 'without the rule it passes the relative floor');
  const sibling = scoredCandidate(info('Session settings', 'Sessions keep settings: set each timeout here.', { path: 'docs/sessions.md' }));
  const supported = answerFromLegs(input([best, lone, sibling]), rulesApart);
  t.true(ids(supported.snippets).includes(lone.doc.id), 'with another candidate of its page above the floors it is served');
});

test("an answer is not a page copied out: a page's candidates beyond the first few need a rising floor", (t) => {
  const row = (path: string, score: number) => ({ doc: { path, id: `${path}@${score}` }, score });
  const passed = [row('a.md', 1), row('a.md', 0.9), row('b.md', 0.8), row('a.md', 0.6), row('a.md', 0.56), row('a.md', 0.55), row('b.md', 0.5)];
  const kept = withPageRepeats(passed, () => 0.5, 2, 0.1).map((r) => r.doc.id);
  // a.md: the 3rd needs 0.5 × 1.1 = 0.55 (0.6 stays), the 4th 0.6 (0.56 goes), the 5th 0.65 (0.55 goes); b.md has two.
  t.deepEqual(kept, ['a.md@1', 'a.md@0.9', 'b.md@0.8', 'a.md@0.6', 'b.md@0.5']);
  t.deepEqual(
    withPageRepeats(passed, () => 0.5, 2, 0).map((r) => r.doc.id),
    passed.map((r) => r.doc.id),
    'without a step nothing goes',
  );

  // Through the answer: five sections of one page, equally relevant.
  const sections = [1, 2, 3, 4, 5].map((k) =>
    scoredCandidate(info(`Timeout ${k}`, `Set a timeout: the timeout applies to each request (${k}).`, { path: 'docs/timeouts.md' })),
  );
  const all = answerFromLegs(input(sections), { ...SEARCH_WEIGHTS, answer: { ...rulesApart.answer, pageRepeatStep: 0 } });
  t.is(all.snippets.length, 5);
  const steep = answerFromLegs(input(sections), { ...SEARCH_WEIGHTS, answer: { ...rulesApart.answer, pageRepeatsFrom: 2, pageRepeatStep: 5 } });
  t.is(steep.snippets.length, 2, 'beyond the first two of the page, none is near enough to the best');
  const larger = answerFromLegs(input(sections, { budget: 5000 * 100 }), {
    ...SEARCH_WEIGHTS,
    answer: { ...rulesApart.answer, pageRepeatsFrom: 2, pageRepeatStep: 5 },
  });
  t.is(larger.snippets.length, 5, 'a budget 100 times the default asks for more of the same page: the step shrinks with it');
});

test("a page's introduction weighs less when a section of its page is a candidate; alone, or for an overview, it keeps its score", (t) => {
  const intro = scoredCandidate(
    info('Timeouts', 'Set a timeout: the timeout applies to each request.', { breadcrumb: ['Timeouts'], pageTitle: 'Timeouts', path: 'docs/timeouts.md' }),
  );
  const section = scoredCandidate(
    info('Request timeouts', 'Set a timeout: the timeout applies to one request.', {
      breadcrumb: ['Timeouts', 'Request timeouts'],
      pageTitle: 'Timeouts',
      path: 'docs/timeouts.md',
    }),
  );
  const other = scoredCandidate(
    info('Pool limits', 'Set how many connections wait before a timeout.', {
      breadcrumb: ['Limits', 'Pool limits'],
      pageTitle: 'Limits',
      path: 'docs/limits.md',
    }),
  );
  t.true(isPageIntro(intro.doc) && !isPageIntro(section.doc));
  const flat = { ...SEARCH_WEIGHTS, answer: { ...w, pageIntro: 1 } };
  const score = (r: ReturnType<typeof answerFromLegs>, id: string) => r.ranked.find((x) => x.doc.id === id)!.score;
  const before = answerFromLegs(input([intro, section, other]), flat);
  t.is(before.ranked[0]!.doc.id, intro.doc.id, 'by its words the introduction ranks first');
  const after = answerFromLegs(input([intro, section, other]));
  t.is(score(after, intro.doc.id), score(before, intro.doc.id) * w.pageIntro);
  t.is(score(after, section.doc.id), score(before, section.doc.id), 'the section is weighed as before');
  t.is(after.ranked[0]!.doc.id, section.doc.id, 'the section that says how comes first');
  const alone = answerFromLegs(input([intro, other]));
  t.is(score(alone, intro.doc.id), score(answerFromLegs(input([intro, other]), flat), intro.doc.id), 'no section of its page: unchanged');
  const overview = answerFromLegs(input([intro, section, other], { overview: true }));
  t.is(score(overview, intro.doc.id), score(before, intro.doc.id), 'an overview asks what the page is about');
});

const part = timeoutPart;

test('the budget is a ceiling filled with whole groups: a group that does not fit is left out, smaller ones after it still come', (t) => {
  const parts = [part(0, 10), part(1, 40), part(2, 70)].map((o) => scoredCandidate(o));
  const small = scoredCandidate(info('Timeouts', 'Set a timeout: the timeout of each request.', { tokens: 50 }));
  const pool = [...parts, small];
  const all = answerFromLegs(input(pool, { budget: 400 }), rulesApart);
  // 3 parts of 100 tokens and a snippet of 50, with a 4-token separator between snippets: 362.
  t.is(all.snippets.length, 2, 'the three parts fit one snippet: they are merged');
  const section = all.snippets.find((s) => s.doc.id === parts[0].doc.id)!.doc;
  t.like(section, { part: 0, lastPart: 2, tokens: 300 });
  t.regex(section.content, /^Part 0:[\s\S]*\n\nPart 1:[\s\S]*\n\nPart 2:/, 'the parts in document order');
  t.true(all.exhausted, 'every relevant candidate was served, merged or not');
  const apart = answerFromLegs(input(pool, { budget: 400 }), { ...SEARCH_WEIGHTS, answer: { ...rulesApart.answer, mergedPartsCeiling: 0 } });
  t.is(apart.snippets.length, 4, 'with merging off, one snippet per part');
  const at0 = ids(apart.snippets).indexOf(parts[0].doc.id);
  t.deepEqual(ids(apart.snippets).slice(at0, at0 + 3), ids(parts), 'the parts adjacent and in order');
  const tight = answerFromLegs(input(pool, { budget: 200 }));
  t.deepEqual(ids(tight.snippets), [small.doc.id]);
  t.deepEqual(answerFromLegs(input(pool, { budget: 40 })).snippets, [], 'nothing fits');
  t.false(answerFromLegs(input(pool, { budget: 40 })).nothingRelevant, 'which is not the same as nothing relevant');
});

test('the pool: the lexical candidates in order, then the nearest neighbours not among them, each snippet once', (t) => {
  const [a, b, c, d] = ['A', 'B', 'C', 'D'].map((x) => scoredCandidate(info(`Section ${x}`, `Words about ${x} only, enough to differ.`, { code: '' })));
  t.deepEqual(ids(candidatePool([a, b], [c, a, d])), ids([a, b, c, d]));
  t.deepEqual(candidatePool([], []), []);
  // Only the answer's share of the kNN leg joins the pool.
  const knn = Array.from({ length: w.knnHits + 5 }, (_, i) => scoredCandidate(info(`Near ${i}`, `Neighbour number ${i} with its own words.`)));
  const result = answerFromLegs(input([a], { semantic: knn }));
  t.is(result.ranked.length, 1 + w.knnHits);
});

test('parts read apart are served before the later part that made the answer, not ranked', (t) => {
  const later = scoredCandidate(info('Options', 'The timeout option sets a timeout on the request.', { part: 1, path: 'docs/a.md', startLine: 30 }));
  const opening = scoredCandidate(info('Options', 'Options of a client.', { part: 0, path: 'docs/a.md', startLine: 10 }));
  const result = answerFromLegs(input([later], { parts: [opening] }));
  t.deepEqual(ids(result.snippets), [opening.doc.id], 'one snippet, from the opening part on');
  t.is(result.snippets[0]!.doc.content, 'Options of a client.\n\nThe timeout option sets a timeout on the request.');
  t.is(result.snippets[0]!.doc.lastPart, 1);
  t.false(
    result.ranked.some((r) => r.doc.id === opening.doc.id),
    'the opening part is not part of the ranking',
  );
});
