import test from 'ava';
import { fenceFor, fencedBlocks, fencedCode, proseOf } from './fence';

test('fenceFor is longer than any run of backticks in the code, at least three', (t) => {
  t.is(fenceFor('plain()'), '```');
  t.is(fenceFor('a `b` c'), '```');
  t.is(fenceFor('echo "```"'), '````');
  t.is(fenceFor('x\n`````\ny'), '``````');
});

test('fencedCode writes the language, or the file the code belongs in, in the info string', (t) => {
  t.is(fencedCode("ctx.body = 'hi';", 'js'), "```js\nctx.body = 'hi';\n```");
  t.is(fencedCode('export default {}', 'ts', 'vite.config.ts'), '```ts title="vite.config.ts"\nexport default {}\n```');
  t.is(fencedCode('x', '', 'a"b.txt'), '```text title="a\'b.txt"\nx\n```');
});

test('fencedBlocks and proseOf read back what fencedCode wrote, blank lines inside code included', (t) => {
  const blocks = [
    { language: 'js', code: 'const app = new Koa();\n\napp.listen(3000);' },
    { language: 'py', code: 'def f():\n    return 1' },
  ];
  const markdown = [
    'Create an app:',
    fencedCode(blocks[0].code, blocks[0].language),
    'Then, in Python:',
    fencedCode(blocks[1].code, blocks[1].language, 'app.py'),
    'That is all.',
  ].join('\n\n');
  t.deepEqual(fencedBlocks(markdown), blocks);
  t.is(proseOf(markdown), 'Create an app:\n\nThen, in Python:\n\nThat is all.');
});

test('a code block holding backticks (even a whole fence) round-trips and does not end early', (t) => {
  const code = 'Write:\n\n```js\nconsole.log(1)\n```\n\nand `inline` too, and ```` four.';
  const markdown = `Markdown in Markdown:\n\n${fencedCode(code, 'md')}\n\nAfter.`;
  t.deepEqual(fencedBlocks(markdown), [{ language: 'md', code }]);
  t.is(proseOf(markdown), 'Markdown in Markdown:\n\nAfter.');
});

test('text without fences is all prose; an unclosed fence runs to the end', (t) => {
  t.deepEqual(fencedBlocks('Only prose, with `inline` code.'), []);
  t.is(proseOf('Only prose, with `inline` code.'), 'Only prose, with `inline` code.');
  t.deepEqual(fencedBlocks('Before.\n```sh\nnpm i koa\nnode app.js'), [{ language: 'sh', code: 'npm i koa\nnode app.js' }]);
  t.is(proseOf('Before.\n```sh\nnpm i koa'), 'Before.');
  t.deepEqual(fencedBlocks(fencedCode('', 'js')), [{ language: 'js', code: '' }]);
});
