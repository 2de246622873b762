import test from 'ava';
import type { ParsedSnippet } from '../types';
import { pythonModuleName, snippetsFromPython } from './python';

const py = (text: string, path = 'pkg/client.py') => snippetsFromPython({ path, text });
const titled = (snippets: ParsedSnippet[], title: string) => snippets.find((s) => s.title === title);
const titles = (snippets: ParsedSnippet[]) => snippets.map((s) => s.title);

const CLIENT = `"""HTTP client."""
import functools

__all__ = ["Client", "fetch"]


@functools.lru_cache(maxsize=None)
@retry(times=3, on=(TimeoutError,))
async def fetch(
    url: str,
    *,
    sep: str = "):",  # a default that looks like the end of the header
    headers: dict[str, str] | None = None,
) -> "Response":
    '''Fetch \`\`url\`\` and return the :class:\`~pkg.models.Response\`.

    Args:
        url: Where to go. See :func:\`send\`.
        headers: Extra headers.

    Returns:
        The response.

    Example:
        >>> import asyncio
        >>> asyncio.run(fetch("https://example.org")).status
        200
    '''
    return await send(url)


def helper(x):
    """Not in __all__."""


class Client(Base, metaclass=Meta):
    r"""A client with a \\d+ raw docstring.

    Usage::

        client = Client("https://api")
    """

    timeout: float = 5.0
    retries = 3
    _pool = None

    def __init__(self, base_url: str, timeout: float = 5.0):
        """Create a client for \`\`base_url\`\`."""
        self.base_url = base_url

    @property
    def closed(self) -> bool:
        """Whether the client was closed."""
        return self._closed

    @closed.setter
    def closed(self, value: bool) -> None:
        self._closed = value

    async def get(self, path: str) -> "Response":
        """GET \`\`path\`\`.

        >>> client.get("/users")
        <Response 200>
        """

    def undocumented(self):
        pass

    def _private(self):
        """Hidden."""

    class Config:
        """Nested settings."""

        def load(self):
            """Load the settings."""

        def _dump(self):
            pass

    def __repr__(self):
        return "Client()"
`;

test('an async function with decorators and a multi-line signature whose defaults hold parens and colons', (t) => {
  const snippets = py(CLIENT);
  const fetch = titled(snippets, 'fetch()');
  t.truthy(fetch);
  t.is(
    fetch?.code,
    [
      '@functools.lru_cache(maxsize=None)',
      '@retry(times=3, on=(TimeoutError,))',
      'async def fetch(',
      '    url: str,',
      '    *,',
      '    sep: str = "):",  # a default that looks like the end of the header',
      '    headers: dict[str, str] | None = None,',
      ') -> "Response":',
    ].join('\n'),
  );
  t.is(fetch?.startLine, 7, 'the first decorator');
  t.is(fetch?.language, 'python');
  t.deepEqual(fetch?.breadcrumb, ['pkg.client', 'fetch()']);
  t.is(fetch?.pageTitle, 'pkg.client');
  t.is(
    fetch?.description,
    'Fetch `url` and return the `Response`.\n\nArgs:\n    url: Where to go. See `send`.\n    headers: Extra headers.\n\nReturns:\n    The response.',
  );
  const example = titled(snippets, 'fetch() example');
  t.is(example?.language, 'pycon');
  t.is(example?.code, '>>> import asyncio\n>>> asyncio.run(fetch("https://example.org")).status\n200');
  t.is(example?.startLine, 25);
  t.is(example?.description, 'Fetch `url` and return the `Response`.');
});

test('__all__ limits module-level names; private and undocumented methods get no snippet of their own', (t) => {
  t.deepEqual(titles(py(CLIENT)), [
    'fetch()',
    'fetch() example',
    'class Client',
    'Client example',
    'Client.closed',
    'Client.get()',
    'Client.get() example',
    'class Client.Config',
    'Client.Config.load()',
  ]);
});

test('a class: header, public attributes and method signatures; __init__ folded in; raw docstring kept verbatim', (t) => {
  const snippets = py(CLIENT);
  const cls = titled(snippets, 'class Client');
  t.is(
    cls?.code,
    [
      'class Client(Base, metaclass=Meta):',
      '    timeout: float = 5.0',
      '    retries = 3',
      '    def __init__(self, base_url: str, timeout: float = 5.0): ...',
      '    @property',
      '    def closed(self) -> bool: ...',
      '    async def get(self, path: str) -> "Response": ...',
      '    def undocumented(self): ...',
      '    class Config: ...',
    ].join('\n'),
  );
  t.is(cls?.description, 'A client with a \\d+ raw docstring.\n\nCreate a client for `base_url`.');
  const usage = titled(snippets, 'Client example');
  t.is(usage?.code, 'client = Client("https://api")');
  t.is(usage?.language, 'python');
  t.is(titled(snippets, 'Client.closed')?.code, '@property\ndef closed(self) -> bool:\n@closed.setter\ndef closed(self, value: bool) -> None:');
  t.deepEqual(titled(snippets, 'Client.get()')?.breadcrumb, ['pkg.client', 'class Client', 'Client.get()']);
  t.is(titled(snippets, 'Client.get() example')?.code, '>>> client.get("/users")\n<Response 200>');
  t.deepEqual(titled(snippets, 'Client.Config.load()')?.breadcrumb, ['pkg.client', 'class Client.Config', 'Client.Config.load()']);
});

test('without __all__ every public module-level name is documented, documented or not', (t) => {
  const snippets = py(`
def public(a, b=1):
    return a


def _private():
    """Hidden."""


class Thing:
    pass


async def stream(): ...
`);
  t.deepEqual(titles(snippets), ['public()', 'class Thing', 'stream()']);
  t.is(titled(snippets, 'stream()')?.code, 'async def stream():');
});

test('docstrings in both quote styles, with prefixes, one-liners and same-line bodies', (t) => {
  const snippets = py(`
def a():
    '''Single quotes.'''

def b():
    """Double quotes."""

def c(): """Same line."""

def d():
    R'''Raw \\n kept.'''

def e():
    u"Short string docstring."

def f():
    x = "not a docstring"
`);
  t.deepEqual(
    snippets.map((s) => [s.title, s.description]),
    [
      ['a()', 'Single quotes.'],
      ['b()', 'Double quotes.'],
      ['c()', 'Same line.'],
      ['d()', 'Raw \\n kept.'],
      ['e()', 'Short string docstring.'],
      ['f()', ''],
    ],
  );
  t.is(titled(snippets, 'c()')?.code, 'def c():');
});

test('functions and classes defined inside functions are not API', (t) => {
  const snippets = py(`
def outer():
    """Outer."""
    def inner():
        """Inner."""
    class Local:
        """Local."""
        def method(self):
            """Method."""
    return inner

def after():
    """After."""
`);
  t.deepEqual(titles(snippets), ['outer()', 'after()']);
});

test('definitions under module-level if/try blocks count; @overload signatures merge', (t) => {
  const snippets = py(`
from typing import overload

try:
    from _speedups import scan
except ImportError:
    def scan(text):
        """Scan the text."""

if sys.platform == "win32":
    def open_file(path):
        """Open on Windows."""
else:
    def open_file(path):
        """Open elsewhere."""

@overload
def parse(x: int) -> int: ...
@overload
def parse(x: str) -> str: ...
def parse(x):
    """Parse x."""
    return x
`);
  t.deepEqual(titles(snippets), ['scan()', 'open_file()', 'parse()']);
  t.is(titled(snippets, 'open_file()')?.code, 'def open_file(path):\ndef open_file(path):');
  t.is(titled(snippets, 'parse()')?.code, '@overload\ndef parse(x: int) -> int:\n@overload\ndef parse(x: str) -> str:\ndef parse(x):');
  t.is(titled(snippets, 'parse()')?.description, 'Parse x.');
});

test('tabs, CRLF line endings and backslash continuations', (t) => {
  const snippets = py('class A:\r\n\t"""Tabbed."""\r\n\tdef m(self, a, \\\r\n\t\t\tb):\r\n\t\t"""M."""\r\n\t\treturn a\r\n');
  t.deepEqual(titles(snippets), ['class A', 'A.m()']);
  t.is(titled(snippets, 'A.m()')?.code, 'def m(self, a, \\\n\t\tb):');
});

test('malformed input never throws and yields what precedes the damage', (t) => {
  const inputs = [
    '',
    'def',
    'def f(:\n',
    'class (\n',
    'def ok():\n    """Fine."""\n\ndef broken(a, b:\n    """never closed',
    '"""unterminated module docstring\ndef f(): pass\n',
    "def f(a='unterminated):\n    pass\n",
    ')))]]]}}}\n    def g(): pass\n',
    '\u0000\u0001 binary \uFFFD',
    '@decorator\n',
  ];
  for (const text of inputs) t.notThrows(() => py(text));
  t.true(titles(py(inputs[4])).includes('ok()'));
});

test('module names: package folders, __init__ and src layouts', (t) => {
  t.is(pythonModuleName('src/pkg/__init__.py'), 'pkg');
  t.is(pythonModuleName('pkg/sub/mod.py'), 'pkg.sub.mod');
  t.is(pythonModuleName('setup_helpers.py'), 'setup_helpers');
  t.is(pythonModuleName('__init__.py'), '__init__.py');
});
