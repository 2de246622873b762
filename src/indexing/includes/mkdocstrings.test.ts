import test from 'ava';
import { memoryFiles } from '../pipeline/commit-files';
import { parseDocument } from '../parsers';
import { expandIncludes } from '.';

/** A package at the repository root, as pydantic lays itself out; the class re-exported by `__init__`. */
const FILES: Record<string, string> = {
  'tiny/__init__.py': '"""Tiny models."""\nfrom .main import Model as Model\n',
  'tiny/main.py': [
    'class Model:',
    '    """Base class for models.',
    '',
    '    Args:',
    '        strict: Whether to validate strictly.',
    '    """',
    '',
    '    def dump(self) -> dict:',
    '        """Returns the model as a dictionary."""',
    '',
    '    def dump_json(self) -> str:',
    '        """Returns the model as JSON."""',
    '',
    'def create_model(name: str) -> type:',
    '    """Creates a model class dynamically."""',
  ].join('\n'),
  // Exported lazily, as pydantic does: no import names it; private and older copies define it too.
  'lazy/__init__.py': "_dynamic_imports = {'Thing': (__spec__.parent, '.impl')}\n\ndef __getattr__(name):\n    ...\n",
  'lazy/_internal/impl.py': 'class Thing:\n    """The private one."""\n',
  'lazy/v1/impl.py': 'class Thing:\n    """The old one."""\n',
  'lazy/impl.py': 'class Thing:\n    """The public one."""\n',
};

const expand = (path: string, text: string) => expandIncludes({ path, text }, memoryFiles({ ...FILES, [path]: text }));
const entries = (path: string, text: string) =>
  parseDocument({ path, text })
    .filter((s) => s.kind === 'code')
    .map((s) => [s.title, s.breadcrumb.join(' > ')]);

test('::: pkg.Name becomes the API entries of the object where the directive stands, members as its options list them', async (t) => {
  const page = [
    '# Models',
    '',
    'Models are classes which inherit from `Model`.',
    '',
    '::: tiny.Model',
    '    options:',
    '        show_root_heading: true',
    '        members:',
    '          - dump',
    '',
    '::: tiny.main.create_model',
    '',
    'The page goes on after the reference.',
    '',
  ].join('\n');
  const out = await expand('docs/api/models.md', page);
  t.deepEqual(out.problems, []);
  t.true(out.included.includes('tiny/main.py'), 'the re-export is followed to the defining module');
  t.deepEqual(entries('docs/api/models.md', out.text), [
    // Headed by the path the page documents, as mkdocstrings shows a root object's full path.
    ['class Model', 'Models > class tiny.Model'],
    ['Model.dump()', 'Models > Model.dump()'],
    ['create_model()', 'Models > tiny.main.create_model()'],
  ]);
  const snippets = parseDocument({ path: 'docs/api/models.md', text: out.text });
  const model = snippets.find((s) => s.title === 'class Model');
  t.true(model?.code.startsWith('class Model:'));
  t.true(model?.description.startsWith('Base class for models.'));
  // The page's own prose stays in its section, before and after the reference.
  const info = snippets.find((s) => s.kind === 'info');
  t.true(info?.content.includes('Models are classes') && info.content.includes('The page goes on'));
  t.false(snippets.some((s) => s.content.includes('shelfmark:api') || s.content.includes(':::')));
});

test('a module lists its documented names; members: false keeps the object alone; an unknown target is left and logged', async (t) => {
  const module = await expand('docs/api/all.md', '# All\n\n::: tiny.main\n    options:\n        show_source: false\n');
  t.deepEqual(
    entries('docs/api/all.md', module.text).map(([title]) => title),
    ['class Model', 'Model.dump()', 'Model.dump_json()', 'create_model()'],
  );
  const alone = await expand('docs/api/one.md', '# One\n\n::: tiny.Model\n    options:\n        members: false\n');
  t.deepEqual(
    entries('docs/api/one.md', alone.text).map(([title]) => title),
    ['class Model'],
  );
  const missing = await expand('docs/api/core.md', '# Core\n\nThe core types.\n\n::: other_package\n    options:\n        show_source: false\n');
  t.deepEqual(missing.problems, [{ path: 'docs/api/core.md', target: 'other_package', reason: 'unresolved' }]);
  // Left as written, the parser drops it: no snippet holds the directive or its options.
  t.false(parseDocument({ path: 'docs/api/core.md', text: missing.text }).some((s) => /:::|options|show_source/.test(s.content)));
  // A colon fence is not a directive of ours.
  const tip = await expand('docs/guide.md', '# Guide\n\n::: tip\nA tip.\n:::\n');
  t.deepEqual(tip.problems, []);
});

test('a name a package exports lazily is found where a public module defines it', async (t) => {
  const out = await expand('docs/api/lazy.md', '# Lazy\n\n::: lazy.Thing\n');
  t.deepEqual(out.problems, []);
  const thing = parseDocument({ path: 'docs/api/lazy.md', text: out.text }).find((s) => s.title === 'class Thing');
  t.is(thing?.description, 'The public one.');
});
