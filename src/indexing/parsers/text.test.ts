import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { splitTextIntoSnippets } from './text';
import { PART_LIMITS } from './section-parts';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/repos/', import.meta.url));
const withCorpus = fs.existsSync(CORPUS) ? test : test.skip;

const txt = (text: string, path = 'docs/getting-started.txt') => splitTextIntoSnippets({ path, text });

test('paragraphs become info snippets titled by the file name', (t) => {
  const out = txt('Install the package with pip install foo.\nThen import it.\n\n\nConfigure the client with an API key before the first request.\n');
  t.is(out.length, 1);
  t.is(out[0].title, 'Getting started');
  t.deepEqual(out[0].breadcrumb, ['Getting started']);
  t.is(out[0].content, 'Install the package with pip install foo.\nThen import it.\n\nConfigure the client with an API key before the first request.');
  t.is(out[0].startLine, 1);
});

test('long text is chunked at paragraph boundaries with each chunk on its own line', (t) => {
  const paragraph = (n: number) => `Paragraph ${n} explains one part of the system. ${'It has a few sentences. '.repeat(10)}`.trim();
  const text = Array.from({ length: 16 }, (_, n) => paragraph(n)).join('\n\n');
  const out = txt(text);
  t.true(out.length > 1);
  t.true(out.every((s) => s.kind === 'info' && s.content.length <= PART_LIMITS.chars));
  t.deepEqual(
    out.map((s) => s.part),
    out.map((_, k) => k),
    'parts numbered in order',
  );
  t.is(out.map((s) => s.content).join('\n\n'), text, 'every paragraph once, in order, cut between paragraphs');
  t.is(out[0].startLine, 1);
  const second = /^Paragraph (\d+)/.exec(out[1].content);
  t.is(out[1].startLine, 1 + 2 * Number(second?.[1]));
});

test('tiny and empty files give nothing, CRLF is understood', (t) => {
  t.deepEqual(txt(''), []);
  t.deepEqual(txt('ok\n'), []);
  const [s] = txt('First line of a Windows text file that is long enough.\r\n\r\nSecond paragraph.\r\n');
  t.is(s.content, 'First line of a Windows text file that is long enough.\n\nSecond paragraph.');
});

withCorpus('vue example descriptions parse as info snippets', (t) => {
  const file = `${CORPUS}vuejs__docs/main/src/examples/src/temperature-converter/description.txt`;
  const out = txt(fs.readFileSync(file, 'utf8'), 'src/examples/src/temperature-converter/description.txt');
  t.log(out.map((s) => s.content).join('\n---\n'));
  t.true(out.length >= 1);
  t.is(out[0].pageTitle, 'Description');
});
