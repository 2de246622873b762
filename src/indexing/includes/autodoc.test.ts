import test from 'ava';
import { memoryFiles } from '../pipeline/commit-files';
import { parseDocument } from '../parsers';
import { expandIncludes } from '.';

/** A small package laid out like Flask: `src/` root, the class re-exported by `__init__`. */
const FILES: Record<string, string> = {
  'docs/conf.py': 'import os, sys\nsys.path.insert(0, os.path.abspath("../ext"))\nproject = "tiny"\n',
  'src/tiny/__init__.py': '"""Tiny web framework."""\nfrom .app import Tiny as Tiny\nfrom .helpers import (\n    url_for,\n    redirect as go,\n)\n',
  'src/tiny/app.py': [
    'class Tiny:',
    '    """The application object.',
    '',
    '    Example::',
    '',
    '        app = Tiny(__name__)',
    '    """',
    '',
    '    def run(self, host: str = "127.0.0.1") -> None:',
    '        """Runs a development server.',
    '',
    '        :param host: The :class:`str` interface to listen on.',
    '        :returns: Nothing.',
    '',
    '        .. versionadded:: 2.0',
    '        """',
    '',
    '    def route(self, rule: str):',
    '        """Registers a view function for a URL rule."""',
    '',
    '    def undocumented(self): ...',
    '',
    '    def _private(self):',
    '        """Not API."""',
  ].join('\n'),
  'src/tiny/helpers.py': [
    '"""Helpers."""',
    '',
    'def url_for(endpoint: str, **values) -> str:',
    '    """Builds a URL to the given endpoint."""',
    '',
    'def redirect(location: str, code: int = 302):',
    '    """Returns a redirect response."""',
    '',
    'def _hidden():',
    '    """Private."""',
  ].join('\n'),
  'src/tiny/errors.py': 'from tiny._errors import *  # noqa\n',
  'src/tiny/_errors.py': 'class TinyError(Exception):\n    """Raised when a request cannot be served."""\n',
  'ext/tiny_ext.py': 'def extend(app):\n    """Adds the extension to an app."""\n',
};

const expand = (path: string, text: string) => expandIncludes({ path, text }, memoryFiles({ ...FILES, [path]: text }));
/** A reST API page under the `tiny` module: its heading and `.. module::`, then `lines`. */
const apiPage = (...lines: string[]) => ['API', '===', '', '.. module:: tiny', '', ...lines, ''].join('\n');

test('autoclass without :members: gives the class entry (with its example) where the directive stands', async (t) => {
  const text = apiPage('Before the class comes its introduction.', '', '.. autoclass:: Tiny', '', 'After the class the page goes on.');
  const out = await expand('docs/api.rst', text);
  t.deepEqual(out.problems, []);
  t.true(out.included.includes('src/tiny/app.py'), 'the re-export is followed to the defining module');
  const snippets = parseDocument({ path: 'docs/api.rst', text: out.text });
  const code = snippets.filter((s) => s.kind === 'code');
  t.deepEqual(
    code.map((s) => s.title),
    ['class Tiny', 'Tiny example'],
  );
  // Headed by the path the page documents it under (Sphinx shows `class tiny.Tiny`): a question naming `tiny.Tiny` finds it.
  t.is(code[0].breadcrumb.join(' > '), 'API > class tiny.Tiny');
  t.is(code[1].breadcrumb.join(' > '), 'API > tiny.Tiny example');
  t.true(code[0].code.startsWith('class Tiny:'));
  t.true(code[0].code.includes('def run(self, host: str = "127.0.0.1") -> None: ...'));
  t.true(code[0].description.startsWith('The application object.'));
  t.is(code[1].code, 'app = Tiny(__name__)');
  // Text after the directive stays in the page's own section, not in the API entry.
  const info = snippets.find((s) => s.kind === 'info');
  t.truthy(info);
  t.true(info?.content.includes('Before the class') && info.content.includes('After the class'));
  t.false(snippets.some((s) => s.content.includes('shelfmark:api') || s.description.includes('shelfmark:api')));
});

test('autoclass :members: adds documented public members; a member list and :exclude-members: narrow it', async (t) => {
  const all = await expand('docs/api.rst', 'API\n===\n\n.. autoclass:: tiny.app.Tiny\n   :members:\n   :undoc-members:\n');
  const titles = parseDocument({ path: 'docs/api.rst', text: all.text })
    .filter((s) => s.kind === 'code')
    .map((s) => s.title);
  t.deepEqual(titles, ['class Tiny', 'Tiny example', 'Tiny.run()', 'Tiny.route()']);
  const run = parseDocument({ path: 'docs/api.rst', text: all.text }).find((s) => s.title === 'Tiny.run()');
  // Docstring fields, roles and directives read as the rendered page does.
  t.is(run?.description, 'Runs a development server.\n\nhost: The `str` interface to listen on. Returns: Nothing.\n\nNew in version 2.0.');
  const some = await expand('docs/api.rst', 'API\n===\n\n.. autoclass:: tiny.Tiny\n   :members: route, run\n   :exclude-members: run\n');
  t.deepEqual(
    parseDocument({ path: 'docs/api.rst', text: some.text })
      .filter((s) => s.kind === 'code')
      .map((s) => s.title),
    ['class Tiny', 'Tiny example', 'Tiny.route()'],
  );
});

test('autofunction and automethod through aliases, currentmodule and a conf.py sys.path root', async (t) => {
  const text = [
    'Helpers',
    '=======',
    '',
    '.. currentmodule:: tiny',
    '',
    '.. autofunction:: url_for',
    '',
    '.. py:autofunction:: tiny.go',
    '',
    '.. automethod:: Tiny.route',
    '',
    '.. autofunction:: tiny_ext.extend',
    '',
    '.. module:: tiny.errors',
    '',
    '.. autoexception:: TinyError',
    '',
  ].join('\n');
  const out = await expand('docs/helpers.rst', text);
  t.deepEqual(out.problems, []);
  const code = parseDocument({ path: 'docs/helpers.rst', text: out.text }).filter((s) => s.kind === 'code');
  t.deepEqual(
    code.map((s) => s.title),
    ['url_for()', 'redirect()', 'Tiny.route()', 'extend()', 'class TinyError'],
  );
  t.is(code[0].code, 'def url_for(endpoint: str, **values) -> str:');
  t.is(code[0].description, 'Builds a URL to the given endpoint.');
  t.is(code[3].description, 'Adds the extension to an app.');
});

test('automodule: :members: lists the public API; without it only the module docstring examples', async (t) => {
  const out = await expand('docs/mod.rst', 'Helpers\n=======\n\n.. automodule:: tiny.helpers\n   :members:\n\n.. automodule:: tiny.helpers\n');
  const code = parseDocument({ path: 'docs/mod.rst', text: out.text }).filter((s) => s.kind === 'code');
  t.deepEqual(
    code.map((s) => s.title),
    ['url_for()', 'redirect()'],
  );
  t.deepEqual(out.problems, []);
});

test('unresolvable targets are logged and dropped, never fatal', async (t) => {
  const text =
    'API\n===\n\n.. autoclass:: nowhere.Thing\n   :members:\n\n.. autofunction:: tiny.helpers.missing\n\n.. autofunction:: tiny.helpers._hidden\n\nStill here.\n';
  const out = await expand('docs/api.rst', text);
  t.deepEqual(
    out.problems.map((p) => [p.reason, p.target]),
    [
      ['unresolved', 'nowhere.Thing'],
      ['unresolved', 'tiny.helpers.missing'],
      ['unresolved', 'tiny.helpers._hidden'],
    ],
  );
  const snippets = parseDocument({ path: 'docs/api.rst', text: out.text });
  t.false(snippets.some((s) => s.kind === 'code'));
  t.true(snippets.some((s) => s.content.includes('Still here.')) || out.text.includes('Still here.'));
});

test("members nested under an autoclass resolve in its class, as Sphinx does (Jinja's `.. automethod:: render([context])` under `.. autoclass:: Template`)", async (t) => {
  const text = apiPage(
    '.. autoclass:: Tiny',
    '',
    '    .. attribute:: name',
    '',
    '        The import name of the application.',
    '',
    '    .. automethod:: run([host])',
    '',
    '    .. automethod:: route',
    '',
    '.. automethod:: run',
    '',
    'After the class the page goes on.',
  );
  const out = await expand('docs/api.rst', text);
  t.deepEqual(
    out.problems.map((p) => [p.reason, p.target]),
    [['unresolved', 'run']],
    'the last `run` stands outside the class: unresolved, as in Sphinx',
  );
  const snippets = parseDocument({ path: 'docs/api.rst', text: out.text });
  const titles = snippets.filter((s) => s.kind === 'code').map((s) => s.title);
  t.true(titles.includes('Tiny.run()'), titles.join(', '));
  t.true(titles.includes('Tiny.route()'), titles.join(', '));
  const run = snippets.find((s) => s.title === 'Tiny.run()')!;
  t.true(run.description.includes('Runs a development server'), run.description);
  t.true(snippets.some((s) => s.content.includes('After the class the page goes on.')));
});
