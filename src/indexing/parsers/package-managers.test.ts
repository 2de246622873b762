import test from 'ava';
import type { ParsedSnippet } from '../types';
import { splitMarkdownIntoSnippets } from './markdown';
import { managerOf } from './package-managers';
import { fencedBlocks, proseOf } from '../../search/format/fence';

const md = (text: string, path = 'docs/page.mdx') => splitMarkdownIntoSnippets({ path, text });
const codes = (out: ParsedSnippet[]) => out.filter((s) => s.kind === 'code');
/** Every code example of the snippets, in order, as their Markdown holds it. */
const examples = (out: ParsedSnippet[]) => out.flatMap((s) => fencedBlocks(s.content));
const fence = (lang: string, code: string) => `\`\`\`${lang}\n${code}\n\`\`\``;

test('managerOf: one manager per block, prompts and comments allowed, mixed or other commands none', (t) => {
  t.is(managerOf('$ npm install x'), 'npm');
  t.is(managerOf('npx create-x@latest\n# then\nnpm run dev'), 'npm');
  t.is(managerOf('bunx x'), 'bun');
  t.is(managerOf('npm i x\nyarn add x'), undefined);
  t.is(managerOf('pip install x'), undefined);
  t.is(managerOf('cd app\nnpm i'), undefined);
});

test('Docusaurus <Tabs>/<TabItem> with npm, yarn, pnpm and bun become ONE snippet with labelled variants', (t) => {
  const text = [
    '# Installation',
    '',
    'Install the core package:',
    '',
    '<Tabs groupId="package-manager">',
    '  <TabItem value="npm">',
    '',
    fence('bash', 'npm install @docusaurus/core'),
    '',
    '  </TabItem>',
    '  <TabItem value="yarn" label="Yarn">',
    '',
    fence('bash', 'yarn add @docusaurus/core'),
    '',
    '  </TabItem>',
    '  <TabItem value="pnpm">',
    '',
    fence('bash', 'pnpm add @docusaurus/core'),
    '',
    '  </TabItem>',
    '  <TabItem value="bun">',
    '',
    fence('bash', 'bun add @docusaurus/core'),
    '',
    '  </TabItem>',
    '</Tabs>',
    '',
    'Then start the site:',
    '',
    fence('bash', 'npm run start'),
  ].join('\n');
  const out = md(text);
  t.is(out.length, 1, 'the section is one snippet');
  t.deepEqual(
    examples(out),
    [
      {
        language: 'bash',
        code: '# npm\nnpm install @docusaurus/core\n\n# yarn\nyarn add @docusaurus/core\n\n# pnpm\npnpm add @docusaurus/core\n\n# bun\nbun add @docusaurus/core',
      },
      { language: 'bash', code: 'npm run start' },
    ],
    'the variants are one block; a single command after prose is not merged into it',
  );
  t.is(out[0].language, 'bash');
  t.is(out[0].description, 'Install the core package:');
  t.true(out[0].content.startsWith('Install the core package:\n\n```bash\n# npm\n'));
  t.true(out[0].content.includes('bun add @docusaurus/core\n```\n\nThen start the site:\n\n```bash\nnpm run start\n```'));
});

test('VitePress ::: code-group and Starlight <Tabs syncKey="pkg"> merge too; different steps stay apart', (t) => {
  const vitepress = [
    '# Start',
    '',
    '::: code-group',
    '',
    fence('sh [npm]', '$ npm add -D vitepress'),
    '',
    fence('sh [pnpm]', '$ pnpm add -D vitepress'),
    '',
    fence('sh [bun]', '$ bun add -D vitepress'),
    '',
    ':::',
  ].join('\n');
  const vp = codes(md(vitepress, 'docs/start.md'));
  t.is(vp.length, 1);
  t.deepEqual(examples(vp), [{ language: 'bash', code: '# npm\n$ npm add -D vitepress\n\n# pnpm\n$ pnpm add -D vitepress\n\n# bun\n$ bun add -D vitepress' }]);
  t.false(vp[0].content.includes('[npm]') || vp[0].description.includes('[npm]'));
  const starlight = [
    '# Add',
    '',
    'Add the integration:',
    '',
    '<Tabs syncKey="pkg">',
    '  <TabItem label="npm">',
    '',
    '  ' + fence('sh', 'npx astro add react').replace(/\n/g, '\n  '),
    '',
    '  </TabItem>',
    '  <TabItem label="pnpm">',
    '',
    '  ' + fence('sh', 'pnpm astro add react').replace(/\n/g, '\n  '),
    '',
    '  </TabItem>',
    '</Tabs>',
    '',
    fence('sh', 'npm run build'),
  ].join('\n');
  const sl = codes(md(starlight));
  // npm twice in a row is two steps, not two variants.
  t.deepEqual(
    examples(sl).map((b) => b.code),
    ['# npm\nnpx astro add react\n\n# pnpm\npnpm astro add react', 'npm run build'],
  );
});

test('Starlight <PackageManagers> is written out as the commands it renders; inside a fence it stays code', (t) => {
  const text = [
    '# Setup',
    '',
    'Install React support:',
    '',
    '<PackageManagers',
    '  pkg="@astrojs/react"',
    '  dev',
    '/>',
    '',
    'Usage of the component:',
    '',
    fence('mdx', '<PackageManagers pkg="astro" />'),
  ].join('\n');
  const out = md(text);
  t.deepEqual(examples(out), [
    { language: 'sh', code: '# npm\nnpm install -D @astrojs/react\n\n# pnpm\npnpm add -D @astrojs/react\n\n# yarn\nyarn add -D @astrojs/react' },
    { language: 'mdx', code: '<PackageManagers pkg="astro" />' },
  ]);
  t.is(out[0].description, 'Install React support:');
  // Before any heading the snippet starts at the component's line.
  const [alone] = md(['', '', '<PackageManagers', '  pkg="@astrojs/react"', '/>'].join('\n'));
  t.deepEqual([alone.code, alone.startLine], ['# npm\nnpm install @astrojs/react\n\n# pnpm\npnpm add @astrojs/react\n\n# yarn\nyarn add @astrojs/react', 3]);
});

test('listing captions introduce their code; JSX whitespace never leaks into text', (t) => {
  const text = [
    '# Hello',
    '',
    '<Listing number="1-1" file-name="main.rs" caption="Writing a program that prints `Hello, world!`">',
    '',
    fence('rust', 'fn main() {\n    println!("Hello, world!");\n}'),
    '',
    '</Listing>',
    '',
    'Read the <Link to="/guide">guide</Link>{\' \'}first, then{" "}<code>run</code>{" "}it and {`go on`} with the rest of the chapter.',
  ].join('\n');
  const out = md(text);
  t.is(codes(out)[0].description, 'Listing 1-1: Writing a program that prints `Hello, world!` (main.rs)');
  t.true(out[0].content.startsWith('Listing 1-1: Writing a program that prints `Hello, world!` (main.rs)\n\n```rust\nfn main() {'));
  t.is(proseOf(out[0].content).split('\n\n').pop(), 'Read the guide first, then run it and go on with the rest of the chapter.');
  t.false(out.some((s) => /\{['"` ]/.test(s.content) || /\{['"` ]/.test(s.description)));
});

test('a README header (logo HTML, centred title, badges, tagline block) is not content; its <h1> titles the page', (t) => {
  const text = [
    '<p align="center">',
    '  <a href="https://x.dev"><img alt="X logo" src="https://x.dev/logo.svg" width="200"></a>',
    '</p>',
    '',
    '<h1 align="center">Xfast</h1>',
    '',
    '[![npm](https://img.shields.io/npm/v/x.svg)](https://npmjs.com/x) [![CI](https://github.com/x/x/badge.svg)](https://github.com/x/x/actions)',
    '',
    '<div align="center">',
    '  <strong>Fast, tiny, typed.</strong>',
    '  <sub>Built with love by <a href="https://x.dev">the X team</a></sub>',
    '</div>',
    '',
    'Xfast is a small library that renders documents quickly and safely anywhere.',
    '',
    '## Install',
    '',
    fence('sh', 'npm install xfast'),
  ].join('\n');
  const out = md(text, 'README.md');
  t.true(out.every((s) => s.pageTitle === 'Xfast'));
  const info = out.find((s) => s.kind === 'info');
  t.is(info?.content, 'Xfast is a small library that renders documents quickly and safely anywhere.');
  t.deepEqual([info?.startLine, codes(out)[0].startLine], [14, 16], 'line numbers stay true (the paragraph; the ## Install heading)');
  // Not a README: the same HTML stays content as before.
  t.true(md(text, 'docs/intro.md').some((s) => s.content.includes('Fast, tiny, typed.')));
});
