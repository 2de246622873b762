import test from 'ava';
import { parseDocument, parserFor } from './index';
import { splitAsciidocIntoSnippets } from './asciidoc';
import { splitHtmlIntoSnippets } from './html';
import { splitNotebookIntoSnippets } from './ipynb';
import { splitMarkdownIntoSnippets } from './markdown';
import { splitRstIntoSnippets } from './rst';
import { splitTextIntoSnippets } from './text';

test('parsers are chosen by extension, case-insensitively', (t) => {
  t.is(parserFor('docs/a.md'), splitMarkdownIntoSnippets);
  t.is(parserFor('docs/A.MDX'), splitMarkdownIntoSnippets);
  t.is(parserFor('README.markdown'), splitMarkdownIntoSnippets);
  t.is(parserFor('docs/index.RST'), splitRstIntoSnippets);
  t.is(parserFor('nb/intro.ipynb'), splitNotebookIntoSnippets);
  t.is(parserFor('guide.adoc'), splitAsciidocIntoSnippets);
  t.is(parserFor('guide.asciidoc'), splitAsciidocIntoSnippets);
  t.is(parserFor('notes.txt'), splitTextIntoSnippets);
  t.is(parserFor('site/guide/intro.html'), splitHtmlIntoSnippets);
  t.is(parserFor('site/old.HTM'), splitHtmlIntoSnippets);
  t.is(parserFor('src/index.ts'), undefined);
  t.is(parserFor('Makefile'), undefined);
  t.is(parserFor('docs.md/readme'), undefined);
});

test('parseDocument returns snippets with the document path, and [] for unknown formats', (t) => {
  const out = parseDocument({ path: 'docs/api.md', text: '# API\n\nThe API has one function that does everything you need.\n\n```js\nrun()\n```\n' });
  t.deepEqual(
    out.map((s) => [s.kind, s.path, s.startLine, s.content]),
    [['code', 'docs/api.md', 1, 'The API has one function that does everything you need.\n\n```js\nrun()\n```']],
  );
  t.deepEqual(parseDocument({ path: 'image.png', text: '\u0000\u0001' }), []);
});

test('binary-looking or hostile text never throws in any format', (t) => {
  const noise = Array.from({ length: 2000 }, (_, i) => String.fromCharCode((i * 7919) % 0x2fff)).join('');
  for (const ext of ['md', 'mdx', 'rst', 'ipynb', 'adoc', 'txt', 'html']) {
    t.notThrows(() => parseDocument({ path: `x.${ext}`, text: noise }));
    t.true(Array.isArray(parseDocument({ path: `x.${ext}`, text: noise })));
  }
});
