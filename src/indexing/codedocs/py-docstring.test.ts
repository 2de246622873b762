/** Docstrings: sections kept as text, examples taken out, reST rendered. */
import test from 'ava';
import type { ParsedSnippet } from '../types';
import { cleanDocstring } from './py-docstring';
import { snippetsFromPython } from './python';

const py = (text: string, path = 'pkg/client.py') => snippetsFromPython({ path, text });
const titled = (snippets: ParsedSnippet[], title: string) => snippets.find((s) => s.title === title);

test('cleanDocstring dedents like inspect.cleandoc and counts the leading lines it dropped', (t) => {
  t.deepEqual(cleanDocstring('\n\n    Summary.\n\n      indented\n    back\n    '), { text: 'Summary.\n\n  indented\nback', skipped: 2 });
  t.deepEqual(cleanDocstring('First.\n        Second.'), { text: 'First.\nSecond.', skipped: 0 });
});

test('Google and NumPy example sections and fenced blocks become examples; other sections stay as text', (t) => {
  const snippets = py(`
def google(a):
    """Google style.

    Args:
        a: The value.

    Examples:
        Basic use:

        >>> google(1)
        2

        In a loop::

            for i in range(3):
                google(i)

    Note:
        Stays in the description.
    """


def numpy(a):
    """NumPy style.

    Parameters
    ----------
    a : int
        The value.

    Examples
    --------
    >>> numpy(1)
    2

    See Also
    --------
    google : the other one.
    """


def markdown(a):
    """Markdown fence.

    \`\`\`python
    markdown(1)
    \`\`\`

    .. code-block:: bash

        pip install thing
    """
`);
  const google = titled(snippets, 'google()');
  t.is(google?.description, 'Google style.\n\nArgs:\n    a: The value.\n\nNote:\n    Stays in the description.');
  t.deepEqual(
    snippets.filter((s) => s.title.startsWith('google() example')).map((s) => [s.language, s.description, s.code]),
    [
      ['pycon', 'Basic use:', '>>> google(1)\n2'],
      ['python', 'In a loop:', 'for i in range(3):\n    google(i)'],
    ],
  );
  t.is(
    titled(snippets, 'numpy()')?.description,
    'NumPy style.\n\nParameters\n----------\na : int\n    The value.\n\nSee Also\n--------\ngoogle : the other one.',
  );
  t.is(titled(snippets, 'numpy() example')?.code, '>>> numpy(1)\n2');
  t.deepEqual(
    snippets.filter((s) => s.title.startsWith('markdown() example')).map((s) => [s.language, s.code]),
    [
      ['python', 'markdown(1)'],
      ['bash', 'pip install thing'],
    ],
  );
  t.is(titled(snippets, 'markdown()')?.description, 'Markdown fence.');
});

test('reST roles and literals render as code', (t) => {
  const [snippet] = py('def f():\n    """Use :py:meth:`Client.get <pkg.Client.get>`, :class:`~a.b.C`, :data:`!x` and ``y``; see `docs <https://x.dev>`_."""\n');
  t.is(snippet.description, 'Use `Client.get`, `C`, `x` and `y`; see docs (https://x.dev).');
});

test('a module docstring yields its doctest examples', (t) => {
  const snippets = py('"""Tools.\n\nExample::\n\n    >>> import tools\n    >>> tools.run()\n    True\n"""\n', 'src/tools/__init__.py');
  t.deepEqual(
    snippets.map((s) => [s.title, s.language, s.code, s.startLine, s.breadcrumb]),
    [['tools example', 'pycon', '>>> import tools\n>>> tools.run()\nTrue', 5, ['tools']]],
  );
});
