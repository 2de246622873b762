import test from 'ava';
import { analyzeQuery } from './analysis';
import { answerFromLegs, nearEnough, withClearLead, withoutRepeatedEvidence, type AnswerInput } from './answer';
import type { RescoredCandidate } from './rescore';
import { infoSection, scoredCandidate, timeoutPart, unit, termStats } from './test-fixtures';
import type { SnippetDocument } from './types';
import { SEARCH_WEIGHTS } from './weights';

const w = SEARCH_WEIGHTS.answer;
/** The fixtures' snippets all hold the same words of "set a timeout": the tests of the other rules leave repeated evidence aside. */
const rulesApart = { ...SEARCH_WEIGHTS, answer: { ...w, sameEvidence: Infinity } };
const stats = termStats({ timeout: 5, set: 60 });
/** A unit vector at `cos` to the question's [1, 0]. */
const at = (cos: number) => [cos, Math.sqrt(1 - cos * cos)];
const input = (lexical: AnswerInput['lexical'], over: Partial<AnswerInput> = {}): AnswerInput => ({
  lexical,
  semantic: [],
  analyzed: analyzeQuery('set a timeout'),
  stats,
  queryVector: unit([1, 0]),
  budget: 5000,
  libraryId: '/acme/http',
  version: '3.2.0',
  query: 'set a timeout',
  ...over,
});
const info = (title: string, content: string, over: Partial<SnippetDocument> = {}) => infoSection(title, content, { tokens: 100, ...over });
const ids = (snippets: readonly { doc: { id: string } }[]) => snippets.map((s) => s.doc.id);

test('a candidate far from the question in meaning is served only on strong words', (t) => {
  const row = (cosine: number | undefined, score: number) => ({ cosine, score }) as RescoredCandidate;
  const best = 0.8;
  t.true(nearEnough(row(best - w.farCosine + 0.01, 0.6), best, 1, w), 'within the distance: the relative floors decide');
  t.false(nearEnough(row(best - w.farCosine - 0.01, w.farFloor - 0.05), best, 1, w), 'far and scoring below the far floor');
  t.true(nearEnough(row(best - w.farCosine - 0.01, w.farFloor + 0.05), best, 1, w), 'far, but its words make it nearly the best');
  t.false(nearEnough(row(w.cosineFloor - 0.01, 0.6), w.cosineFloor + 0.05, 1, w), 'close to a weak best, but below the cosine floor');
  t.true(nearEnough(row(w.cosineFloor - 0.01, w.farFloor), w.cosineFloor + 0.05, 1, w), 'below the cosine floor on strong words');
  t.true(nearEnough(row(undefined, 0.1), best, 1, w), 'without a vector it is not judged by meaning');
  t.true(nearEnough(row(0.1, 0.1), -Infinity, 1, w), 'with no vector in the pool nothing is');

  // Through the answer: the same words on one page, near the question's meaning or far from it.
  const page = { path: 'docs/timeouts.md' };
  const first = scoredCandidate(infoSection('Timeouts', 'Set a timeout: the timeout applies to each request.', page), at(0.8));
  const words = 'Set the timeout of a pool: set it per client.';
  const near = scoredCandidate(infoSection('Pool timeout', words, { ...page, id: 'near' }), at(0.8 - w.farCosine + 0.05));
  const far = scoredCandidate(infoSection('Pool timeout', words, { ...page, id: 'far' }), at(0.8 - w.farCosine - 0.1));
  const withNear = answerFromLegs(input([first, near]));
  t.deepEqual(ids(withNear.snippets), [first.doc.id, 'near']);
  const withFar = answerFromLegs(input([first, far]));
  const ratio = withFar.ranked[1]!.score / withFar.ranked[0]!.score;
  t.true(ratio >= w.relativeFloor && ratio < w.farFloor, `the far one passes the relative floor but not the far one (${ratio.toFixed(2)})`);
  t.deepEqual(ids(withFar.snippets), [first.doc.id], 'far in meaning: left out');
  const off = answerFromLegs(input([first, far]), { ...SEARCH_WEIGHTS, answer: { ...w, farCosine: 2 } });
  t.deepEqual(ids(off.snippets), [first.doc.id, 'far'], 'without the rule it is served');
});

test('a later part pays for the parts it brings: its group must clear the length floor for all of its tokens', (t) => {
  const first = scoredCandidate(infoSection('Timeouts', 'Set a timeout: the timeout applies to each request.', { path: 'docs/timeouts.md', tokens: 150 }));
  // A later part as relevant as a short section would need to be, whose opening part is long.
  const client = (title: string, content: string, over: Parameters<typeof infoSection>[2]) =>
    scoredCandidate(infoSection(title, content, { breadcrumb: ['Client timeouts', title], path: 'docs/client.md', tokens: 150, ...over }));
  const later = client('Client options', 'Set a timeout: the timeout of a client.', { part: 1, startLine: 40 });
  const sibling = client('Client defaults', 'Set a timeout: the timeout of every client.', { startLine: 90 });
  const opening = client('Client options', 'Every option of a client, one by one.', { part: 0, startLine: 10, tokens: 1600 });
  const alone = answerFromLegs({ ...input([first, later, sibling]), queryVector: undefined }, rulesApart);
  const ratio = alone.ranked.find((r) => r.doc.id === later.doc.id)!.score / alone.ranked[0]!.score;
  t.true(ratio >= w.relativeFloor, `the part alone clears its own floor (${ratio.toFixed(2)})`);
  t.true(ids(alone.snippets).includes(later.doc.id), 'without its earlier part to read, it is served');
  const whole = answerFromLegs({ ...input([first, later, sibling]), queryVector: undefined, parts: [opening] }, rulesApart);
  t.false(
    whole.snippets.some((s) => s.doc.id === opening.doc.id || s.doc.id === later.doc.id),
    `with a 1,600-token opening part the group needs ${(w.relativeFloor * (1 + w.sizeFloor * Math.log2(1750 / w.sizeFloorFrom))).toFixed(2)} of the best (it scores ${ratio.toFixed(2)})`,
  );
  t.true(ids(whole.snippets).includes(sibling.doc.id), 'the rest of the answer stays');
  const short = scoredCandidate({ ...opening.doc, id: 'short-opening', tokens: 60 });
  const served = answerFromLegs({ ...input([first, later, sibling]), queryVector: undefined, parts: [short] }, rulesApart);
  t.true(
    served.snippets.some((s) => s.doc.id === 'short-opening'),
    'a short opening part: the group is served from it',
  );
});

test('sections holding exactly the same words of the question are one kind of evidence: only the first few are served', (t) => {
  const row = (id: string, matched: string) => ({ doc: { id }, matched }) as unknown as RescoredCandidate;
  const passed = [row('a', '0,1'), row('b', '1'), row('c', '1'), row('d', '0,1'), row('e', '1'), row('f', ''), row('g', '1,2'), row('h', '')];
  t.deepEqual(
    withoutRepeatedEvidence(passed, 2).map((r) => r.doc.id),
    ['a', 'b', 'c', 'd', 'f', 'g', 'h'],
    'a third section with only word 1 goes; other sets of words, and meaning alone, are other evidence',
  );
  t.deepEqual(
    withoutRepeatedEvidence([row('a', '1'), row('b', '1')], 0).map((r) => r.doc.id),
    ['a'],
    'the best always stays',
  );
  const parts = [0, 1, 2].map((k) => scoredCandidate(timeoutPart(k, 10 + k)));
  const asParts = parts.map((p) => ({ doc: p.doc, matched: '1' }) as unknown as RescoredCandidate);
  t.deepEqual(
    withoutRepeatedEvidence([row('a', '1'), ...asParts, row('b', '1'), row('c', '1')], 2).map((r) => r.doc.id),
    ['a', ...ids(parts)],
    'the parts of one long section are one section: b would be the third',
  );

  // Through the answer: a migration guide's removed methods, each matching only the question's context words.
  const q = 'after the upgrade to version 5 the timeout option is ignored';
  const answerSection = scoredCandidate(
    info('Timeout option', 'In version 5 the timeout option is read per request, not per client.', { path: 'docs/upgrade.md' }),
  );
  const removed = [1, 2, 3, 4].map((k) =>
    scoredCandidate(
      info(`Removed in version 5: method ${k}`, `Version 5 removes method ${k}; upgrade callers to the new form.`, {
        path: 'docs/upgrade.md',
        id: `removed-${k}`,
      }),
    ),
  );
  const asked = { analyzed: analyzeQuery(q), query: q, queryVector: undefined };
  const open = answerFromLegs(input([answerSection, ...removed], asked), {
    ...SEARCH_WEIGHTS,
    answer: { ...w, sameEvidence: Infinity, pageRepeatStep: 0, lonePageFloor: 0 },
  });
  t.is(open.snippets.length, 5, 'without the rule every removed method passes the floors');
  const ruled = answerFromLegs(input([answerSection, ...removed], asked), {
    ...SEARCH_WEIGHTS,
    answer: { ...w, sameEvidence: 2, pageRepeatStep: 0, lonePageFloor: 0 },
  });
  t.deepEqual(ids(ruled.snippets), [answerSection.doc.id, 'removed-1', 'removed-2']);
  // A one-term question's sections all hold its one word: the rule does not apply to it.
  const topic = 'removed';
  const sections = [1, 2, 3, 4].map((k) => scoredCandidate(info(`Removed method ${k}`, `Method ${k} is removed.`, { path: 'docs/upgrade.md' })));
  const asTopic = answerFromLegs(input(sections, { analyzed: analyzeQuery(topic), query: topic, queryVector: undefined }), {
    ...SEARCH_WEIGHTS,
    answer: { ...w, sameEvidence: 2, pageRepeatStep: 0, lonePageFloor: 0 },
  });
  t.is(asTopic.snippets.length, 4);
});

test('when one page clearly leads, another page must be nearly as good or as close in meaning', (t) => {
  const row = (id: string, path: string, score: number, cosine?: number) => ({ doc: { id, path }, score, cosine }) as unknown as RescoredCandidate;
  const best = row('best', 'docs/upgrade.md', 1, 0.8);
  // The best other page scores 0.8: a lead of 0.2, so another page needs the relative floor plus gain × (0.2 − leadFrom).
  const needed = w.relativeFloor + w.leadGain * (0.2 - w.leadFrom);
  const passed = [
    best,
    row('other-best', 'docs/hooks.md', 0.8, 0.5),
    row('same-page', 'docs/upgrade.md', 0.56, 0.5),
    row('weak', 'docs/hooks.md', needed - 0.02, 0.5),
    row('close-in-meaning', 'docs/errors.md', needed - 0.02, 0.8 - w.leadCosine + 0.01),
    row('strong', 'docs/api.md', needed + 0.01, 0.4),
  ];
  t.true(needed < 0.8, `the best other page itself stays (${needed.toFixed(2)})`);
  t.deepEqual(
    withClearLead(passed, 0.8, w.leadGain, w).map((r) => r.doc.id),
    ['best', 'other-best', 'same-page', 'close-in-meaning', 'strong'],
    'the leading page keeps its floors; another page needs the raised floor or a cosine near the best',
  );
  const close = [best, row('other-best', 'docs/hooks.md', 1 - w.leadFrom + 0.01, 0.5), row('weak', 'docs/hooks.md', w.relativeFloor + 0.01, 0.3)];
  t.is(withClearLead(close, 0.8, w.leadGain, w).length, 3, 'no clear lead: the floors alone decide');
  t.is(withClearLead(passed, -Infinity, w.leadGain, w).length, passed.length, 'without vectors nothing is exempt by meaning: the rule is off');
  t.is(withClearLead(passed, 0.8, 0, w).length, passed.length, 'no gain, no rule');

  // Through the answer: a page whose section names the question leads; another page sharing only its words goes.
  const q = 'the timeout option is ignored after the upgrade';
  const named = scoredCandidate(
    info('Timeout option', 'After the upgrade the timeout option is read per request: set it on each request.', {
      path: 'docs/upgrade.md',
    }),
    at(0.8),
  );
  const sharing = scoredCandidate(
    info('Options', 'The timeout option can be set once; an ignored option warns on upgrade.', { path: 'docs/options.md' }),
    [0.6, 0, 0.8],
  ); // at 0.6 to the question, not a copy of the first
  const asked = { analyzed: analyzeQuery(q), query: q };
  const weights = (leadGain: number) => ({ ...rulesApart, answer: { ...rulesApart.answer, leadGain, lonePageFloor: 0 } });
  const open = answerFromLegs(input([named, sharing], asked), weights(0));
  t.deepEqual(ids(open.snippets), [named.doc.id, sharing.doc.id], 'without the rule the other page clears the floors');
  const ratio = open.ranked[1]!.score / open.ranked[0]!.score;
  const lead = 1 - ratio;
  t.true(ratio < w.relativeFloor + w.leadGain * (lead - w.leadFrom), `it scores ${ratio.toFixed(2)} of the best: below the raised floor`);
  t.deepEqual(ids(answerFromLegs(input([named, sharing], asked), weights(w.leadGain)).snippets), [named.doc.id]);
  const larger = answerFromLegs(input([named, sharing], { ...asked, budget: 40_000 }), weights(w.leadGain));
  t.deepEqual(ids(larger.snippets), [named.doc.id, sharing.doc.id], 'a budget eight times the default asks for more: an eighth of the rise');
});
