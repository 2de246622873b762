import test from 'ava';
import { splitMarkdownIntoSnippets } from './markdown';
import { applyDiffMarkers, fenceMeta, hideRustdocLines } from './fence-meta';

const code = (text: string) => splitMarkdownIntoSnippets({ path: 'docs/guide.md', text }).filter((s) => s.kind === 'code');

test('the file a fence names: title=, filename=, VitePress [file]', (t) => {
  t.is(fenceMeta('js title="astro.config.mjs"').file, 'astro.config.mjs');
  t.is(fenceMeta("ts filename='app.ts' {2}").file, 'app.ts');
  t.is(fenceMeta('ts [vite.config.ts]').file, 'vite.config.ts');
  t.is(fenceMeta('js {1,3}').file, undefined);
  const [s] = code('# Setup\n\nAdd the integration:\n\n```js title="astro.config.mjs"\nexport default defineConfig({ integrations: [mdx()] });\n```\n');
  t.is(s.title, 'Setup');
  t.is(s.description, 'Add the integration:');
  // The fence of the snippet's Markdown names the file.
  t.is(s.content, 'Add the integration:\n\n```js title="astro.config.mjs"\nexport default defineConfig({ integrations: [mdx()] });\n```');
  t.is(s.language, 'js');
});

test('Expressive Code del={..}: removed lines are not in the code; ins lines stay', (t) => {
  const [s] = code('# Config\n\nRename the option:\n\n```js del={2} ins={3}\nexport default {\n  oldName: true,\n  newName: true,\n};\n```\n');
  t.is(s.code, 'export default {\n  newName: true,\n};');
  t.deepEqual([...fenceMeta('js del={1, 4-6}').deleted], [1, 4, 5, 6]);
});

test('Shiki [!code --]/[!code ++] and other annotations', (t) => {
  const [s] = code(
    "# Client\n\nSwitch the import:\n\n```ts\nimport { a } from 'old' // [!code --]\nimport { a } from 'new' // [!code ++]\nconst x = a() // [!code highlight]\n```\n",
  );
  t.is(s.code, "import { a } from 'new'\nconst x = a()");
  t.deepEqual(applyDiffMarkers(['x = 1  # [!code focus]', '<b/> <!-- [!code --] -->'], { deleted: new Set() }), ['x = 1']);
});

test('Rust examples lose the lines mdBook and rustdoc hide; ## shows as #; attributes and other languages stay', (t) => {
  const lines = ['# use std::io;', '#', '# fn main() {', '#[derive(Debug)]', 'struct Guess(u32);', '    ## not hidden', '#![allow(unused)]', '# }'];
  t.deepEqual(hideRustdocLines(lines, 'rust'), ['#[derive(Debug)]', 'struct Guess(u32);', '    # not hidden', '#![allow(unused)]']);
  t.deepEqual(hideRustdocLines(['# a comment'], 'python'), ['# a comment']);
});
