import test from 'ava';
import { memoryFiles } from '../pipeline/commit-files';
import { dependentHash, expandIncludes } from '.';

const expand = (path: string, files: Record<string, string>) => expandIncludes({ path, text: files[path] }, memoryFiles(files));

const LIB_RS = `use std::io;

// ANCHOR: here
fn main() {
    println!("Guess the number!");
}
// ANCHOR_END: here

// ANCHOR: other
fn other() {}
// ANCHOR_END: other
`;

test('mdBook: include, anchors, line ranges, rustdoc_include and escapes', async (t) => {
  const files = {
    'src/ch01.md': [
      '# Chapter',
      '```rust',
      '{{#rustdoc_include ../listings/ch01/src/main.rs:here}}',
      '```',
      '```toml',
      '{{#include ../listings/ch01/Cargo.toml:2:3}}',
      '```',
      '```rust',
      '{{#include ../listings/ch01/src/main.rs}}',
      '```',
      'Escaped: \\{{#include nothing.rs}}',
      '{{#include part.md}}',
    ].join('\n'),
    'src/part.md': 'Included prose with {{#include ../listings/ch01/Cargo.toml::1}}.',
    'listings/ch01/src/main.rs': LIB_RS,
    'listings/ch01/Cargo.toml': '[package]\nname = "guess"\nversion = "0.1.0"\nedition = "2021"\n',
  };
  const out = await expand('src/ch01.md', files);
  t.regex(out.text, /```rust\nfn main\(\) \{\n {4}println!\("Guess the number!"\);\n\}\n```/);
  t.false(out.text.includes('ANCHOR'), 'anchor markers are dropped from whole-file includes too');
  t.regex(out.text, /```toml\nname = "guess"\nversion = "0.1.0"\n```/);
  t.regex(out.text, /```rust\nuse std::io;\n\nfn main/);
  t.true(out.text.includes('Escaped: {{#include nothing.rs}}'));
  t.true(out.text.includes('Included prose with [package].'), 'a Markdown include is expanded in turn');
  t.deepEqual(out.problems, []);
  t.deepEqual(out.included.sort(), ['listings/ch01/Cargo.toml', 'listings/ch01/src/main.rs', 'src/part.md']);
});

test('mdBook: a missing file, a missing anchor and a cycle are left as written and reported', async (t) => {
  const files = {
    'a.md': '{{#include gone.rs}}\n{{#include code.rs:nope}}\n{{#include b.md}}\n',
    'b.md': 'B then {{#include a.md}}',
    'code.rs': 'fn x() {}\n',
  };
  const out = await expand('a.md', files);
  t.true(out.text.includes('{{#include gone.rs}}'));
  t.true(out.text.includes('{{#include code.rs:nope}}'));
  t.true(out.text.includes('B then {{#include a.md}}'));
  t.deepEqual(
    out.problems.map((p) => [p.path, p.reason, p.target]),
    [
      ['a.md', 'missing', 'gone.rs'],
      ['a.md', 'part missing', 'code.rs:nope'],
      ['b.md', 'cycle', 'a.md'],
    ],
  );
});

test('Sphinx: literalinclude with language, lines, markers, pyobject, caption; include spliced', async (t) => {
  const files = {
    'docs/conf.py': 'project = "x"\n',
    'docs/guide.rst': [
      'Guide',
      '=====',
      '',
      '.. literalinclude:: ../examples/app.py',
      '   :pyobject: create_app',
      '   :caption: app.py',
      '',
      '.. literalinclude:: /snippets/config.toml',
      '   :lines: 2-3',
      '',
      '.. literalinclude:: ../examples/app.py',
      '   :language: python3',
      '   :start-after: # start',
      '   :end-before: # end',
      '',
      '.. include:: ../shared/releases-intro.rst',
      '   :start-after: .. marker',
      '',
      '.. include:: <isonum.txt>',
      '',
      'After.',
    ].join('\n'),
    'docs/snippets/config.toml': '[a]\nb = 1\nc = 2\n',
    'examples/app.py': 'import x\n\n@decorate\ndef create_app():\n    return 1\n\n\ndef other():\n    # start\n    value = 2\n    # end\n',
    'shared/releases-intro.rst': 'Title\n\n.. marker\n\nVersion 1.0\n-----------\n\nFirst release.\n',
  };
  const out = await expand('docs/guide.rst', files);
  t.true(out.text.includes('.. code-block:: python\n   :caption: app.py\n\n   @decorate\n   def create_app():\n       return 1\n'), out.text);
  t.true(out.text.includes('.. code-block:: toml\n\n   b = 1\n   c = 2\n'));
  t.true(out.text.includes('.. code-block:: python3\n\n       value = 2\n'));
  t.true(out.text.includes('Version 1.0\n-----------\n\nFirst release.'));
  t.false(out.text.includes('Title\n'), 'start-after cuts the included file');
  t.true(out.text.includes('.. include:: <isonum.txt>'));
  t.true(out.text.includes('After.'));
  t.deepEqual(out.problems, []);
});

test('MkDocs snippets: single, block, line ranges, sections, base_path, escapes, indentation', async (t) => {
  const files = {
    'mkdocs.yml': 'site_name: x\nmarkdown_extensions:\n  - pymdownx.snippets:\n      base_path:\n        - docs/.snippets\n        - .\n',
    'docs/index.md': [
      '# Index',
      '--8<-- "abbr.md"',
      '',
      '```python',
      '--8<-- "examples/demo.py:2:3"',
      '```',
      '',
      '    --8<-- "examples/demo.py:body"',
      '',
      '--8<--',
      'abbr.md',
      'FOOTER.md',
      '--8<--',
      ';--8<-- "escaped.md"',
      '--8<-- "missing.md"',
    ].join('\n'),
    'docs/.snippets/abbr.md': '*[HTML]: Hyper Text',
    'FOOTER.md': 'MIT licence',
    'examples/demo.py': 'import a\nx = 1\ny = 2\n# --8<-- [start:body]\nz = 3\n# --8<-- [end:body]\n',
  };
  const out = await expand('docs/index.md', files);
  t.true(out.text.startsWith('# Index\n*[HTML]: Hyper Text\n'));
  t.true(out.text.includes('```python\nx = 1\ny = 2\n```'));
  t.true(out.text.includes('\n    z = 3\n'));
  t.false(out.text.includes('[start:body]'));
  t.true(out.text.includes('*[HTML]: Hyper Text\nMIT licence'));
  t.true(out.text.includes('--8<-- "escaped.md"') && !out.text.includes(';--8<--'));
  t.deepEqual(
    out.problems.map((p) => [p.reason, p.target]),
    [['missing', 'missing.md']],
  );
});

test('AsciiDoc: tags, lines, attributes in targets, Antora example$/partial$ and other modules', async (t) => {
  const files = {
    'docs/antora.yml': 'name: guide\nversion: ~\n',
    'docs/modules/ROOT/pages/index.adoc': [
      '= Guide',
      ':src: ../../../../src',
      '',
      '[source,java]',
      '----',
      'include::example$Hello.java[tag=main]',
      '----',
      '',
      '[source,java]',
      '----',
      'include::{src}/Util.java[lines=2..3]',
      '----',
      '',
      'include::partial$note.adoc[]',
      '',
      'include::api:example$client.rb[tags=call;!secret,indent=0]',
      '',
      'include::guide:ROOT:example$Hello.java[]',
      '',
      'include::example$Nope.java[]',
    ].join('\n'),
    'docs/modules/ROOT/examples/Hello.java': 'class Hello {\n  // tag::main[]\n  void main() {}\n  // end::main[]\n}\n',
    'docs/modules/ROOT/partials/note.adoc': 'NOTE: Shared note.\n\ninclude::partial$inner.adoc[]\n',
    'docs/modules/ROOT/partials/inner.adoc': 'Inner text.',
    'docs/modules/api/examples/client.rb': '    # tag::call[]\n    client.call\n    # tag::secret[]\n    token = 1\n    # end::secret[]\n    # end::call[]\n',
    'src/Util.java': 'package x;\nclass Util {\n  int a;\n}\n',
  };
  const out = await expand('docs/modules/ROOT/pages/index.adoc', files);
  t.true(out.text.includes('----\n  void main() {}\n----'));
  t.true(out.text.includes('----\nclass Util {\n  int a;\n----'));
  t.true(out.text.includes('NOTE: Shared note.\n\nInner text.'));
  t.true(out.text.includes('\nclient.call\n'));
  t.false(out.text.includes('token = 1'));
  t.true(out.text.includes('class Hello {\n  void main() {}\n}'), 'component:module:family$ resolves through antora.yml');
  t.deepEqual(
    out.problems.map((p) => [p.reason, p.target]),
    [['missing', 'example$Nope.java']],
  );
});

test('MDX raw-loader and ?raw imports become fenced code with language and title', async (t) => {
  const files = {
    'docs/usage.mdx': [
      "import CodeBlock from '@theme/CodeBlock';",
      "import Config from '!!raw-loader!./examples/config.js';",
      "import Script from './examples/run.sh?raw';",
      '',
      '# Usage',
      '',
      '<CodeBlock language="jsx" title="docusaurus.config.js">{Config}</CodeBlock>',
      '',
      '<CodeBlock>{Script}</CodeBlock>',
    ].join('\n'),
    'docs/examples/config.js': 'module.exports = { title: "x" };\n',
    'docs/examples/run.sh': 'npm run build\n',
  };
  const out = await expand('docs/usage.mdx', files);
  t.true(out.text.includes('```jsx title="docusaurus.config.js"\nmodule.exports = { title: "x" };\n```'));
  t.true(out.text.includes('```bash\nnpm run build\n```'));
  t.false(out.text.includes('raw-loader'));
  t.true(out.text.includes("import CodeBlock from '@theme/CodeBlock';"));
});

test('MDX: @site/ module paths without an extension, className languages', async (t) => {
  const files = {
    'website/docusaurus.config.ts': 'export default {};',
    'website/docs/basic.mdx':
      'import Source from \'!@site/src/examples/Basic?raw\';\n\n# Basic\n\n<CodeBlock className="language-jsx"\n  title="/src/examples/Basic.tsx">\n  {Source}\n</CodeBlock>\n',
    'website/src/examples/Basic.tsx': 'export const Basic = () => <div />;\n',
  };
  const out = await expand('website/docs/basic.mdx', files);
  t.true(out.text.includes('```jsx title="/src/examples/Basic.tsx"\nexport const Basic = () => <div />;\n```'), out.text);
  t.deepEqual(out.included, ['website/src/examples/Basic.tsx']);
});

test('a document without directives is returned as it is; dependent hashes change with an included file', async (t) => {
  const files = { 'a.md': '# A\n\nplain\n', 'b.md': '{{#include c.rs}}', 'c.rs': 'x' };
  const plain = await expand('a.md', files);
  t.is(plain.text, files['a.md']);
  const one = dependentHash('oid-b', ['c.rs'], memoryFiles(files));
  const two = dependentHash('oid-b', ['c.rs'], memoryFiles({ ...files, 'c.rs': 'xy' }));
  t.not(one, two);
  t.true(one.startsWith('oid-b+'));
});

test('include bombs stop at the size budget', async (t) => {
  const files: Record<string, string> = { 'big.rs': 'x'.repeat(1000) };
  files['a.md'] = Array.from({ length: 50 }, () => '{{#include big.rs}}').join('\n');
  const out = await expandIncludes({ path: 'a.md', text: files['a.md'] }, memoryFiles(files), {}, 10_000);
  t.is(out.problems.filter((p) => p.reason === 'too large').length, 40);
  t.true(out.text.length < 12_000);
});

test('including the changelog or the licence adds nothing (they are excluded by default)', async (t) => {
  const files = {
    'docs/changelog.md': '--8<-- "CHANGELOG.md"\n',
    'docs/license.md': '{{#include ../LICENSE.md}}',
    'CHANGELOG.md': '## 1.0\n\n- first',
    'LICENSE.md': 'MIT',
  };
  t.is((await expand('docs/changelog.md', files)).text, '\n');
  t.is((await expand('docs/license.md', files)).text, '');
});

test('FastAPI: {* file ln[..] hl[..] *} becomes a code block of those lines; {!> file !} splices the file; paths from the MkDocs folder', async (t) => {
  const source = [
    'from fastapi import FastAPI',
    'from pydantic import BaseModel',
    '',
    'class Item(BaseModel):',
    '    name: str',
    '',
    'app = FastAPI()',
    '',
    '@app.post("/items/")',
    'async def create_item(item: Item):',
    '    return item',
  ].join('\n');
  const files = {
    'docs/en/mkdocs.yml': 'site_name: FastAPI\n',
    'docs/en/docs/tutorial/body.md': [
      '# Request Body',
      'Import `BaseModel`:',
      '{* ../../docs_src/body/tutorial001_py310.py hl[2] *}',
      'Only the model:',
      '{* ../../docs_src/body/tutorial001_py310.py ln[4:5,9:] hl[4] *}',
      '```Python hl_lines="7"',
      '{!> ../../docs_src/body/tutorial001_py310.py!}',
      '```',
      '{* ../../docs_src/missing.py *}',
    ].join('\n'),
    'docs_src/body/tutorial001_py310.py': `${source}\n`,
  };
  const out = await expand('docs/en/docs/tutorial/body.md', files);
  t.true(out.text.includes(`\`\`\`python\n${source}\n\`\`\``), 'the whole file as a python block');
  t.true(
    out.text.includes(
      '```python\nclass Item(BaseModel):\n    name: str\n\n# Code omitted 👇\n\n@app.post("/items/")\nasync def create_item(item: Item):\n    return item\n```',
    ),
    'ln ranges with an omission between',
  );
  t.true(out.text.includes(`\`\`\`Python hl_lines="7"\n${source}\n\`\`\``), '{!> !} spliced inside its fence');
  t.true(out.text.includes('{* ../../docs_src/missing.py *}'), 'a missing file stays as written');
  t.deepEqual(out.included, ['docs_src/body/tutorial001_py310.py']);
  t.deepEqual(
    out.problems.map((p) => [p.target, p.reason]),
    [['../../docs_src/missing.py', 'missing']],
  );
});

test('mdx_include line selectors: {!path[ln:1-2]!} splices those lines, [ln:4,9-] several ranges, inside a fence', async (t) => {
  const source = ['import a', 'import b', '', 'x = 1', 'y = 2', '', '', '', 'def f():', '    return x'].join('\n');
  const files = {
    'mkdocs.yml': 'site_name: SQLModel\n',
    'docs/tutorial/insert.md': [
      '# Insert',
      '```{.python .annotate hl_lines="2" }',
      '{!./docs_src/insert/tutorial001.py[ln:1-2]!}',
      '',
      '# More code here later 👈',
      '',
      '{!./docs_src/insert/tutorial001.py[ln:4,9-]!}',
      '```',
      '{!./docs_src/insert/missing.py[ln:1-3]!}',
    ].join('\n'),
    'docs_src/insert/tutorial001.py': `${source}\n`,
  };
  const out = await expand('docs/tutorial/insert.md', files);
  t.true(
    out.text.includes('```{.python .annotate hl_lines="2" }\nimport a\nimport b\n\n# More code here later 👈\n\nx = 1\ndef f():\n    return x\n```'),
    out.text,
  );
  t.true(out.text.includes('{!./docs_src/insert/missing.py[ln:1-3]!}'), 'a missing file stays as written');
  t.deepEqual(
    out.problems.map((p) => [p.target, p.reason]),
    [['./docs_src/insert/missing.py', 'missing']],
  );
});

test('mdBook: a {{#title}} line is not text', async (t) => {
  const out = await expand('src/ch01.md', { 'src/ch01.md': '{{#title Guessing Game}}\n# Programming a Guessing Game\n\nText.\n' });
  t.is(out.text, '# Programming a Guessing Game\n\nText.\n');
});

test('Sphinx: a part of a file discovery leaves out (the changelog) reads as nothing, not as a missing part', async (t) => {
  const files = {
    'docs/changes.rst': 'Changes\n=======\n\n.. include:: ../CHANGES.rst\n   :start-after: .. towncrier release notes start\n',
    'CHANGES.rst': 'Changes\n=======\n\n.. towncrier release notes start\n\n1.0\n---\n',
  };
  const out = await expand('docs/changes.rst', files);
  t.deepEqual(out.problems, []);
  t.is(out.text.trim(), 'Changes\n=======');
});
