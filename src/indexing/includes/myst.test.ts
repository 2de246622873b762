import test from 'ava';
import { memoryFiles } from '../pipeline/commit-files';
import { parseDocument } from '../parsers';
import { expandIncludes } from '.';

const expand = (path: string, files: Record<string, string>) => expandIncludes({ path, text: files[path] }, memoryFiles(files));

const README = [
  '# attrs',
  '',
  '<!-- teaser-begin -->',
  '*attrs* brings back the joy of writing classes.',
  '<!-- teaser-end -->',
  '',
  '<!-- code-begin -->',
  '```python',
  '@define',
  'class Point:',
  '    x: int',
  '```',
  '',
  "### It's about classes",
  '',
  'The rest.',
  '',
].join('\n');

test('MyST: {include} splices the part between quoted markers, as MyST reads its YAML options', async (t) => {
  const files = {
    'docs/conf.py': 'extensions = ["myst_parser"]\n',
    'docs/overview.md': [
      '# Overview',
      '',
      'It gives you a class decorator:',
      '',
      '```{include} ../README.md',
      ":start-after: 'code-begin -->'",
      ":end-before: '### It''s about classes'",
      '```',
      '',
      '## Philosophy',
      '',
      ':::{include} ../README.md',
      '---',
      'start-after: "teaser-begin -->"',
      'end-before: <!-- teaser-end',
      '---',
      ':::',
    ].join('\n'),
    'README.md': README,
  };
  const out = await expand('docs/overview.md', files);
  t.deepEqual(out.problems, []);
  t.deepEqual(out.included, ['README.md']);
  t.regex(out.text, /It gives you a class decorator:\n\n```python\n@define\nclass Point:\n {4}x: int\n```\n\n## Philosophy/);
  t.regex(out.text, /## Philosophy\n\n\*attrs\* brings back the joy of writing classes\.\n?$/);
  t.false(out.text.includes('{include}'));
  const snippets = parseDocument({ path: 'docs/overview.md', text: out.text });
  const intro = snippets.find((s) => s.code.includes('class Point'));
  t.truthy(intro, 'the included example is read as the page’s code');
  t.is(intro?.language, 'python');
});

test('MyST: {literalinclude} becomes a code fence (language, lines, pyobject, dedent); any non-Markdown file is code', async (t) => {
  const files = {
    'docs/conf.py': '',
    'docs/guide.md': [
      '# Guide',
      '',
      '- In a list:',
      '',
      '  ```{literalinclude} ../examples/app.py',
      '  :pyobject: create_app',
      '  ```',
      '',
      '```{literalinclude} /snippets/conf.toml',
      ':lines: 2-3',
      ':language: toml',
      '```',
      '',
      '````{include} ../examples/run.sh',
      '````',
    ].join('\n'),
    'examples/app.py': 'import x\n\n\ndef create_app():\n    return "```"\n\n\ndef other():\n    pass\n',
    'docs/snippets/conf.toml': '[tool]\nname = "a"\nversion = "1"\nextra = 2\n',
    'examples/run.sh': 'pip install attrs\n',
  };
  const out = await expand('docs/guide.md', files);
  t.deepEqual(out.problems, []);
  t.regex(out.text, /- In a list:\n\n {2}````python\n {2}def create_app\(\):\n {6}return "```"\n {2}````\n/);
  t.regex(out.text, /```toml\nname = "a"\nversion = "1"\n```/);
  t.regex(out.text, /```(sh|bash|shell)\npip install attrs\n```/);
});

test('MyST: a reST file is read as reST, headings can be offset, and what cannot be found is left and reported', async (t) => {
  const files = {
    'docs/index.md': [
      '# Index',
      '',
      '```{include} part.rst',
      '```',
      '',
      '```{include} ../NOTES.md',
      ':heading-offset: 1',
      '```',
      '',
      '```{include} gone.md',
      '```',
      '',
      '```{include} ../NOTES.md',
      ':start-after: no such marker',
      '```',
    ].join('\n'),
    'docs/part.rst': 'Title\n-----\n\nSome *reST*.\n',
    'NOTES.md': '# Changes\n\n## 1.0\n\n```md\n# not a heading\n```\n',
  };
  const out = await expand('docs/index.md', files);
  t.regex(out.text, /```\{eval-rst\}\nTitle\n-----\n\nSome \*reST\*\.\n```/);
  t.regex(out.text, /\n## Changes\n\n### 1\.0\n\n```md\n# not a heading\n```/);
  t.true(out.text.includes('```{include} gone.md'));
  t.true(out.text.includes(':start-after: no such marker'));
  t.deepEqual(
    out.problems.map((p) => [p.reason, p.target]),
    [
      ['missing', 'gone.md'],
      ['part missing', '../NOTES.md'],
    ],
  );
});

test('MyST: a part of a file discovery leaves out (the changelog) reads as nothing, not as a missing part', async (t) => {
  const files = {
    'docs/changelog.md': ['# Changelog', '', '```{include} ../CHANGELOG.md', ':end-before: Changes for the upcoming release', '```'].join('\n'),
    'CHANGELOG.md': '# Changelog\n\nChanges for the upcoming release can be found in changelog.d.\n\n## 25.1.0\n',
  };
  const out = await expand('docs/changelog.md', files);
  t.deepEqual(out.problems, []);
  t.is(out.text.trim(), '# Changelog');
});
