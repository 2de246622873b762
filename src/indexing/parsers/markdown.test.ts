import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import type { ParsedSnippet } from '../types';
import { splitMarkdownIntoSnippets } from './markdown';
import { fencedBlocks, proseOf } from '../../search/format/fence';
import { cpuMs } from '../../util/cpu-time';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/repos/', import.meta.url));
const withCorpus = fs.existsSync(CORPUS) ? test : test.skip;

const md = (text: string, path = 'docs/page.md') => splitMarkdownIntoSnippets({ path, text });
const codes = (out: ParsedSnippet[]) => out.filter((s) => s.kind === 'code');
const infos = (out: ParsedSnippet[]) => out.filter((s) => s.kind === 'info');
/** The page's prose as snippets hold it, without their fenced examples. */
const prose = (out: ParsedSnippet[]) => out.map((s) => proseOf(s.content)).join('\n\n');

const CONTEXT = `---
title: Context
sidebar_position: 2
---

A Koa Context encapsulates Node's request and response objects into a single object.

## API

### ctx.cookies.set(name, value, [options])

Set cookie \`name\` to \`value\` with \`options\`, see [cookies](https://github.com/pillarjs/cookies):

\`\`\`js title="app.js"
ctx.cookies.set('name', 'tobi', { signed: true });
\`\`\`

~~~JavaScript
ctx.cookies.set('a', 'b');
~~~
`;

test('front matter gives the page title and counts in line numbers', (t) => {
  const out = md(CONTEXT);
  t.true(out.every((s) => s.pageTitle === 'Context'));
  // The text before the first heading starts at its paragraph (line 6), the section at its heading (line 10).
  t.deepEqual(
    out.map((s) => [s.kind, s.title, s.startLine]),
    [
      ['info', 'Context', 6],
      ['code', 'ctx.cookies.set(name, value, [options])', 10],
    ],
  );
  const [, first] = out;
  t.is(first.language, 'js');
  t.is(first.code, "ctx.cookies.set('name', 'tobi', { signed: true });\n\nctx.cookies.set('a', 'b');");
  t.deepEqual(first.breadcrumb, ['Context', 'API', 'ctx.cookies.set(name, value, [options])']);
  t.is(first.title, 'ctx.cookies.set(name, value, [options])');
  t.is(first.description, 'Set cookie `name` to `value` with `options`, see cookies:');
  t.is(
    first.content,
    "Set cookie `name` to `value` with `options`, see cookies:\n\n```js title=\"app.js\"\nctx.cookies.set('name', 'tobi', { signed: true });\n```\n\n```javascript\nctx.cookies.set('a', 'b');\n```",
    'the fence names the file; ~~~ fences and their language are read',
  );
  t.false(out.some((s) => s.content.includes('sidebar_position')));
});

test('the front matter description introduces a page that has no prose of its own', (t) => {
  const out = md(
    '---\ntitle: serve-static middleware\ndescription: Serve static files from a root folder.\n---\n\nimport X from "y";\n\n## Examples\n\n### Vanilla http server\n\n```js\nconst serve = serveStatic("public")\n```\n',
    'docs/serve-static.mdx',
  );
  const [code] = codes(out);
  t.is(code.description, 'Serve static files from a root folder.');
  t.deepEqual(code.breadcrumb, ['serve-static middleware', 'Examples', 'Vanilla http server']);
  // Not repeated when the page opens with the same sentence.
  const same = md('---\ndescription: Koa is a web framework.\n---\n\nKoa is a web framework. It is small and expressive, built on async functions.\n');
  t.is(infos(same)[0].content, 'Koa is a web framework. It is small and expressive, built on async functions.');
});

test('without front matter the first H1 is the page title, else the file name', (t) => {
  t.is(md('# Getting Started\n\nSome words about getting started with the library here.\n')[0].pageTitle, 'Getting Started');
  t.is(md('Some words about getting started with the library here.\n', 'docs/query-params.md')[0].pageTitle, 'Query params');
  t.is(md('Some words about getting started with the library here.\n', 'docs/api/index.md')[0].pageTitle, 'Api');
});

test('setext headings and ATX closing hashes build the breadcrumb', (t) => {
  const out = md('Guide\n=====\n\nIntro paragraph that is long enough to be kept as info.\n\nInstall ##\n-------\n\n```sh\nnpm i koa\n```\n');
  const [code] = codes(out);
  t.deepEqual(code.breadcrumb, ['Guide', 'Install ##']);
  t.is(md('# Guide\n\n## Install ##\n\n```sh\nnpm i koa\n```\n').find((s) => s.kind === 'code')?.title, 'Install');
  t.is(code.startLine, 6, 'the setext heading line');
  t.is(code.content, '```sh\nnpm i koa\n```');
});

test('heading anchors, inline code and links are cleaned from titles', (t) => {
  const out = md(
    '# Query Parameters { #query-parameters }\n\n## `useState(initial)` {/*usestate*/}\n\n```js\nuseState(0)\n```\n\n## [Links](/x) and **bold** {#custom}\n\n```js\nx()\n```\n',
  );
  const [a, b] = codes(out);
  t.deepEqual(a.breadcrumb, ['Query Parameters', 'useState(initial)']);
  t.is(b.title, 'Links and bold');
});

test('info snippets keep inline code, drop URLs, images and HTML', (t) => {
  const [info] = infos(
    md(
      '# Title\n\nUse `ctx.body = <b>` to respond ![badge](https://x/y.svg) — see the [docs](https://koajs.com "Koa") and <kbd>Ctrl</kbd>+C &amp; more text here.\n',
    ),
  );
  t.is(info.content, 'Use `ctx.body = <b>` to respond — see the docs and Ctrl+C & more text here.');
  t.is(info.startLine, 1);
});

test('tables are kept as prose rows without the delimiter row', (t) => {
  const [info] = infos(md('# Options\n\n| Option | Default |\n| --- | :---: |\n| `maxAge` | none |\n| `signed` | false |\n'));
  t.is(info.content, 'Option | Default\n`maxAge` | none\n`signed` | false');
});

test('lists keep one item per line, wrapped prose is joined', (t) => {
  const [info] = infos(md('# List\n\nThe options are\nlisted below:\n\n- `a`: first\n- `b`: second\n  continued\n'));
  t.is(info.content, 'The options are listed below:\n\n- `a`: first\n- `b`: second continued');
});

test('indented code blocks are code, but not inside lists or MDX', (t) => {
  const text = '# T\n\nRun this:\n\n    node app.js\n\n1. First step\n\n    still the first step, not code\n';
  const out = md(text);
  t.deepEqual(
    out.map((c) => [c.kind, c.code, c.language]),
    [['code', 'node app.js', 'sh']],
  );
  t.is(out[0].content, 'Run this:\n\n```sh\nnode app.js\n```\n\n1. First step\n\nstill the first step, not code');
  t.deepEqual(codes(md(text, 'docs/page.mdx')), []);
  t.true(prose(md(text, 'docs/page.mdx')).includes('node app.js'), 'in MDX it stays prose');
});

test('fences inside list items are dedented', (t) => {
  const [code] = codes(md('# T\n\n1. Install:\n\n   ```bash\n   npm install\n     --save\n   ```\n'));
  t.is(code.code, 'npm install\n  --save');
  t.is(code.description, '1. Install:');
});

test('Docusaurus/VitePress admonitions keep their text and titles', (t) => {
  const out = md(
    '# T\n\n:::tip[Pro tip]\nYou can pass a function to `setState` instead of a value.\n:::\n\n::: warning\nThis API is experimental and may change.\n:::\n',
  );
  t.is(infos(out)[0].content, 'Pro tip\n\nYou can pass a function to `setState` instead of a value.\n\nWarning: This API is experimental and may change.');
});

test('GitHub alerts and block quotes become prose, fences inside quotes are code', (t) => {
  const out = md(
    '# T\n\n> [!NOTE]\n> Mutation is possible but discouraged.\n\n> [!WARNING] Inline alert text that is long enough.\n\n> Quoted:\n> ```js\n> quoted()\n> ```\n',
  );
  t.is(out.length, 1);
  t.is(out[0].kind, 'code');
  t.is(out[0].content, 'Mutation is possible but discouraged.\n\nWarning: Inline alert text that is long enough.\n\nQuoted:\n\n```js\nquoted()\n```');
  t.deepEqual(fencedBlocks(out[0].content), [{ language: 'js', code: 'quoted()' }]);
  t.is(out[0].code, 'quoted()');
  t.is(md('# T\n\n> [!TIP] Inline tip text that is long enough to stay.\n')[0]?.content, 'Inline tip text that is long enough to stay.');
  // "Quoted:" alone is a lead-in, so the paragraphs before it come along.
  t.true(out[0].description.endsWith('Warning: Inline alert text that is long enough.\n\nQuoted:'));
});

test('warnings, deprecations and version changes say so in every syntax, as Sphinx renders them; notes and tips keep their title alone', (t) => {
  const [out] = md(
    [
      '# Fields',
      '',
      'Fields hold the values of a model.',
      '',
      '/// version-added | v2.13',
      'Computed fields can be excluded from the output.',
      '///',
      '',
      '!!! danger',
      '',
      '    Never store secrets in a field default.',
      '',
      '!!! warning "Slow"',
      '    Validating every item of a large list takes a while.',
      '',
      '/// deprecated',
      'The `copy` method is replaced by `model_copy`.',
      '///',
      '',
      '::: caution',
      '```py',
      'model.copy()',
      '```',
      ':::',
      '',
      '!!! note "Email validation"',
      '    Install the email extra.',
      '',
      '> [!CAUTION]',
      '> Breaking change in the next major version.',
      '',
      ':::{deprecated} 3.0',
      'Use `model_validate` instead.',
      ':::',
    ].join('\n'),
  );
  t.is(
    out.content,
    [
      'Fields hold the values of a model.',
      'New in version 2.13. Computed fields can be excluded from the output.',
      'Danger: Never store secrets in a field default.',
      'Warning: Slow',
      'Validating every item of a large list takes a while.',
      'Deprecated: The `copy` method is replaced by `model_copy`.',
      'Caution:',
      '```py\nmodel.copy()\n```',
      'Email validation',
      'Install the email extra.',
      'Caution: Breaking change in the next major version.',
      'Deprecated since version 3.0. Use `model_validate` instead.',
    ].join('\n\n'),
  );
});

test('MkDocs admonitions and content tabs are dedented so their code is found', (t) => {
  const out = md(
    '# Install\n\n=== "pip"\n\n    ```bash\n    pip install pydantic\n    ```\n\n!!! note "Email validation"\n    Install the email extra to validate emails properly.\n\n        indented code in an admonition\n\nAfter.\n',
  );
  t.is(out.length, 1);
  t.deepEqual(fencedBlocks(out[0].content), [
    { language: 'bash', code: 'pip install pydantic' },
    { language: '', code: 'indented code in an admonition' },
  ]);
  t.deepEqual([out[0].code, out[0].language], ['pip install pydantic\n\nindented code in an admonition', 'bash']);
  // The admonition's text introduces its code, in place.
  t.is(
    out[0].content,
    '```bash\npip install pydantic\n```\n\nEmail validation\n\nInstall the email extra to validate emails properly.\n\n```\nindented code in an admonition\n```\n\nAfter.',
  );
});

test('pymdownx blocks and FastAPI includes are removed', (t) => {
  const out = md(
    '# T\n\n{* ../../docs_src/query_params/tutorial001_py310.py hl[9] *}\n\n/// tip | Smart\n\nFastAPI knows which parameters are path parameters.\n\n///\n\nInstall it:\n\n//// tab | `pip`\n\n```console\n$ pip install fastapi\n```\n\n////\n',
  );
  t.is(out.length, 1);
  const [code] = out;
  t.is(code.content, 'Smart\n\nFastAPI knows which parameters are path parameters.\n\nInstall it:\n\n```console\n$ pip install fastapi\n```');
  t.is(code.code, '$ pip install fastapi');
  t.true(code.description.endsWith('FastAPI knows which parameters are path parameters.\n\nInstall it:'));
});

test('MDX: imports, exports and JSX go, the Markdown and code inside components stay', (t) => {
  const text = `---
title: Basic usage
---

import { Tabs, Tab } from 'fumadocs-ui/components/tabs';
import {
  Callout,
} from "fumadocs-ui/components/callout";
export const meta = {
  draft: false,
};

<InlineToc />

## Defining a schema

Before you can do anything else, you need to define a schema.

<Tabs
  groupId="lib"
  items={["Zod", "Zod Mini"]}
>
<Tab value="Zod">
\`\`\`ts
const Player = z.object({ username: z.string() });
const el = <Player name="x" />;
\`\`\`
</Tab>
</Tabs>

<Callout type="info">**Note** — Use \`.parseAsync()\` with async refinements like \`<T>(x: T) => x\`.</Callout>

{/* a comment
   over lines */}
`;
  const out = md(text, 'docs/basics.mdx');
  t.is(out.length, 1);
  const [code] = out;
  t.is(code.code, 'const Player = z.object({ username: z.string() });\nconst el = <Player name="x" />;');
  t.is(code.startLine, 15, 'the heading line, front matter counted');
  t.is(code.description, 'Before you can do anything else, you need to define a schema.');
  t.is(
    code.content,
    'Before you can do anything else, you need to define a schema.\n\n```ts\nconst Player = z.object({ username: z.string() });\nconst el = <Player name="x" />;\n```\n\nNote — Use `.parseAsync()` with async refinements like `<T>(x: T) => x`.',
  );
  t.false(/import|export|InlineToc|groupId|Callout|comment/.test(prose(out)));
});

test('HTML comments, script/style blocks and HTML wrappers are removed in Markdown', (t) => {
  const text =
    '<script setup>\nimport { ref } from "vue"\n</script>\n\n# Computed\n\n<!-- prettier-ignore\n  spanning -->\n<div class="options-api">\n    Text inside an HTML block is prose, not an indented code block.\n</div>\n\n```vue-html\n<!-- kept in code -->\n<p>{{ msg }}</p>\n```\n';
  const out = md(text);
  t.is(out.length, 1);
  t.is(out[0].content, 'Text inside an HTML block is prose, not an indented code block.\n\n```vue-html\n<!-- kept in code -->\n<p>{{ msg }}</p>\n```');
  t.is(out[0].code, '<!-- kept in code -->\n<p>{{ msg }}</p>');
});

test('MyST directives and roles', (t) => {
  const text =
    '# Options\n\nUse the {func}`option` decorator or {class}`~click.Option` (see {ref}`parameter types <types>`).\n\n```{eval-rst}\n.. click:example::\n\n    @click.option("--n", default=1)\n    def dots(n): ...\n```\n\n```{note}\nOptions are optional; arguments are positional.\n```\n\n```{code-block} python\n:caption: app.py\n\nimport click\n```\n\n```{toctree}\napi\n```\n';
  const out = md(text);
  t.is(out.length, 1);
  t.is(proseOf(out[0].content), 'Use the `option` decorator or `Option` (see parameter types).\n\nNote: Options are optional; arguments are positional.');
  t.deepEqual(fencedBlocks(out[0].content), [
    { language: 'python', code: '@click.option("--n", default=1)\ndef dots(n): ...' },
    { language: 'python', code: 'import click' },
  ]);
  t.is(out[0].code, '@click.option("--n", default=1)\ndef dots(n): ...\n\nimport click');
});

test('empty fences, diagrams and placeholder-only fences produce nothing', (t) => {
  t.deepEqual(codes(md('# T\n\n```js\n```\n\n```mermaid\ngraph TD; A-->B\n```\n\n```\n...\n```\n')), []);
});

test('unclosed fences run to the end of the document', (t) => {
  const [code] = codes(md('# T\n\n```python\nprint(1)\n'));
  t.is(code.code, 'print(1)');
});

test('weird input never throws', (t) => {
  const inputs = [
    '',
    '\uFEFF',
    '---\n',
    '---\ntitle: [unclosed\n---\n# X',
    '<',
    '<Foo',
    '```',
    '> ',
    '!!! note',
    '[',
    '[]()',
    '`',
    '\r\n\r\n',
    '# ',
    '{/*',
    '<!--',
    'a\n===\n',
    '    ',
    '\t\tx',
  ];
  for (const text of inputs) for (const path of ['a.md', 'a.mdx']) t.notThrows(() => md(text, path), JSON.stringify(text));
  t.is(md('---\ntitle: [unclosed\n---\n\nBody text that is long enough to be an info snippet.')[0].pageTitle, '[unclosed');
});

test('a megabyte of Markdown parses quickly, and pathological text stays linear', (t) => {
  const page = `${CONTEXT}\n\n| a | b |\n|---|---|\n| [x](y) | \`z\` |\n\n- item with **bold** and _em_ and <b>tag</b>\n\n`;
  const big = page.repeat(Math.ceil(1_000_000 / page.length));
  md(big);
  md(big);
  const { value: out, ms: elapsed } = cpuMs(() => md(big));
  t.true(out.length > 1000);
  t.log(`1 MB Markdown: ${elapsed.toFixed(0)} ms`);
  // A guard against super-linear regressions (CPU time, so other tests' load does not count).
  t.true(elapsed < 2000, `took ${elapsed} ms`);
  for (const evil of ['['.repeat(200_000), '`'.repeat(100_001), ' '.repeat(200_000) + 'x', '<a '.repeat(70_000), '{/*'.repeat(70_000), '*a '.repeat(70_000)]) {
    t.true(cpuMs(() => md(evil)).ms < 2000, JSON.stringify(evil.slice(0, 10)));
  }
});

withCorpus('koa context.md yields the ctx.cookies.set section and its code', (t) => {
  const text = fs.readFileSync(`${CORPUS}koajs__koa/3.2.0/docs/api/context.md`, 'utf8');
  const out = md(text, 'docs/api/context.md');
  // The whole section is one snippet: its lead sentence, every option, its closing note.
  const cookies = out.filter((s) => s.breadcrumb.some((b) => b.includes('ctx.cookies.set')));
  t.is(cookies.length, 1);
  t.is(cookies[0].startLine, 77);
  t.is(cookies[0].part, undefined);
  t.true(cookies[0].content.startsWith('Set cookie `name` to `value` with `options`:\n\n* `maxAge`'));
  t.true(cookies[0].content.includes('`httpOnly`'));
  t.true(cookies[0].content.endsWith('Koa uses the cookies module where options are simply passed.'));
  const thrown = codes(out).find((s) => s.code.includes("ctx.throw(400, 'name required')"));
  t.deepEqual(thrown?.breadcrumb, ['Context', 'API', 'ctx.throw([status], [msg], [properties])']);
  t.is(thrown?.startLine, 95);
  t.true(thrown?.description.includes('The following combinations are allowed'));
  // Each example stays after the sentence that introduces it.
  t.true(thrown?.content.includes("For example `ctx.throw(400, 'name required')` is equivalent to:\n\n```js\nconst err = new Error('name required');"));
  t.is(fencedBlocks(thrown?.content ?? '').length, 3);
  t.true(out.every((s) => s.pageTitle === 'Context'));
});

withCorpus('react.dev useState.md: MDX-style components removed, recipes titled by their heading', (t) => {
  const text = fs.readFileSync(`${CORPUS}reactjs__react.dev/main/src/content/reference/react/useState.md`, 'utf8');
  const out = md(text, 'src/content/reference/react/useState.md');
  t.true(out.every((s) => s.pageTitle === 'useState'));
  t.false(out.some((s) => /<\/?(Sandpack|Pitfall|Recipes|Intro)/.test(s.content + s.description)));
  const counter = codes(out).find((s) => s.title === 'Counter (number)');
  t.truthy(counter);
  t.true(counter?.description.includes('`count` state variable'));
  t.true(counter?.breadcrumb.includes('Usage'));
});

withCorpus('every Markdown page of one library parses', (t) => {
  const root = `${CORPUS}vuejs__docs/main/src/guide`;
  let snippets = 0;
  for (const name of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.md')) continue;
    const out = md(fs.readFileSync(`${root}/${name}`, 'utf8'), `src/guide/${name}`);
    snippets += out.length;
    for (const s of out) t.true(s.startLine >= 1 && s.title !== '' && s.breadcrumb[0] === s.pageTitle, `${name}:${s.startLine}`);
  }
  t.true(snippets > 500);
});
