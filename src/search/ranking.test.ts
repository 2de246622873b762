import test from 'ava';
import type { AnalyzedQuery } from './analysis';
import { containsIdentifier, identifierMatcher, kindFactor, rerankCandidates, withoutDuplicates } from './ranking';
import { contextSnippet } from './test-fixtures';
import type { ScoredCandidate } from './types';
import { SEARCH_WEIGHTS } from './weights';
import { cpuMs } from '../util/cpu-time';

const QUERY: AnalyzedQuery = { terms: ['cooki'], phrases: [], exactPhrases: [], identifiers: [], expansions: [], wantsCode: 0.5 };
const withQuery = (overrides: Partial<AnalyzedQuery>): AnalyzedQuery => ({ ...QUERY, ...overrides });
const candidate = (path: string, score: number, overrides: Parameters<typeof contextSnippet>[0] = {}): ScoredCandidate => ({
  doc: contextSnippet({ path, ...overrides }),
  score,
});

test('one page cannot fill the top when other pages are close', (t) => {
  const candidates = [
    candidate('a.md', 10),
    candidate('a.md', 9.8),
    candidate('a.md', 9.6),
    candidate('a.md', 9.4),
    candidate('b.md', 9),
    candidate('c.md', 8.8),
    candidate('d.md', 8.6),
    candidate('e.md', 8.4),
    candidate('f.md', 8.2),
  ];
  const ranked = rerankCandidates(candidates, QUERY);
  t.is(ranked.length, candidates.length);
  const top5 = ranked.slice(0, 5).map((r) => r.doc.path);
  t.is(top5[0], 'a.md');
  t.true(top5.filter((p) => p === 'a.md').length <= 2, top5.join());
  t.true(new Set(top5).size >= 4);
});

test('a page that dominates the evidence keeps several of the first places', (t) => {
  const candidates = [
    candidate('a.md', 10),
    candidate('a.md', 9.9),
    candidate('a.md', 9.8),
    candidate('a.md', 9.7),
    candidate('b.md', 2),
    candidate('c.md', 1.8),
    candidate('d.md', 1.5),
  ];
  const top3 = rerankCandidates(candidates, QUERY)
    .slice(0, 3)
    .map((r) => r.doc.path);
  t.deepEqual(top3, ['a.md', 'a.md', 'a.md']);
});

test('scores come out non-increasing and every unique candidate is kept', (t) => {
  const candidates = Array.from({ length: 30 }, (_, i) => candidate(`p${i % 7}.md`, 30 - i + (i % 3)));
  const ranked = rerankCandidates(candidates, QUERY);
  t.is(ranked.length, 30);
  for (let i = 1; i < ranked.length; i++) t.true(ranked[i - 1].score >= ranked[i].score);
  t.deepEqual(new Set(ranked.map((r) => r.doc.id)), new Set(candidates.map((c) => c.doc.id)));
});

test('code-vs-prose balance follows wantsCode', (t) => {
  const code = candidate('code.md', 5, { kind: 'code' });
  const info = candidate('info.md', 5, { kind: 'info', code: '', content: 'Cookies are signed with app.keys.' });
  t.deepEqual(
    rerankCandidates([info, code], withQuery({ wantsCode: 0.9 })).map((r) => r.doc.kind),
    ['code', 'info'],
  );
  t.deepEqual(
    rerankCandidates([code, info], withQuery({ wantsCode: 0.1 })).map((r) => r.doc.kind),
    ['info', 'code'],
  );
  t.is(kindFactor('code', 0.5, SEARCH_WEIGHTS.rerank), 1);
  t.is(kindFactor('info', 0.5, SEARCH_WEIGHTS.rerank), 1);
});

test('a clearly better prose answer still beats code for a code question', (t) => {
  const code = candidate('code.md', 4, { kind: 'code' });
  const info = candidate('info.md', 10, { kind: 'info', code: '', content: 'The answer.' });
  t.is(rerankCandidates([code, info], withQuery({ wantsCode: 1 }))[0].doc.kind, 'info');
});

test('exact identifiers in the title lift a snippet', (t) => {
  const plain = candidate('a.md', 5, { title: 'Cookies', breadcrumb: ['Context'], code: 'const a = 1;' });
  const named = candidate('b.md', 4.5, { title: 'ctx.cookies.set()', breadcrumb: ['Context'], code: 'const b = 2;' });
  const ranked = rerankCandidates([plain, named], withQuery({ identifiers: ['ctx.cookies.set'] }));
  t.is(ranked[0].doc.path, 'b.md');
});

test('identifiers match whole words only', (t) => {
  t.true(containsIdentifier('call ctx.cookies.set(name)', 'ctx.cookies.set'));
  t.true(containsIdentifier('use lean() for speed', 'lean'));
  t.false(containsIdentifier('the target value', 'get'));
  t.true(containsIdentifier('--version flag', '--version'));
});

test('duplicates of the same code are dropped, the first kept', (t) => {
  const first = candidate('5x/api.md', 5, { code: 'app.use(express.json())' });
  const copy = candidate('4x/api.md', 4, { code: 'app.use(express.json())\n' });
  const other = candidate('x.md', 3, { code: 'app.use(cors())' });
  t.deepEqual(
    withoutDuplicates([first, copy, other]).map((c) => c.doc.path),
    ['5x/api.md', 'x.md'],
  );
  t.deepEqual(
    rerankCandidates([first, copy, other], QUERY).map((r) => r.doc.path),
    ['5x/api.md', 'x.md'],
  );
});

test('without scores the received order is kept', (t) => {
  const candidates = [candidate('a.md', 0), candidate('b.md', 0), candidate('c.md', 0)];
  t.deepEqual(
    rerankCandidates(candidates, QUERY).map((r) => r.doc.path),
    ['a.md', 'b.md', 'c.md'],
  );
  t.deepEqual(rerankCandidates([], QUERY), []);
});

test('very short snippets are penalised', (t) => {
  const short = candidate('a.md', 5, { tokens: 8 });
  const normal = candidate('b.md', 5, { tokens: 80 });
  t.is(rerankCandidates([short, normal], QUERY)[0].doc.path, 'b.md');
});

test('re-ranking 100 candidates takes under 2 ms', (t) => {
  const candidates = Array.from({ length: 100 }, (_, i) =>
    candidate(`docs/p${i % 20}.md`, 100 - i, { code: `ctx.cookies.set('k${i}', value) // ${'x'.repeat(i * 20)}`, content: 'text '.repeat(100) }),
  );
  const query = withQuery({ identifiers: ['ctx.cookies.set', 'cookies.set', 'httponly'], wantsCode: 0.8 });
  for (let i = 0; i < 20; i++) rerankCandidates(candidates, query);
  const runs = 50;
  const perRun =
    cpuMs(() => {
      for (let i = 0; i < runs; i++) rerankCandidates(candidates, query);
    }).ms / runs;
  t.log(`rerank of 100 candidates: ${perRun.toFixed(3)} ms`);
  t.true(perRun < 2);
});

test('identifierMatcher agrees with containsIdentifier, ignoring case', (t) => {
  const cases: Array<[string, string]> = [
    ['call ctx.cookies.set(name)', 'ctx.cookies.set'],
    ['use lean() for speed', 'lean'],
    ['the target value', 'get'],
    ['--version flag', '--version'],
    ['pass --Version here', '--version'],
    ['Model.findOne() returns', 'model.findone'],
    ['a safeParseAsync call', 'safeparse'],
    ['regex chars a+b*(c)?', 'a+b*(c)?'],
    ['x_y z', 'x'],
  ];
  for (const [text, id] of cases) t.is(identifierMatcher(id).test(text), containsIdentifier(text.toLowerCase(), id), `${id} in ${text}`);
});

test('duplicates are found whatever the surrounding whitespace; texts that share both ends but differ inside are kept', (t) => {
  const head = 'x'.repeat(60);
  const a = candidate('a.md', 3, { code: `  ${head}-ONE-${head}\n` });
  const b = candidate('b.md', 2, { code: `${head}-TWO-${head}` }); // same length, same ends
  const c = candidate('c.md', 1, { code: `\t${head}-ONE-${head}` });
  t.deepEqual(
    withoutDuplicates([a, b, c]).map((x) => x.doc.path),
    ['a.md', 'b.md'],
  );
});
