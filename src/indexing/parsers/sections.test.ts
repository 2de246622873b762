import test from 'ava';
import { blocksToSnippets, chunkProse, finishCode, SNIPPET_LIMITS, type DocBlock } from './sections';
import { splitLongText } from './text-utils';
import { PART_LIMITS } from './section-parts';

const source = { path: 'docs/guide.md', pageTitle: 'Guide' };

test('an H1 equal to the page title is not repeated in the breadcrumb', (t) => {
  const blocks: DocBlock[] = [
    { kind: 'heading', level: 1, text: 'Guide', line: 1 },
    { kind: 'heading', level: 2, text: 'Install', line: 3 },
    { kind: 'prose', text: 'Install the package with your package manager of choice.', line: 5 },
    { kind: 'heading', level: 3, text: 'From source', line: 7 },
    { kind: 'prose', text: 'Clone the repository and build it locally with the build script.', line: 9 },
    { kind: 'heading', level: 2, text: 'Usage', line: 11 },
    { kind: 'prose', text: 'Import the module and call the main function to get started.', line: 13 },
  ];
  const info = blocksToSnippets(blocks, source).map((s) => [s.title, s.breadcrumb.join(' > '), s.startLine]);
  t.deepEqual(info, [
    ['Install', 'Guide > Install', 3],
    ['From source', 'Guide > Install > From source', 7],
    ['Usage', 'Guide > Usage', 11],
  ]);
});

test('a short lead-in ("For example:") is joined with the paragraph before it', (t) => {
  const blocks: DocBlock[] = [
    { kind: 'heading', level: 2, text: 'req.query', line: 1 },
    { kind: 'prose', text: 'This property is an object containing a property for each query string parameter in the route.', line: 3 },
    { kind: 'prose', text: 'For example:', line: 5 },
    { kind: 'code', code: "req.query.q // => 'tobi'", language: 'js', line: 7 },
  ];
  const out = blocksToSnippets(blocks, source);
  t.is(out.length, 1, 'the prose and the example it introduces are one snippet');
  const [code] = out;
  t.is(code.kind, 'code');
  t.is(code.description, 'This property is an object containing a property for each query string parameter in the route.\n\nFor example:');
  t.is(
    code.content,
    "This property is an object containing a property for each query string parameter in the route.\n\nFor example:\n\n```js\nreq.query.q // => 'tobi'\n```",
  );
  t.is(code.startLine, 1);
});

test('sibling code blocks (tabs of one example) share the prose before the first', (t) => {
  const blocks: DocBlock[] = [
    { kind: 'prose', text: 'Install it with your package manager:', line: 1 },
    { kind: 'code', code: 'npm install koa', language: 'bash', line: 3 },
    { kind: 'code', code: 'yarn add koa', language: 'bash', line: 7 },
  ];
  const out = blocksToSnippets(blocks, source);
  t.is(out.length, 1, 'one snippet holds the prose and both tabs');
  t.deepEqual([out[0].kind, out[0].description, out[0].language], ['code', 'Install it with your package manager:', 'bash']);
  t.is(out[0].code, 'npm install koa\n\nyarn add koa');
  t.is(out[0].content, 'Install it with your package manager:\n\n```bash\nnpm install koa\n```\n\n```bash\nyarn add koa\n```');
});

test('code without prose before it takes the section first paragraph, then an ancestor one', (t) => {
  const blocks: DocBlock[] = [
    { kind: 'heading', level: 2, text: 'ctx.throw()', line: 1 },
    { kind: 'prose', text: 'Throws an error with a status.', line: 2 },
    { kind: 'heading', level: 3, text: 'Example', line: 4 },
    { kind: 'code', code: 'ctx.throw(400)', language: 'js', line: 5 },
    { kind: 'heading', level: 3, text: 'Notes', line: 8 },
    { kind: 'code', code: 'ctx.throw(404)', language: 'js', line: 9 },
    { kind: 'prose', text: 'A 404 is not logged.', line: 12 },
  ];
  const codes = blocksToSnippets(blocks, source).filter((s) => s.kind === 'code');
  t.deepEqual(
    codes.map((c) => c.description),
    ['Throws an error with a status.', 'A 404 is not logged.'],
  );
  t.deepEqual(codes[0].breadcrumb, ['Guide', 'ctx.throw()', 'Example']);
  t.is(codes[0].title, 'Example');
});

test('long descriptions keep the sentences closest to the code', (t) => {
  const long = `${'Filler sentence about something else. '.repeat(30)}Call connect() to open the pool:`;
  const out = blocksToSnippets(
    [
      { kind: 'prose', text: long, line: 1 },
      { kind: 'code', code: 'connect()', language: 'js', line: 3 },
    ],
    source,
  );
  t.is(out.length, 1);
  const [code] = out;
  t.true(code.description.length <= PART_LIMITS.description);
  // Clipped from the start at a word, marked with an ellipsis; the whole prose stays in the content.
  t.is(code.description, `…sentence about something else. ${'Filler sentence about something else. '.repeat(14)}Call connect() to open the pool:`);
  t.is(code.content, `${long}\n\n\`\`\`js\nconnect()\n\`\`\``);
});

test('sections with little prose give no info snippet', (t) => {
  const out = blocksToSnippets(
    [
      { kind: 'heading', level: 2, text: 'ctx.req', line: 1 },
      { kind: 'prose', text: "Node's request object.", line: 3 },
    ],
    source,
  );
  t.deepEqual(out, []);
});

test('long sections are chunked at paragraph boundaries, each chunk with its own line', (t) => {
  const paragraph = (n: number) => ({ kind: 'prose' as const, text: `Paragraph ${n}. ${'words '.repeat(100)}`.trim(), line: 10 + n * 5 });
  const blocks: DocBlock[] = [{ kind: 'heading', level: 2, text: 'Big', line: 8 }, ...[0, 1, 2, 3, 4].map(paragraph)];
  const info = blocksToSnippets(blocks, source);
  t.deepEqual(
    info.map((s) => [s.kind, s.title, s.part, s.startLine]),
    [
      ['info', 'Big', 0, 8],
      ['info', 'Big', 1, 25],
    ],
    'parts in order, the first at the heading, a later one at its first paragraph',
  );
  t.true(info.every((s) => s.content.length <= PART_LIMITS.chars));
  t.true(info[1].content.startsWith('Paragraph 3.'));
  t.is(info.map((s) => s.content).join('\n\n'), [0, 1, 2, 3, 4].map((n) => paragraph(n).text).join('\n\n'), 'every paragraph once, in order');
});

test('a single oversized paragraph is split at sentence boundaries', (t) => {
  const text = 'This is a sentence that goes on. '.repeat(100).trim();
  const pieces = splitLongText(text, 500);
  t.true(pieces.length > 1);
  t.true(pieces.every((p) => p.length <= 500 && p.endsWith('.')));
  t.is(chunkProse([{ kind: 'prose', text, line: 1 }], 500).length, pieces.length);
});

test('finishCode drops empty and placeholder-only blocks and truncates long ones with a comment', (t) => {
  t.is(finishCode('\n\n   \n', 'js'), '');
  t.is(finishCode('...\n// ...\n', 'js'), '');
  t.is(finishCode('  indented()\n\n', 'py'), '  indented()');
  const long = Array.from({ length: 400 }, (_, i) => `const value${i} = compute(${i});`).join('\n');
  const cut = finishCode(long, 'ts');
  t.true(cut.length <= SNIPPET_LIMITS.code + 10);
  t.true(cut.endsWith('\n// ...'));
  t.true(finishCode(long.replace(/const /g, ''), 'python').endsWith('\n# ...'));
  t.true(finishCode(long, 'unknown').endsWith('\n...'));
});

test('code before any heading is titled with the page title', (t) => {
  const out = blocksToSnippets([{ kind: 'code', code: 'print(1)', language: 'python', line: 4 }], source);
  t.is(out.length, 1);
  const [code] = out;
  t.is(code.kind, 'code');
  t.is(code.title, 'Guide');
  t.deepEqual(code.breadcrumb, ['Guide']);
  t.is(code.content, '```python\nprint(1)\n```');
  // No heading to point at: the snippet starts where its text does (not at line 1, front matter or a notebook's JSON).
  t.is(code.startLine, 4);
  t.is(code.path, 'docs/guide.md');
  const [intro, after] = blocksToSnippets(
    [
      { kind: 'prose', text: 'An introduction before the first heading, long enough to keep.', line: 6 },
      { kind: 'heading', level: 2, text: 'Install', line: 9 },
      { kind: 'code', code: 'pip install x', language: 'sh', line: 11 },
    ],
    source,
  );
  t.deepEqual([intro.title, intro.startLine, after.title, after.startLine], ['Guide', 6, 'Install', 9]);
});

test('a code line longer than a reader reads (an inline data URL) is cut, saying so', (t) => {
  const blob = 'A'.repeat(3000);
  const code = finishCode(`image = "${blob}"\nprint(image)`, 'python');
  const [first, second] = code.split('\n');
  t.is(first, `image = "${blob}`.slice(0, SNIPPET_LIMITS.codeLine) + ' …');
  t.is(second, 'print(image)');
});

test('a closing paragraph announcing the next section opens it: a subsection or the next sibling, not a section further out', (t) => {
  const blocks: DocBlock[] = [
    { kind: 'prose', text: 'Starlette also includes a `StaticFiles` class for serving files in a given directory:', line: 2 },
    { kind: 'heading', level: 2, text: 'StaticFiles', line: 4 },
    { kind: 'prose', text: 'Signature: `StaticFiles(directory=None, packages=None, html=False)`', line: 6 },
    { kind: 'code', code: "app = StaticFiles(directory='static')", language: 'python', line: 8 },
    { kind: 'prose', text: 'The middleware implementations below come with the package:', line: 10 },
    { kind: 'heading', level: 2, text: 'CORSMiddleware', line: 12 },
    { kind: 'prose', text: 'Adds CORS headers to outgoing responses for cross-origin requests.', line: 14 },
    { kind: 'heading', level: 3, text: 'Options', line: 16 },
    { kind: 'prose', text: 'Each option is passed to the middleware as a keyword argument like this:', line: 18 },
    { kind: 'heading', level: 2, text: 'Caching', line: 20 },
    { kind: 'prose', text: 'Responses carry an ETag and a Last-Modified header for caches.', line: 22 },
  ];
  const out = blocksToSnippets(blocks, source).map((s) => [s.breadcrumb.join(' > '), s.startLine, s.content]);
  t.deepEqual(out, [
    // The page's opening line, all its text, opens the subsection it announces.
    [
      'Guide > StaticFiles',
      4,
      "Starlette also includes a `StaticFiles` class for serving files in a given directory:\n\nSignature: `StaticFiles(directory=None, packages=None, html=False)`\n\n```python\napp = StaticFiles(directory='static')\n```",
    ],
    // A closing paragraph after the example opens the next sibling.
    [
      'Guide > CORSMiddleware',
      12,
      'The middleware implementations below come with the package:\n\nAdds CORS headers to outgoing responses for cross-origin requests.',
    ],
    // Followed by a heading further out (neither a subsection nor a sibling), it stays.
    ['Guide > CORSMiddleware > Options', 16, 'Each option is passed to the middleware as a keyword argument like this:'],
    ['Guide > Caching', 20, 'Responses carry an ETag and a Last-Modified header for caches.'],
  ]);
});
