import test from 'ava';
import { PART_LIMITS, partMarkdown, sectionSnippets, splitCode, type SectionInput } from './section-parts';
import type { CodeBlock, ProseBlock } from './sections';

const source = { path: 'docs/config.md', pageTitle: 'Guide' };
/** What sections.ts hands in for a part that opens with code: here, a marker naming the block. */
const describe = (code: CodeBlock) => `describes line ${code.line}`;
const prose = (text: string, line: number): ProseBlock => ({ kind: 'prose', text, line });
const code = (text: string, line: number, language = 'js'): CodeBlock => ({ kind: 'code', code: text, language, line });
const section = (items: SectionInput['items']): SectionInput => ({ title: 'Config', breadcrumb: ['Guide', 'Config'], line: 1, items });

/** `n` groups of ten assignments, one blank line between groups. */
function groups(n: number): string {
  return Array.from({ length: n }, (_, g) => Array.from({ length: 10 }, (_, i) => `config.option${g * 10 + i} = value${g * 10 + i};`).join('\n')).join('\n\n');
}

test('a section that fits one part is one snippet: prose with its examples in place, no part number', (t) => {
  const out = sectionSnippets(
    section([prose('Create the app:', 3), code('const app = new Koa();', 5), prose('Then start it:', 9), code('app.listen(3000);', 11)]),
    source,
    describe,
  );
  t.is(out.length, 1);
  t.deepEqual(out[0], {
    kind: 'code',
    title: 'Config',
    breadcrumb: ['Guide', 'Config'],
    pageTitle: 'Guide',
    description: 'Create the app:',
    content: 'Create the app:\n\n```js\nconst app = new Koa();\n```\n\nThen start it:\n\n```js\napp.listen(3000);\n```',
    language: 'js',
    code: 'const app = new Koa();\n\napp.listen(3000);',
    path: 'docs/config.md',
    startLine: 1,
  });
});

test('splitCode cuts long code at blank lines, in order, each piece within the limit', (t) => {
  const text = groups(8);
  const block = code(text, 20);
  t.is(splitCode(block, text.length + 12)[0], block, 'code that fits is handed back as is');
  const pieces = splitCode(block, 600);
  t.true(pieces.length > 1);
  t.true(pieces.every((p) => p.code.length + 12 <= 600));
  // Every cut is at a blank line: the pieces joined by one restore the code exactly.
  t.is(pieces.map((p) => p.code).join('\n\n'), text);
  t.true(
    pieces.every((p) => /^config\.option\d*0 = /.test(p.code)),
    'each piece opens a group',
  );
  t.deepEqual(
    pieces.map((p) => p.line),
    pieces.map((p) => 20 + text.split('\n').indexOf(p.code.split('\n')[0])),
  );
});

test('splitCode without blank lines cuts at line ends; a line longer than a part goes alone', (t) => {
  const lines = Array.from({ length: 60 }, (_, i) => `call(${i});`);
  const pieces = splitCode(code(lines.join('\n'), 1), 200);
  t.is(pieces.map((p) => p.code).join('\n'), lines.join('\n'));
  t.true(pieces.every((p) => p.code.length + 12 <= 200));
  const long = 'x'.repeat(500);
  t.deepEqual(
    splitCode(code(`a();\n${long}\nb();`, 1), 100).map((p) => p.code),
    ['a();', long, 'b();'],
  );
});

test('a unit larger than a part is cut inside: its prose first, its code in pieces, parts in order', (t) => {
  const text = groups(12);
  t.true(text.length > PART_LIMITS.chars);
  const words = 'Some words on what configuration means here. '.repeat(5).trim();
  const out = sectionSnippets(section([prose(words, 3), prose('Configure it as follows:', 5), code(text, 7)]), source, describe);
  t.true(out.length >= 2);
  t.deepEqual(
    out.map((s) => s.part),
    out.map((_, k) => k),
  );
  t.true(out.every((s) => s.content.length <= PART_LIMITS.chars && s.title === 'Config'));
  t.is(out[0].startLine, 1, 'the first part points at the heading');
  t.is(
    out
      .map((s) => s.code)
      .filter((c) => c !== '')
      .join('\n\n'),
    text,
    'all the code, once, in order',
  );
  t.is(out[0].content, words);
  t.is(out[0].kind, 'info');
  t.true(out.slice(1).every((s) => s.kind === 'code' && s.language === 'js'));
});

test('a sentence that announces an example is never separated from it', (t) => {
  // Small units: the second one does not fit after the first, so it moves to the next part whole.
  const filler = 'Background that explains the setting in some detail. '.repeat(30).trim();
  const example = groups(3);
  const small = sectionSnippets(section([prose(filler, 3), prose('Set it as follows:', 5), code(example, 7)]), source, describe);
  t.deepEqual(
    small.map((s) => [s.part, s.kind, s.content]),
    [
      [0, 'info', filler],
      [1, 'code', `Set it as follows:\n\n\`\`\`js\n${example}\n\`\`\``],
    ],
  );
  t.is(small[1].description, 'Set it as follows:');
  t.is(small[1].startLine, 5);
  // A unit larger than a part: the announcing paragraph opens the part of the code's first piece.
  const long = groups(12);
  const big = sectionSnippets(
    section([prose('Some words on what configuration means here. '.repeat(5).trim(), 3), prose('Configure it as follows:', 5), code(long, 7)]),
    source,
    describe,
  );
  t.true(big.length >= 3);
  t.true(big[1].content.startsWith('Configure it as follows:\n\n```js\nconfig.option0 = value0;'));
  t.is(big[1].description, 'Configure it as follows:');
  t.is(big[1].startLine, 5);
  for (const part of big) t.false(/:\s*$/.test(part.content), `part ${part.part} ends with an announcement`);
  // A later piece has no prose before it in its part: sections.ts describes it.
  t.is(big[2].description, `describes line ${big[2].startLine}`);
});

test('generated API entries stay snippets of their own, after the section text', (t) => {
  const entry: CodeBlock = {
    ...code('def connect(url: str) -> Pool', 12, 'python'),
    entry: { title: 'connect()', description: 'Open a pool of connections to `url`.' },
  };
  const out = sectionSnippets(
    section([
      prose('Connections are pooled; the pool is opened once per process.', 3),
      entry,
      prose('Close the pool when the process ends:', 20),
      code('pool.close()', 22, 'python'),
    ]),
    source,
    describe,
  );
  t.deepEqual(out, [
    {
      kind: 'code',
      title: 'Config',
      breadcrumb: ['Guide', 'Config'],
      pageTitle: 'Guide',
      description: 'Connections are pooled; the pool is opened once per process.\n\nClose the pool when the process ends:',
      content: 'Connections are pooled; the pool is opened once per process.\n\nClose the pool when the process ends:\n\n```python\npool.close()\n```',
      language: 'python',
      code: 'pool.close()',
      path: 'docs/config.md',
      startLine: 1,
    },
    {
      kind: 'code',
      title: 'connect()',
      breadcrumb: ['Guide', 'Config', 'connect()'],
      pageTitle: 'Guide',
      description: 'Open a pool of connections to `url`.',
      content: 'Open a pool of connections to `url`.\n\n```python\ndef connect(url: str) -> Pool\n```',
      language: 'python',
      code: 'def connect(url: str) -> Pool',
      path: 'docs/config.md',
      startLine: 12,
    },
  ]);
  // A section of entries only gives the entries (its own text is too short to be a snippet).
  t.deepEqual(
    sectionSnippets(section([prose('API', 2), entry]), source, describe).map((s) => s.title),
    ['connect()'],
  );
});

test('a section with little prose and no code gives nothing; one without code is info', (t) => {
  t.deepEqual(sectionSnippets(section([prose('Short.', 3)]), source, describe), []);
  const [info] = sectionSnippets(section([prose('A paragraph long enough to be worth a snippet of its own.', 3)]), source, describe);
  t.deepEqual([info.kind, info.description, info.language, info.code], ['info', '', '', '']);
});

test('partMarkdown fences code with the file it names and drops empty prose', (t) => {
  const withFile: CodeBlock = { ...code('export default {}', 4, 'ts'), file: 'vite.config.ts' };
  t.is(partMarkdown([prose('  ', 1), prose('Add the plugin:', 2), withFile]), 'Add the plugin:\n\n```ts title="vite.config.ts"\nexport default {}\n```');
});

test('a paragraph announcing a list opens the part of the list, never ends the one before it', (t) => {
  // One unit of prose only, larger than a part: it is cut at paragraphs, and the cut falls
  // right after "…looks like this:" unless the paragraph moves on with the list.
  const filler = 'Background that explains the setting in some detail. '.repeat(40).trim();
  const list = Array.from({ length: 24 }, (_, i) => `* Middleware number ${i} runs here and passes the request on to the next layer.`).join('\n');
  const out = sectionSnippets(section([prose(filler, 3), prose('The flow of execution looks like this:', 5), prose(list, 7)]), source, describe);
  t.deepEqual(
    out.map((s) => [s.part, s.content]),
    [
      [0, filler],
      [1, `The flow of execution looks like this:\n\n${list}`],
    ],
  );
  t.is(out[1].startLine, 5, 'the part starts at the announcing paragraph');
  // The paragraph stays where it is when it is all its part holds (nothing would be left).
  const alone = sectionSnippets(section([prose('The flow of execution looks like this:', 3), prose(`${filler} ${filler}`, 5)]), source, describe);
  t.is(alone[0].content, 'The flow of execution looks like this:');
});

test('an API entry whose code is longer than a part is cut into numbered parts, each with the entry description', (t) => {
  const long = groups(12);
  const entry: CodeBlock = { ...code(long, 40, 'python'), entry: { title: 'Field()', description: 'Create a field for objects used in models.' } };
  const out = sectionSnippets(section([entry]), source, describe);
  t.true(out.length >= 2);
  t.deepEqual(
    out.map((s) => s.part),
    out.map((_, k) => k),
  );
  t.true(out.every((s) => s.content.length <= PART_LIMITS.chars && s.title === 'Field()' && s.description === 'Create a field for objects used in models.'));
  t.true(out[0].content.startsWith('Create a field for objects used in models.\n\n```python\nconfig.option0 = value0;'));
  t.true(out.slice(1).every((s) => s.content.startsWith('```python\n')));
  t.is(out.map((s) => s.code).join('\n\n'), long, 'all the code, once, in order');
  t.is(out[0].startLine, 40);
  // A short entry stays one snippet without a part number.
  const short = sectionSnippets(section([{ ...code('def f(): ...', 3, 'python'), entry: { title: 'f()', description: 'F.' } }]), source, describe);
  t.deepEqual(
    short.map((s) => [s.part, s.content]),
    [[undefined, 'F.\n\n```python\ndef f(): ...\n```']],
  );
});

test('an API entry keeps its whole description: a long docstring goes on in later parts after the signature', (t) => {
  const lead = 'Create a new field on a class.';
  const params = Array.from(
    { length: 24 },
    (_, i) => `param${i}: what param${i} does, when it is used and what it defaults to; the text runs on long enough to matter here.`,
  );
  const description = [lead, ...params].join('\n\n');
  const signature = 'def field(*, default=NOTHING, validator=None, repr=True):';
  const out = sectionSnippets(section([{ ...code(signature, 40, 'python'), entry: { title: 'field()', description } }]), source, describe);
  t.true(description.length > PART_LIMITS.chars, 'longer than a part');
  t.true(out.length >= 2);
  t.deepEqual(
    out.map((s) => s.part),
    out.map((_, k) => k),
  );
  t.true(out[0].content.startsWith(`${lead}\n\n\`\`\`python\n${signature}\n\`\`\``), 'the lead sentence and the signature open it');
  const text = out.map((s) => s.content).join('\n\n');
  for (const p of params) t.true(text.includes(p), `nothing of the description is lost: ${p.slice(0, 7)}`);
  t.true(text.indexOf(params[23]!) > text.indexOf(params[0]!), 'in order');
  t.true(out.every((s) => s.content.length <= PART_LIMITS.chars && s.title === 'field()' && s.description === description.slice(0, PART_LIMITS.description)));
  t.is(out.filter((s) => s.code !== '').length, 1, 'the signature once');
  // A description that fits stays whole before the code, one snippet.
  const short = sectionSnippets(
    section([{ ...code(signature, 3, 'python'), entry: { title: 'field()', description: `${lead}\n\n${params[0]}` } }]),
    source,
    describe,
  );
  t.deepEqual(
    short.map((s) => [s.part, s.content]),
    [[undefined, `${lead}\n\n${params[0]}\n\n\`\`\`python\n${signature}\n\`\`\``]],
  );
});

test('prose announcing the API entries after it lists their names; prose that announces nothing generated is left as written', (t) => {
  const entry = (title: string, line: number): CodeBlock => ({
    ...code(`class ${title}(HTTPException): ...`, line, 'python'),
    entry: { title: `exception ${title}`, description: `${title}.` },
  });
  const out = sectionSnippets(
    section([
      prose('The following error classes exist in Werkzeug:', 3),
      entry('BadRequest', 5),
      entry('NotFound', 7),
      prose('Raise one from a view:', 9),
      entry('Aborter', 11),
    ]),
    source,
    describe,
  );
  t.deepEqual(
    out.map((s) => s.title),
    ['Config', 'exception BadRequest', 'exception NotFound', 'exception Aborter'],
  );
  t.is(out[0].content, 'The following error classes exist in Werkzeug:\n\n- `BadRequest`\n- `NotFound`\n\nRaise one from a view:\n\n- `Aborter`');
  const plainProse = sectionSnippets(section([prose('Error classes are documented below, one by one.', 3), entry('BadRequest', 5)]), source, describe);
  t.is(plainProse[0].content, 'Error classes are documented below, one by one.');
  const many = sectionSnippets(
    section([prose('Every status code has a class:', 3), ...Array.from({ length: 45 }, (_, i) => entry(`E${i}`, 5 + i))]),
    source,
    describe,
  );
  t.true(many[0].content.endsWith('- `E39`\n- …and 5 more'), many[0].content.slice(-60));
});

test('a paragraph announcing a list that leads into code longer than a part opens the part of that list too', (t) => {
  // One unit (prose, then code) larger than a part: the cut before the list and the code's
  // first piece must not leave "…the right tags:" ending the part before.
  const filler = 'Background that explains the setting in some detail. '.repeat(30).trim();
  const list = Array.from({ length: 4 }, (_, i) => `- endpoint ${i} provides a tag for what it fetched`).join('\n');
  const out = sectionSnippets(
    section([prose(filler, 3), prose('We need to set up each endpoint with the right tags:', 5), prose(list, 7), code(groups(8), 12)]),
    source,
    describe,
  );
  t.is(out[0].content, filler);
  t.true(out[1].content.startsWith(`We need to set up each endpoint with the right tags:\n\n${list}\n\n\`\`\`js\nconfig.option0`), out[1].content);
  t.true(
    out.every((s) => s.content.length <= PART_LIMITS.chars + 200),
    String(out.map((s) => s.content.length)),
  );
});
