import test from 'ava';
import { duplicateIndexes, hasLeftoverMarkup, misplacedStart } from './fidelity';

test('a section snippet is judged by its prose: console output in its examples is not leftover markup; two sections sharing an example are not duplicates', (t) => {
  const section = (prose: string) => ({
    kind: 'code',
    title: 'Install',
    description: '',
    code: '$ uv add fastapi\n---> 100%',
    content: `${prose}\n\n\`\`\`console\n$ uv add fastapi\n---> 100%\n\`\`\``,
    path: 'docs/a.md',
  });
  t.false(hasLeftoverMarkup(section('Install it with uv:')));
  t.true(hasLeftoverMarkup(section('Install it <!-- TODO --> with uv:')));
  t.deepEqual([...duplicateIndexes([section('Install it with uv in a new project:'), section('Add it to an existing project:')])], []);
  t.deepEqual([...duplicateIndexes([section('Install it with uv in a new project:'), section('Install it with uv in a new project:')])], [1]);
});

test('syntax quoted as inline code is not leftover markup; the same syntax in prose, and a reST role before its target, are', (t) => {
  const info = (content: string) => ({ title: 'Child Template', description: '', content, path: 'docs/templates.md' });
  t.false(hasLeftoverMarkup(info('The `{% extends %}` tag is the key here, and `<!-- note -->` is a comment.')));
  t.true(hasLeftoverMarkup(info('The {% extends %} tag was left as written.')));
  t.true(hasLeftoverMarkup(info('See :ref:`templates` for the syntax.')));
});

test("a section's start line is its heading's line in the page as written; a heading the page does not hold is not judged", (t) => {
  const lines = ['# Guide', '', '.. include:: x', '', '## Usage', '', 'Call it.'];
  const section = (startLine: number, over: Partial<{ title: string; part: number }> = {}) => ({
    title: 'Usage',
    breadcrumb: ['Guide', 'Usage'],
    startLine,
    ...over,
  });
  t.false(misplacedStart(section(5), lines));
  t.false(misplacedStart(section(6), lines), 'the line after (a setext underline) still holds it');
  t.true(misplacedStart(section(8), lines), 'three lines further down: counted');
  t.false(misplacedStart(section(8, { part: 1 }), lines), 'a later part starts inside its section');
  t.false(misplacedStart(section(8, { title: 'From the included file' }), lines));
  t.false(misplacedStart({ title: 'Guide', breadcrumb: ['Guide'], startLine: 3 }, lines), 'a page introduction is not judged');
  const api = ['API', '===', '', 'Environment.get_template() loads one.', '', '.. autoclass:: Environment', '   :members: get_template'];
  t.false(
    misplacedStart({ title: 'Environment.get_template()', breadcrumb: ['API', 'Environment.get_template()'], startLine: 6 }, api),
    'an entry autodoc generates starts at its directive',
  );
});
