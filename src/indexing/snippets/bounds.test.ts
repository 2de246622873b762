import test from 'ava';
import { boundCode, boundLabel, boundText, SNIPPET_BOUNDS } from './bounds';

test('short texts are unchanged', (t) => {
  t.is(boundCode('x = 1'), 'x = 1');
  t.is(boundText('One sentence.', 800), 'One sentence.');
  t.is(boundLabel('  A   title '), 'A title');
});

test('code is cut at a line boundary and marked', (t) => {
  const code = Array.from({ length: 1000 }, (_, i) => `line_${i} = compute(${i})`).join('\n');
  const cut = boundCode(code);
  t.true(cut.length <= SNIPPET_BOUNDS.code);
  t.true(cut.endsWith('\n...'));
  const lines = cut.split('\n').slice(0, -1);
  t.true(
    lines.every((l, i) => l === `line_${i} = compute(${i})`),
    'no line is cut in the middle',
  );
  const oneLine = boundCode('x'.repeat(20_000));
  t.true(oneLine.length <= SNIPPET_BOUNDS.code);
});

test('prose is cut at a paragraph, then a sentence, then a word', (t) => {
  const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} says something useful. It has two sentences.`).join('\n\n');
  const p = boundText(paragraphs, 800);
  t.true(p.length <= 800);
  t.regex(p, /two sentences\.\n\n\.\.\.$/);
  const sentences = 'A sentence that goes on for a while. '.repeat(60);
  const s = boundText(sentences, 800);
  t.true(s.length <= 800);
  t.regex(s, /a while\. \.\.\.$/);
  const words = 'word '.repeat(400);
  const w = boundText(words, 800);
  t.true(w.length <= 800);
  t.regex(w, /word\.\.\.$/);
  const blob = 'x'.repeat(5000);
  t.true(boundText(blob, 800).length <= 800);
});

test('labels are flattened and bounded', (t) => {
  t.true(boundLabel('Title '.repeat(100)).length <= SNIPPET_BOUNDS.title);
  t.false(boundLabel('a\nb').includes('\n'));
});
