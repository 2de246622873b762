/**
 * Markdown pages as the sections a reader meets: what titles a page, where a section starts and
 * ends, lists that keep their nesting, and prose that keeps (or no longer points at) what it
 * announces. What a site renders at build time is in markdown-rendered.test.ts, the parser's
 * other cases in markdown.test.ts.
 */
import test from 'ava';
import { splitMarkdownIntoSnippets } from './markdown';

const md = (text: string, path = 'docs/page.md') => splitMarkdownIntoSnippets({ path, text });

test('a level-1 heading after other headings divides the page and does not title it: the opening section takes the title from the path', (t) => {
  const text = [
    'A small, fast and scalable state-management solution using simplified flux principles.',
    '',
    '## First create a store',
    '',
    'Your store is a hook that holds state and actions, created once for the whole app.',
    '',
    '# Recipes',
    '',
    '## Fetching everything',
    '',
    'You can fetch the whole store at once, though every change then renders the component again.',
  ].join('\n');
  const out = md(text, 'docs/state/README.md');
  t.deepEqual(
    out.map((s) => s.breadcrumb.join(' > ')),
    ['State', 'State > First create a store', 'State > Recipes > Fetching everything'],
  );
  t.is(md(`# Zustand\n\n${text}`)[0].breadcrumb.join(' > '), 'Zustand', 'a first heading of level 1 titles the page');
});

test('a paragraph announcing a list longer than a part opens the first part with the list, never ends a part alone', (t) => {
  const items = Array.from({ length: 60 }, (_, i) => `- \`.method${i}(arg)\` - Sets the thing number ${i} on the reply.`);
  const out = md(`# Reply\n\n## Introduction\n\nReply is a core object that exposes the following functions and properties:\n\n${items.join('\n')}\n`);
  t.true(out.length > 1, 'the list is longer than a part');
  t.true(
    out[0].content.startsWith('Reply is a core object that exposes the following functions and properties:\n\n- `.method0(arg)`'),
    out[0].content.slice(0, 200),
  );
  t.true(out.every((s) => s.content.length <= 2400 + 20));
  t.false(
    out.some((s) => /:\s*$/.test(s.content)),
    'no part ends on the announcement',
  );
});

test('a nested list keeps its nesting: items indented under their parent, in tight and loose lists, at any depth', (t) => {
  const [tight] = md(
    [
      '# Steps',
      '',
      'For Redux specifically, we can break these steps into more detail:',
      '',
      '1. Initial setup:',
      '    - A store is created using a root reducer function',
      '    - The store calls the root reducer once',
      '2. Updates:',
      '   * something happens in the app',
      '     * the app code dispatches an action',
      '   * the store runs the reducer again',
      '',
      '- top item',
      '  continued on the next line',
      '  - its child',
    ].join('\n'),
  );
  t.is(
    tight.content,
    [
      'For Redux specifically, we can break these steps into more detail:',
      '',
      '1. Initial setup:',
      '   - A store is created using a root reducer function',
      '   - The store calls the root reducer once',
      '2. Updates:',
      '   * something happens in the app',
      '     * the app code dispatches an action',
      '   * the store runs the reducer again',
      '',
      '- top item continued on the next line',
      '  - its child',
    ].join('\n'),
  );
  const [loose] = md(['# Steps', '', 'Do this:', '', '- Install:', '', '  - run `npm i`', '', '  - check the version', '', '- Configure'].join('\n'));
  t.is(loose.content, 'Do this:\n\n- Install:\n\n  - run `npm i`\n\n  - check the version\n\n- Configure');
});

test('prose announcing a picture or an embedded player the snippet cannot show ends as a statement, its words kept', (t) => {
  const out = md(
    [
      '# Data flow',
      '',
      'Earlier, we talked about one-way data flow. Here is what that data flow looks like visually:',
      '',
      '![Redux data flow diagram](/img/ReduxDataFlowDiagram.gif)',
      '',
      '## Full example',
      '',
      'Here is the complete counter application as a running CodeSandbox:',
      '',
      '<iframe',
      '  class="codesandbox"',
      '  src="https://codesandbox.io/embed/counter"',
      '></iframe>',
      '',
      '## Livestream',
      '',
      'The show includes a live-coded example app:',
      '',
      '<LiteYouTubeEmbed',
      '    id="9zySeP5vH9c"',
      '    title="Learn Modern Redux"',
      '/>',
      '',
      '## Install',
      '',
      'Install it:',
      '',
      '<Tabs>',
      '',
      '```sh',
      'npm i redux',
      '```',
      '',
      '</Tabs>',
    ].join('\n'),
    'docs/page.mdx',
  );
  t.deepEqual(
    out.map((s) => s.content),
    [
      'Earlier, we talked about one-way data flow. Here is what that data flow looks like visually.',
      'Here is the complete counter application as a running CodeSandbox.',
      'The show includes a live-coded example app.',
      'Install it:\n\n```sh\nnpm i redux\n```',
    ],
  );
});

test('a front-matter title that is the H1 with the site section after it ("deps | Config") titles the page by its H1', (t) => {
  const [first] = md(
    [
      '---',
      'title: deps | Config',
      'outline: deep',
      '---',
      '',
      '# deps',
      '',
      '## deps.interopDefault',
      '',
      'Interpret CJS modules default export as named exports.',
    ].join('\n'),
  );
  t.deepEqual(first.breadcrumb, ['deps', 'deps.interopDefault']);
  t.is(first.pageTitle, 'deps');
  const [other] = md(
    [
      '---',
      'title: Vitest 4.0 is out!',
      '---',
      '',
      '# Vitest 4',
      '',
      'Vitest 4 is out, with a stable browser mode, visual regression testing and a faster test runner for large projects.',
    ].join('\n'),
  );
  t.is(other.pageTitle, 'Vitest 4.0 is out!', 'a title that is not the H1 plus a suffix stays');
});

test('a front-matter description joins the title’s section only when that section has no prose of its own', (t) => {
  const page = (intro: string[]) =>
    md(
      [
        '---',
        'title: AWS CodeArtifact',
        'description: Using uv with AWS CodeArtifact for installing and publishing Python packages.',
        '---',
        '',
        '# AWS CodeArtifact',
        '',
        ...intro,
        '```toml title="pyproject.toml"',
        '[[tool.uv.index]]',
        'name = "private-registry"',
        '```',
        '',
        '## Publishing packages',
        '',
        'Publish with `uv publish` and the index URL of the repository.',
      ].join('\n'),
    );
  const withIntro = page([
    'uv can install packages from AWS CodeArtifact, by an access token or the keyring package.',
    '',
    'The index can be declared like so:',
    '',
  ]);
  t.deepEqual(
    withIntro.map((s) => [s.breadcrumb.join(' > '), s.kind]),
    [
      ['AWS CodeArtifact', 'code'],
      ['AWS CodeArtifact > Publishing packages', 'info'],
    ],
    'one snippet for the title’s section, not a twin holding the description',
  );
  t.false(withIntro[0].content.includes('Using uv with'));
  const codeOnly = page([]);
  t.is(codeOnly.length, 2);
  t.true(codeOnly[0].content.startsWith('Using uv with AWS CodeArtifact for installing and publishing Python packages.\n\n```toml'), codeOnly[0].content);
});

test('a subheading repeating the heading right above it continues that section: one heading path, one snippet', (t) => {
  const out = md(
    [
      '# Progress Bar',
      '',
      'If an operation takes some time, you can tell the user.',
      '',
      '## Progress Bar',
      '',
      "You can use Rich's progress display to show a progress bar:",
      '',
      '```python',
      'for value in track(range(100)):',
      '    process(value)',
      '```',
      '',
      '## Spinner',
      '',
      'A spinner shows that something is happening when you cannot tell how long it will take.',
    ].join('\n'),
  );
  t.deepEqual(
    out.map((s) => [s.breadcrumb.join(' > '), s.kind]),
    [
      ['Progress Bar', 'code'],
      ['Progress Bar > Spinner', 'info'],
    ],
  );
  t.true(out[0].content.startsWith('If an operation takes some time, you can tell the user.\n\nYou can use'));
});
