import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey, seedLibrary, servedSnippets } from '../helpers';
import { buildContextQuery } from '../../src/search/queries/context';
import { mergeCandidates } from '../../src/retrieval/context';
import type { ContextSnippet } from '../../src/search/types';
import { SEARCH_WEIGHTS } from '../../src/search/weights';

// Every error code of the retrieval routes, the Context7 shapes, and a Context7-style client.
let git: GitServer;
let app: TestApp;

const PAGE = (v: string) => `# Router ${v}

The router maps paths to handlers.

## Defining routes

Use \`router.get()\` to answer GET requests on a path:

\`\`\`js
const router = new Router();
router.get('/users/:id', (ctx) => { ctx.body = ctx.params.id; });
\`\`\`

## Nested routers

Mount a router inside another one with \`router.use()\` and a prefix, so every route of the child
is served under that prefix.

\`\`\`js
parent.use('/api', child.routes());
\`\`\`
`;

/** 80 sections about widgets, each with prose and a code example: more than the default budget holds. */
const WIDGETS = `# Widgets\n\n${Array.from(
  { length: 80 },
  (_, i) => `## Widget number ${i}

The widget ${i} renders a panel with its own options; configure the widget ${i} before mounting it
and keep a reference to update it later. Widget ${i} accepts a title, a size and a colour.

\`\`\`js
const widget${i} = createWidget({ title: 'Panel ${i}', size: ${i + 1}, colour: 'blue' });
widget${i}.mount(document.getElementById('slot-${i}'));
widget${i}.update({ size: ${i + 2} });
\`\`\`
`,
).join('\n')}`;

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/react-router', [
    { files: { 'docs/guide.md': PAGE('v1') }, tag: 'v1.0.0' },
    { files: { 'docs/guide.md': PAGE('v2'), 'README.md': '# React Router\n\nDeclarative routing for apps.\n' }, tag: 'v2.0.0' },
  ]);
  createRepo(git.root, 'acme/widgets', [{ files: { 'docs/widgets.md': WIDGETS } }]);
  createRepo(git.root, 'acme/next.js', [
    {
      files: {
        'README.md': '# Next.js\n\nThe React framework for the web, with routing built in.\n\n```js\nexport default function Page() { return null; }\n```\n',
      },
    },
  ]);
  // Asked nothing but one question of function words (the first of its version: see 'context errors').
  createRepo(git.root, 'acme/quiet', [{ files: { 'README.md': '# Quiet\n\nA library of few words, each of them plain.\n' } }]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url });
  const key = await adminKey(app);
  for (const url of [`${git.url}/acme/react-router`, `${git.url}/acme/next.js`, `${git.url}/acme/widgets`, `${git.url}/acme/quiet`]) {
    const res = await app.request.post('/v2/add/repo/github').set('authorization', `Bearer ${key}`).send({ docsRepoUrl: url });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
});

test('search: Context7 shape; punctuation- and case-insensitive names', async (t) => {
  const res = await app.request.get('/v2/libs/search').query({ libraryName: 'React Router', query: 'nested routes' });
  t.is(res.status, 200);
  t.is(res.body.searchFilterApplied, false);
  const first = res.body.results[0];
  t.is(first.id, '/acme/react-router');
  t.deepEqual(
    Object.keys(first).sort(),
    [
      'benchmarkScore',
      'branch',
      'description',
      'id',
      'lastUpdateDate',
      'latestIndexed',
      'sourceLatest',
      'state',
      'stars',
      'title',
      'totalSnippets',
      'totalTokens',
      'trustScore',
      'versions',
    ].sort(),
  );
  t.true(first.versions.includes('v2.0.0'));
  const next = await app.request.get('/v2/libs/search').query({ libraryName: 'nextjs' });
  t.is(next.body.results[0].id, '/acme/next.js');
  const api = await app.request.get('/api/v2/libs/search').query({ libraryName: 'react-router' });
  t.is(api.status, 200, 'also mounted under /api/v2');
});

test('search errors: 400 without libraryName, 404 no_libraries_found', async (t) => {
  const missing = await app.request.get('/v2/libs/search');
  t.is(missing.status, 400);
  t.is(missing.body.error, 'validation_error');
  const none = await app.request.get('/v2/libs/search').query({ libraryName: 'zzzqqqxxx' });
  t.is(none.status, 404);
  t.deepEqual(Object.keys(none.body).sort(), ['error', 'message']);
  t.is(none.body.error, 'no_libraries_found');
});

test('context: txt by default in the Context7 layout; json with codeSnippets, infoSnippets and our snippets', async (t) => {
  const txt = await app.request.get('/v2/context').query({ libraryId: '/acme/react-router', query: 'mount a router under a prefix' });
  t.is(txt.status, 200);
  t.regex(txt.headers['content-type'], /text\/plain/);
  t.regex(txt.text, /^Docs: \/acme\/\S+ [^\n]+\n\n### /, 'the provenance line, then the snippets');
  t.regex(txt.text, /Source: http/);
  t.regex(txt.text, /parent\.use\('\/api', child\.routes\(\)\)/);
  const json = await app.request.get('/v2/context').query({ libraryId: '/acme/react-router', query: 'mount a router under a prefix', type: 'json' });
  t.deepEqual(Object.keys(json.body).sort(), ['codeSnippets', 'infoSnippets', 'provenance', 'snippets']);
  const code = json.body.codeSnippets[0];
  t.deepEqual(Object.keys(code).sort(), ['codeDescription', 'codeId', 'codeLanguage', 'codeList', 'codeTitle', 'codeTokens', 'pageTitle']);
  const s = json.body.snippets[0];
  t.truthy(s.source.path && s.source.url && s.source.startLine);
  t.is(typeof s.score, 'number');
  t.is(typeof s.tokens, 'number');
  if (json.body.infoSnippets.length > 0) t.deepEqual(Object.keys(json.body.infoSnippets[0]).sort(), ['breadcrumb', 'content', 'contentTokens', 'pageId']);
});

test('context: token budgets are whole snippets within the limit; bad budgets are 400', async (t) => {
  const small = await app.request.get('/v2/context').query({ libraryId: '/acme/widgets', query: 'configure the widget 7 panel', type: 'json', tokens: 200 });
  t.is(small.status, 200);
  const total = small.body.snippets.reduce((n: number, x: { tokens: number }) => n + x.tokens, 0);
  t.true(small.body.snippets.length > 0 && total <= 200, `${small.body.snippets.length} snippets of ${total} tokens`);
  // Relevant sections exist, but none fits: the answer says so and how to get one.
  const tiny = await app.request.get('/v2/context').query({ libraryId: '/acme/widgets', query: 'configure the widget 7 panel', type: 'json', tokens: 100 });
  t.is(tiny.status, 404);
  t.is(tiny.body.error, 'no_snippets_found');
  t.regex(tiny.body.message, /fits in 100 tokens.*raise tokens/);
  for (const tokens of ['99', '100001', 'abc', '1.5']) {
    const bad = await app.request.get('/v2/context').query({ libraryId: '/acme/react-router', query: 'routes', tokens });
    t.is(bad.status, 400, tokens);
    t.is(bad.body.error, 'validation_error');
  }
});

test('context: a larger budget brings more snippets of one kind of evidence', async (t) => {
  const ask = async (tokens?: number) => {
    const res = await app.request
      .get('/v2/context')
      .query({ libraryId: '/acme/widgets', query: 'configure the widget panel options before mounting', type: 'json', ...(tokens ? { tokens } : {}) });
    t.is(res.status, 200);
    return { count: res.body.snippets.length as number, total: res.body.snippets.reduce((n: number, x: { tokens: number }) => n + x.tokens, 0) as number };
  };
  const normal = await ask();
  const large = await ask(30_000);
  // The 80 sections hold the same words of the question: one kind of evidence, of which the
  // default budget serves `answer.sameEvidence` sections and a budget six times as large six times as many.
  t.is(normal.count, SEARCH_WEIGHTS.answer.sameEvidence, `${normal.total} tokens in ${normal.count} snippets`);
  t.is(large.count, 6 * SEARCH_WEIGHTS.answer.sameEvidence, `30,000 tokens asked, ${large.count} snippets of ${large.total} tokens returned`);
  t.true(large.total > 6 * normal.total * 0.8);
});

test('context: the next page of candidates continues the first exactly (what an underfilled budget asks for)', async (t) => {
  const lib = await app.services.libraries.get('/acme/widgets', { fresh: true });
  const version = lib!.versions.find((v) => v.version === 'latest')!;
  const query = 'configure a widget panel';
  const ask = async (size: number, from?: number) =>
    (
      await app.services.snippets.searchHits<ContextSnippet>(
        buildContextQuery({ libraryId: lib!._id, version: 'latest', generation: version.generation, query, size, from }),
      )
    ).map((h) => h._source!.id);
  const whole = await ask(80);
  t.is(whole.length, 80, 'one snippet per widget section');
  const first = await ask(30);
  const next = await ask(50, 30);
  t.deepEqual([...first, ...next], whole);
  t.deepEqual(
    mergeCandidates(
      first.map((id) => ({ doc: { id }, score: 1 }) as never),
      [...first.slice(-2), ...next].map((id) => ({ doc: { id }, score: 1 }) as never),
    ).map((c) => c.doc.id),
    whole,
    'an overlap between the pages (the index changed in between) is dropped',
  );
});

test('context errors: invalid_library_id, library_not_found, tag_not_found listing tags, no_snippets_found, missing query', async (t) => {
  const invalid = await app.request.get('/v2/context').query({ libraryId: 'react-router', query: 'x' });
  t.is(invalid.status, 400);
  t.is(invalid.body.error, 'invalid_library_id');
  const unknown = await app.request.get('/v2/context').query({ libraryId: '/acme/nothing', query: 'x' });
  t.is(unknown.status, 404);
  t.is(unknown.body.error, 'library_not_found');
  const tag = await app.request.get('/v2/context').query({ libraryId: '/acme/react-router/v9.9.9', query: 'x' });
  t.is(tag.status, 404);
  t.is(tag.body.error, 'tag_not_found');
  t.regex(tag.body.message, /v2\.0\.0/);
  const nothing = await app.request.get('/v2/context').query({ libraryId: '/acme/react-router', query: 'qqqzzz xxyyww' });
  t.is(nothing.status, 404);
  t.is(nothing.body.error, 'no_snippets_found');
  // Function words alone, as a version's first question: nothing to match, not a refused request
  // (Elasticsearch refuses term statistics for no terms, so none are asked for).
  const stopWords = await app.request.get('/v2/context').query({ libraryId: '/acme/quiet', query: 'how do I do it?' });
  t.is(stopWords.status, 404, JSON.stringify(stopWords.body));
  t.is(stopWords.body.error, 'no_snippets_found');
  const noQuery = await app.request.get('/v2/context').query({ libraryId: '/acme/react-router' });
  t.is(noQuery.status, 400);
  t.is(noQuery.body.error, 'validation_error');
});

test('versions: /version and @version address a tag; topic is accepted for older clients; v1 route', async (t) => {
  for (const id of ['/acme/react-router/v2.0.0', '/acme/react-router@v2.0.0']) {
    const res = await app.request.get('/v2/context').query({ libraryId: id, topic: 'define a route', type: 'json' });
    t.is(res.status, 200, id);
  }
  const v1 = await app.request.get('/api/v1/acme/react-router').query({ topic: 'define a route', tokens: 2000 });
  t.is(v1.status, 200);
  t.regex(v1.text, /router\.get\('\/users\/:id'/);
});

test('a Context7-style client: read results[].id, then fetch the txt context with it', async (t) => {
  // What Context7 clients do, with nothing but the base URL changed.
  const base = '/api';
  const search = await app.request.get(`${base}/v2/libs/search`).query({ libraryName: 'react router', query: 'define routes' });
  const id: string = search.body.results[0].id;
  const ctx = await app.request.get(`${base}/v2/context`).query({ libraryId: id, query: 'define routes' });
  t.is(ctx.status, 200);
  // The section that answers, whole: its sentence and the example it announces, in order.
  t.regex(
    ctx.text,
    /^Docs: \/acme\/react-router v2\.0\.0 @ [0-9a-f]{12}, [^\n]+\n\n### Router v2 > Defining routes\n\nSource: http\S+#L5\n\nUse `router\.get\(\)` to answer GET requests on a path:\n\n```js\nconst router = new Router\(\);\nrouter\.get/,
  );
  const both = await app.request
    .get(`${base}/v2/context`)
    .query({ libraryId: id, query: 'define routes with router.get and mount nested routers with router.use under a prefix' });
  t.is(both.status, 200);
  t.regex(both.text, /--------------------------------/, 'several snippets are joined Context7-style');
});

test('a later part of a long section that answers is served after the parts before it, read apart', async (t) => {
  // One long section: its opening says what it is; its last paragraphs (a later part) name the
  // word asked for, which nothing else on the page does.
  const filler = Array.from(
    { length: 14 },
    (_, i) =>
      `Paragraph ${i} about configuring panels: panels take settings for layout, spacing and colours, which are merged with the defaults of the theme before the first render.`,
  ).join('\n\n');
  const page = `# Panels\n\n## Panel options\n\nEvery panel takes a settings object; this section lists what it holds.\n\n${filler}\n\nThe zephyrWidth option sets how wide the zephyr rail is, in pixels.\n\n\`\`\`js\npanel({ zephyrWidth: 240 });\n\`\`\`\n\n## Other\n\nUnrelated notes about panels and their lifecycle in an application.\n`;
  await seedLibrary(app, '/acme/panels', { 'docs/panels.md': page });
  const served = await servedSnippets(app, '/acme/panels');
  const parts = served.filter((s) => s.title === 'Panel options').sort((a, b) => (a.part ?? 0) - (b.part ?? 0));
  t.true(parts.length >= 2, `the section is long enough to have parts (${parts.length})`);
  t.true(parts.at(-1)!.content.includes('zephyrWidth') && !parts[0].content.includes('zephyrWidth'), 'the answer is in a later part');
  // No word of the question is in the opening part, so no leg finds it: it is read apart.
  const res = await app.request.get('/v2/context').query({ libraryId: '/acme/panels', query: 'zephyrWidth', type: 'json' });
  t.is(res.status, 200);
  const got: { part: number; lastPart?: number; content: string }[] = res.body.snippets.filter((s: { title: string }) => s.title === 'Panel options');
  t.deepEqual(
    got.flatMap((s) => Array.from({ length: (s.lastPart ?? s.part) - s.part + 1 }, (_, k) => s.part + k)),
    parts.map((p) => p.part),
    'every part of the section, in order, from its opening part',
  );
  t.is(res.body.snippets[0].part, 0);
  // The parts fit the merged snippets' ceiling together: the section comes back as one snippet, whole.
  t.true(parts.reduce((n, p) => n + p.tokens, 0) <= SEARCH_WEIGHTS.answer.mergedPartsCeiling);
  t.is(got.length, 1);
  t.regex(got[0]!.content, /^Every panel takes a settings object[\s\S]*zephyrWidth/);
});
