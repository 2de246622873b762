/**
 * Markdown as the docs' readers see it: what a site renders at build time (mkdocstrings, icons,
 * emoji), the language an unlabelled block is in, and imports that are syntax. Titles, sections,
 * lists and announcing prose are in markdown-structure.test.ts, the parser's other cases in
 * markdown.test.ts.
 */
import test from 'ava';
import { splitMarkdownIntoSnippets } from './markdown';
import { fencedBlocks } from '../../search/format/fence';

const md = (text: string, path = 'docs/page.md') => splitMarkdownIntoSnippets({ path, text });

test('mkdocstrings directives (API docs rendered from docstrings) and Material icon shortcodes leave nothing behind', (t) => {
  const out = md(
    [
      '# Base model',
      '',
      'Pydantic models are simply classes which inherit from `BaseModel` and define fields as annotated attributes.',
      '',
      '::: pydantic.BaseModel',
      '    options:',
      '        show_root_heading: true',
      '        members:',
      '          - model_dump',
      '',
      '::: pydantic_core',
      '    options:',
      '        show_source: false',
      '',
      '## :simple-slack: Slack',
      '',
      'Ask questions in the :material-help: community Slack, or :fontawesome-brands-github: on GitHub.',
      '',
      '::: tip',
      'A colon fence without options stays a tip.',
      ':::',
      '',
      '??? abstract "API Reference"',
      '    ::: starlette.testclient.TestClient',
      '        options:',
      '            show_root_heading: true',
      '',
      'The test client allows you to make requests against your application.',
      '',
      '    ::: indented.code.Block',
    ].join('\n'),
  );
  t.deepEqual(
    out.map((s) => [s.breadcrumb.join(' > '), s.kind, s.content]),
    [
      ['Base model', 'info', 'Pydantic models are simply classes which inherit from `BaseModel` and define fields as annotated attributes.'],
      [
        'Base model > Slack',
        'code',
        // Inside an admonition the directive goes too (its title stays); indented code is code.
        'Ask questions in the community Slack, or on GitHub.\n\nA colon fence without options stays a tip.\n\nAPI Reference\n\nThe test client allows you to make requests against your application.\n\n```\n::: indented.code.Block\n```',
      ],
    ],
  );
  t.is(out[1].title, 'Slack');
});

test('an unlabelled block that records a session is labelled: $ prompts console, >>> prompts pycon, JSON json, bare commands sh; a drawing is text', (t) => {
  const out = md(
    '# Run\n\nRun the tests:\n\n```\n$ npm test\n```\n\nIn Python:\n\n    >>> import koa\n\nThe output:\n\n```\nok 1 - passes\n```\n\nAs text:\n\n```text\n$ npm test\n```\n\nThe layout:\n\n```\n.\n├── project\n    ├── __init__.py\n    └── main.py\n```\n\nThe lifecycle:\n\n```\nIncoming Request\n  │\n  └─▶ Routing\n        │\n        └─▶ Handler\n```\n\nCode with one arrow in a string:\n\n```\nconst a = 1;\nconst b = 2;\nlog(\'a → b\');\n```\n\nCommands without a prompt:\n\n```\nnpm i\n# then\nnpm run dev\n```\n\nCode naming a command:\n\n```\ngit = Repo(\'.\')\nnode --version\n```\n\nThe response:\n\n```\n{"email": "amy@example.com", "is_admin": true}\n```\n\nSet up:\n\n```\npip install django\n./manage.py migrate\n```\n\nA command over three lines:\n\n```\nnpx jscodeshift ./path/to/src/ \\\n  --extensions=ts,tsx \\\n  --parser=tsx\n```\n\nA tree of files:\n\n```\nyourproject/\n    alembic.ini\n    alembic/\n        env.py\n```\n\nNames, not a tree:\n\n```\nalpha\nbeta\ngamma\n```\n',
  );
  t.deepEqual(
    fencedBlocks(out[0].content).map((b) => b.language),
    ['console', 'pycon', '', 'text', 'text', 'text', '', 'sh', '', 'json', 'sh', 'sh', 'text', ''],
  );
});

test("GitHub's emoji shortcodes read as their emoji in prose and headings; code, roles, times and unknown names stay", (t) => {
  const out = md(
    [
      '# Zustand :bear:',
      '',
      ':warning: This readme is written for JavaScript users. It ends at 10:30:00, see `:warning:` and :ref:`setup`.',
      '',
      'Unknown :not-an-emoji: stays, and so does http://example.com:8080:x.',
    ].join('\n'),
  );
  t.is(out[0].title, 'Zustand 🐻');
  t.is(
    out[0].content,
    '⚠️ This readme is written for JavaScript users. It ends at 10:30:00, see `:warning:` and :ref:`setup`.\n\nUnknown :not-an-emoji: stays, and so does http://example.com:8080:x.',
  );
});

test('a whole-line ES import in a .md page (Docusaurus reads .md as MDX) is syntax, not prose; an import sentence stays', (t) => {
  const out = md(
    [
      '# Installation',
      '',
      'Install the required polyfills:',
      '',
      "import { InstallSnippet } from '@site/src/components/InstallSnippet';",
      'import "./styles.css";',
      'Then add them to your project before the link is used.',
      '',
      'import the polyfills first, then the link.',
    ].join('\n'),
    'www/docs/links.md',
  );
  t.is(
    out[0].content,
    'Install the required polyfills:\n\nThen add them to your project before the link is used.\n\nimport the polyfills first, then the link.',
  );
});
