import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { splitNotebookIntoSnippets } from './ipynb';

/** A notebook written for these tests, saved as Jupyter saves one (outputs, images, an error). */
const FIXTURE = fileURLToPath(new URL('../../../fixtures/parsers/widgets-tour.ipynb', import.meta.url));

const nb = (text: string, file = 'examples/intro.ipynb') => splitNotebookIntoSnippets({ path: file, text });

/** A notebook as Jupyter writes it: one-space indentation, one source line per JSON line. */
function notebook(cells: { cell_type: string; source: string[]; outputs?: unknown[] }[], metadata: Record<string, unknown> = {}): string {
  return JSON.stringify({ cells: cells.map((c) => ({ metadata: {}, ...c })), metadata, nbformat: 4, nbformat_minor: 5 }, null, 1);
}

const INTRO = notebook(
  [
    { cell_type: 'markdown', source: ['# Getting started with httpx\n', '\n', 'This notebook shows how to send requests with an async client.'] },
    { cell_type: 'code', source: ['import httpx'], outputs: [] },
    { cell_type: 'markdown', source: ['## Sending a request\n', '\n', 'Create a client and call `get`:'] },
    {
      cell_type: 'code',
      source: ['async with httpx.AsyncClient() as client:\n', "    r = await client.get('https://example.org')"],
      outputs: [{ output_type: 'stream', text: ['<Response [200 OK]>'] }],
    },
    { cell_type: 'markdown', source: ['### Reading the body'] },
    { cell_type: 'code', source: ['r.json()'], outputs: [] },
    { cell_type: 'code', source: ['   \n'], outputs: [] },
    { cell_type: 'raw', source: ['raw text is ignored'] },
  ],
  { kernelspec: { name: 'python3', language: 'python', display_name: 'Python 3' } },
);

test('markdown cells give headings and prose, code cells give code with the prose before them', (t) => {
  const out = nb(INTRO);
  t.true(out.every((s) => s.pageTitle === 'Getting started with httpx'));
  const code = out.filter((s) => s.kind === 'code');
  t.deepEqual(
    code.map((c) => [c.code, c.language, c.breadcrumb.join(' > '), c.description]),
    [
      ['import httpx', 'python', 'Getting started with httpx', 'This notebook shows how to send requests with an async client.'],
      [
        "async with httpx.AsyncClient() as client:\n    r = await client.get('https://example.org')",
        'python',
        'Getting started with httpx > Sending a request',
        'Create a client and call `get`:',
      ],
      // The heading path carries across cells; a section without prose borrows its parent's.
      ['r.json()', 'python', 'Getting started with httpx > Sending a request > Reading the body', 'Create a client and call `get`:'],
    ],
  );
  t.false(out.some((s) => s.content.includes('raw text') || s.code.includes('200 OK')));
});

test('start lines point at the cell source in the JSON file', (t) => {
  const lines = INTRO.split('\n');
  const out = nb(INTRO);
  t.deepEqual(
    out.map((s) => [s.title, s.startLine]),
    [
      ['Getting started with httpx', 7],
      ['Sending a request', 24],
      ['Reading the body', 49],
    ],
  );
  // A section's snippet starts at its heading's source line.
  for (const s of out) t.true(lines[s.startLine - 1].includes(`# ${s.title}`), `${s.startLine}: ${lines[s.startLine - 1]}`);
  // Code before any heading starts at its cell's source line, not at the top of the JSON.
  const untitled = notebook([{ cell_type: 'code', source: ['print("hello world")'] }]);
  const [code] = nb(untitled);
  t.true(untitled.split('\n')[code.startLine - 1].includes('print(\\"hello world\\")'), `${code.startLine}`);
});

test('language from kernelspec, language_info, legacy metadata, else python', (t) => {
  const cells = [{ cell_type: 'code', source: ['x <- c(1, 2, 3)\nmean(x)'] }];
  const language = (metadata: Record<string, unknown>) => nb(notebook(cells, metadata))[0].language;
  t.is(language({ kernelspec: { language: 'R' } }), 'r');
  t.is(language({ language_info: { name: 'julia' } }), 'julia');
  t.is(language({}), 'python');
  const compact = JSON.stringify({ cells: [{ cell_type: 'code', source: 'print(1)\nprint(2)' }] });
  t.deepEqual(
    nb(compact).map((s) => [s.code, s.startLine]),
    [['print(1)\nprint(2)', 1]],
  );
});

test('nbformat 3 worksheets are read too', (t) => {
  const v3 = JSON.stringify({
    worksheets: [
      {
        cells: [
          { cell_type: 'markdown', source: ['Load the data set into a frame:'] },
          { cell_type: 'code', input: ['df = load()'], language: 'python' },
        ],
      },
    ],
    metadata: { language: 'python' },
    nbformat: 3,
  });
  const [code] = nb(v3).filter((s) => s.kind === 'code');
  t.is(code.code, 'df = load()');
  t.is(code.description, 'Load the data set into a frame:');
});

test('malformed notebooks give no snippets and never throw', (t) => {
  for (const text of [
    '',
    '{',
    'null',
    '[]',
    '"x"',
    '{"cells": 5}',
    '{"cells": [null, 1, {"cell_type": "code", "source": 7}]}',
    '{"cells": [{"cell_type": "markdown", "source": ["# T", 3]}]}',
  ]) {
    t.notThrows(() => nb(text), text);
    t.true(Array.isArray(nb(text)));
  }
  t.deepEqual(nb('{not json'), []);
});

test('the page title falls back to the file name', (t) => {
  const out = nb(notebook([{ cell_type: 'code', source: ['print("hello world")'] }]), 'docs/how-to/quick_start.ipynb');
  t.is(out[0].pageTitle, 'Quick start');
});

test('a notebook as Jupyter saves it (fixtures/parsers/widgets-tour.ipynb): sections, code in order, outputs and raw cells left out', (t) => {
  const text = fs.readFileSync(FIXTURE, 'utf8');
  const out = nb(text, 'examples/widgets-tour.ipynb');
  t.deepEqual(
    out.map((s) => s.title),
    ['A tour of the widgets client', 'Creating a widget', 'Listing widgets', 'Cleaning up'],
  );
  const lines = text.split('\n');
  for (const s of out) {
    t.is(s.pageTitle, 'A tour of the widgets client');
    t.is(s.breadcrumb[0], s.pageTitle);
    t.is(s.language, 'python', "the kernel's language");
    t.true(s.startLine >= 1 && s.startLine <= lines.length, `${s.title}: line ${s.startLine}`);
  }
  t.deepEqual(out.find((s) => s.title === 'Cleaning up')?.breadcrumb, ['A tour of the widgets client', 'Listing widgets', 'Cleaning up']);
  const all = out.map((s) => s.content).join('\n');
  t.regex(all, /This notebook creates widgets, lists them and cleans up\./);
  t.regex(all, /```python\nw = client\.create\(name="gear"\)\nprint\("created", w\.id\)\nw\n```/);
  // Two code cells under one heading: both, in order, each its own block.
  t.regex(out.find((s) => s.title === 'Listing widgets')?.content ?? '', /print\(widget\.name\)\n```\n\n```python\n%%time\nclient\.get\("w-404"\)/);
  t.notRegex(all, /created w-1|Widget\(id=|iVBORw0KGgo|NotFound|Figure size/, 'outputs are not documentation');
  t.notRegex(all, /raw cells/);
});
