import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import type { ParsedSnippet } from '../types';
import { readableDocstring, splitRstIntoSnippets } from './rst';
import { cleanRstInline } from './rst-inline';
import { fencedBlocks, proseOf } from '../../search/format/fence';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/repos/', import.meta.url));
const withCorpus = fs.existsSync(CORPUS) ? test : test.skip;

const rst = (text: string, path = 'docs/page.rst') => splitRstIntoSnippets({ path, text });
const codes = (out: ParsedSnippet[]) => out.filter((s) => s.kind === 'code');
const infos = (out: ParsedSnippet[]) => out.filter((s) => s.kind === 'info');
/** Every code example of the snippets, in order, as their Markdown holds it. */
const examples = (out: ParsedSnippet[]) => out.flatMap((s) => fencedBlocks(s.content));

const PAGE = `.. _blueprints:

==============
 Blueprints
==============

.. currentmodule:: flask

Blueprints record operations to execute when registered on an application.

Registering
-----------

So how do you register that blueprint?  Like this::

    app = Flask(__name__)
    app.register_blueprint(simple_page)

Nested
~~~~~~

.. code-block:: python
   :caption: app.py
   :emphasize-lines: 2

   parent = Blueprint('parent', __name__)
   parent.register_blueprint(child)

Another Top Section
-------------------

>>> app.url_map
Map([<Rule '/' -> index>])
`;

test('titles by adornment, levels in order of first appearance, overline titles', (t) => {
  const out = rst(PAGE);
  t.true(out.every((s) => s.pageTitle === 'Blueprints'));
  const [literal, block, doctest] = codes(out);
  t.deepEqual(literal.breadcrumb, ['Blueprints', 'Registering']);
  t.deepEqual(block.breadcrumb, ['Blueprints', 'Registering', 'Nested']);
  t.deepEqual(doctest.breadcrumb, ['Blueprints', 'Another Top Section']);
  t.is(infos(out)[0].startLine, 4);
});

test('literal blocks after :: are highlighted as Sphinx does: Python by default (JSON as JSON, none when it does not lex), or as .. highlight:: says', (t) => {
  const [literal] = codes(rst(PAGE));
  t.is(literal.code, 'app = Flask(__name__)\napp.register_blueprint(simple_page)');
  t.is(literal.language, 'python');
  t.is(literal.startLine, 11, 'the section heading');
  t.is(literal.description, 'So how do you register that blueprint? Like this:');
  t.is(literal.content, 'So how do you register that blueprint? Like this:\n\n```python\napp = Flask(__name__)\napp.register_blueprint(simple_page)\n```');
  const fallback = (block: string, highlight = '') =>
    examples(codes(rst(`${highlight}Title\n=====\n\nExample::\n\n${block.replace(/^/gm, '    ')}\n`)))[0]?.language;
  t.is(fallback('{"name": "koa", "private": true}'), 'json');
  t.is(fallback('/yourapplication\n    __init__.py\n    /static\n        style.css'), '', 'a directory tree reads as no code');
  t.is(fallback('127.0.0.1 - - [29/Nov/2024 10:00:00] "GET / HTTP/1.1" 200 -'), '', 'a log line');
  t.is(fallback('pip install -U Werkzeug\nexport FLASK_APP=hello'), 'sh', 'shell commands without a prompt');
  t.is(fallback("print('it's not closed')"), '', 'a string left open does not lex');
  t.is(fallback('x = y ? 1 : 2'), '', '? does not lex');
  t.is(fallback('├── app.py\n└── tests = []'), 'text', 'a drawing is text');
  t.is(fallback('def f(x):\n    """Doc with a $ and a ? inside."""\n    return x  # what? $5'), 'python', 'strings and comments may hold anything');
  t.is(fallback('x = 1', '.. highlight:: none\n\n'), '');
  t.is(fallback('x = 1', '.. highlight:: default\n\n'), 'python');
  t.is(fallback('#include <stdio.h>\nint x = 1;', '.. highlight:: c\n\n'), 'c');
  const highlighted = codes(rst('.. highlight:: python\n\nTitle\n=====\n\nExample ::\n\n    x = 1\n\n::\n\n    y = 2\n'));
  t.deepEqual(
    highlighted.map((c) => [c.language, c.code, c.description]),
    [['python', 'x = 1\n\ny = 2', 'Example']],
  );
  t.deepEqual(examples(highlighted), [
    { language: 'python', code: 'x = 1' },
    { language: 'python', code: 'y = 2' },
  ]);
});

test('code-block options are skipped; the directive line is the start line', (t) => {
  const block = codes(rst(PAGE))[1];
  t.is(block.language, 'python');
  t.is(block.code, "parent = Blueprint('parent', __name__)\nparent.register_blueprint(child)");
  t.is(block.content, "```python\nparent = Blueprint('parent', __name__)\nparent.register_blueprint(child)\n```", 'no :caption: or :emphasize-lines:');
  t.is(block.startLine, 19, 'the section heading');
  t.is(block.title, 'Nested');
  // A code block before any heading starts its snippet: there the directive line is the start line.
  const [alone] = rst('\n\n.. code-block:: python\n   :caption: app.py\n   :emphasize-lines: 2\n\n   x = 1\n');
  t.deepEqual([alone.code, alone.startLine], ['x = 1', 3]);
});

test('code, sourcecode and doctest directives and >>> blocks', (t) => {
  const out = codes(
    rst(
      'Title\n=====\n\n.. code:: JSON\n\n   {"a": 1}\n\n.. sourcecode:: python+sql\n\n   select(User)\n\n.. doctest::\n\n   >>> 1 + 1\n   2\n\n>>> app.url_map\nMap([])\n',
    ),
  );
  t.deepEqual(examples(out), [
    { language: 'json', code: '{"a": 1}' },
    { language: 'python+sql', code: 'select(User)' },
    { language: 'pycon', code: '>>> 1 + 1\n2' },
    { language: 'pycon', code: '>>> app.url_map\nMap([])' },
  ]);
  t.is(out.length, 1);
  t.is(out[0].language, 'json');
});

test('a literal block recording a shell session is console, whatever the page highlights', (t) => {
  const out = codes(rst('Title\n=====\n\n.. highlight:: python\n\nInstall it::\n\n    $ pip install flask\n\nThen::\n\n    import flask\n'));
  t.deepEqual(examples(out), [
    { language: 'console', code: '$ pip install flask' },
    { language: 'python', code: 'import flask' },
  ]);
});

test('admonitions and version notes are prose; their code is still code', (t) => {
  const out = rst(`Title
=====

.. note::
   Blueprints cannot be unregistered once an application was created.

.. warning:: Do not share state between blueprints.

.. versionadded:: 2.0
   Nested blueprints.

.. versionchanged:: 2.3 The \`\`url_prefix\`\` may be empty.

.. deprecated:: 3.0

.. admonition:: Custom title

   Body text of the custom admonition::

       print("inside")

.. seealso:: :doc:\`/patterns/appdispatch\`
`);
  t.is(out.length, 1);
  t.is(
    proseOf(out[0].content),
    [
      'Note: Blueprints cannot be unregistered once an application was created.',
      'Warning: Do not share state between blueprints.',
      'New in version 2.0. Nested blueprints.',
      'Changed in version 2.3. The `url_prefix` may be empty.',
      'Deprecated since version 3.0.',
      'Custom title Body text of the custom admonition:',
      'See also: /patterns/appdispatch',
    ].join('\n\n'),
  );
  const [code] = codes(out);
  t.is(code.code, 'print("inside")');
  t.true(code.description.endsWith('Custom title Body text of the custom admonition:'));
  t.true(code.content.includes('Custom title Body text of the custom admonition:\n\n```python\nprint("inside")\n```\n\nSee also: /patterns/appdispatch'));
});

test('API object directives keep their signature and body; autodoc, toctree and images are dropped', (t) => {
  const out = rst(`API
===

.. autoclass:: Flask
   :members:

.. toctree::
   :maxdepth: 2

   quickstart
   tutorial

.. image:: _static/logo.png
   :alt: Logo

.. py:function:: url_for(endpoint, **values)

   Generates a URL to the given endpoint with the given values.

   .. code-block:: python

      url_for('index')

.. class:: Blueprint(name, import_name)

   Represents a blueprint, a collection of routes.
`);
  t.is(out.length, 1);
  const [code] = out;
  t.is(
    code.content,
    "`url_for(endpoint, **values)`\n\nGenerates a URL to the given endpoint with the given values.\n\n```python\nurl_for('index')\n```\n\n`class Blueprint(name, import_name)`\n\nRepresents a blueprint, a collection of routes.",
  );
  t.false(/Flask|members|quickstart|logo/.test(code.content));
  t.is(code.code, "url_for('index')");
  // The signature and the sentence under it introduce the example together.
  t.is(code.description, '`url_for(endpoint, **values)`\n\nGenerates a URL to the given endpoint with the given values.');
});

test('roles, references, substitutions and targets are rendered as text', (t) => {
  t.is(
    cleanRstInline('Use :func:`foo` and :class:`~a.b.C` or :meth:`!bar`; see :ref:`the guide <guide>` and :doc:`install`.'),
    'Use `foo` and `C` or `bar`; see the guide and install.',
  );
  t.is(cleanRstInline('Read `the docs <https://x.y>`_ or `Flask`_ and |project| [1]_ here.'), 'Read the docs or Flask and project here.');
  t.is(cleanRstInline('The :class:`_engine.Engine` comes from :func:`_sa.create_engine`.'), 'The `Engine` comes from `create_engine`.');
  t.is(
    cleanRstInline('``ctx.body`` is **important** and *emphasised*, :py:attr:`Flask.config` too.'),
    '`ctx.body` is important and emphasised, `Flask.config` too.',
  );
  const out = rst(
    '.. |project| replace:: Flask\n.. _target: https://example.com\n\nTitle\n=====\n\n.. This is a comment\n   spanning lines.\n\nThe |project| documentation explains :class:`~flask.Flask` objects.\n',
  );
  t.is(infos(out)[0].content, 'The project documentation explains `Flask` objects.');
});

test('lists and literal blocks inside list items', (t) => {
  const out = rst(
    'Title\n=====\n\n* First item with enough words to matter here.\n* Second item with code::\n\n      run()\n\n  Continuation of the second item.\n* Third item.\n',
  );
  t.deepEqual(examples(out), [{ language: 'python', code: 'run()' }]);
  t.is(out.length, 1);
  t.is(
    out[0].content,
    '* First item with enough words to matter here.\n* Second item with code:\n\n```python\nrun()\n```\n\nContinuation of the second item.\n* Third item.',
  );
});

test('tables keep their text without borders', (t) => {
  const [info] = infos(
    rst(
      'Options\n=======\n\n=====  ==========================\nName   Meaning\n=====  ==========================\nfoo    the foo option of the app\n=====  ==========================\n',
    ),
  );
  t.is(info.content, 'Name Meaning foo the foo option of the app');
});

test('weird input never throws', (t) => {
  for (const text of ['', '::', '..', '.. ::', '====', 'a\n=', '.. code-block::', '>>>', '   ::\n', '.. note::\n\n', '\uFEFFTitle\n=====\n'])
    t.notThrows(() => rst(text), JSON.stringify(text));
});

withCorpus('flask blueprints.rst yields the registering examples under their sections', (t) => {
  const text = fs.readFileSync(`${CORPUS}pallets__flask/3.1.3/docs/blueprints.rst`, 'utf8');
  const out = rst(text, 'docs/blueprints.rst');
  t.true(out.every((s) => s.pageTitle === 'Modular Applications with Blueprints'));
  const register = codes(out).find((s) => s.code.includes('app.register_blueprint(simple_page)'));
  t.deepEqual(register?.breadcrumb, ['Modular Applications with Blueprints', 'Registering Blueprints']);
  t.true(register?.description.includes('register that blueprint'));
  const prefix = codes(out).find((s) => s.code.includes("url_prefix='/pages'"));
  t.truthy(prefix);
  t.true(examples(out).some((b) => b.language === 'pycon' && b.code.startsWith('>>> app.url_map')));
  // The rules listing stays after the sentence that announces it.
  t.true(register?.content.includes('you will find these:\n\n```pycon\n>>> app.url_map'));
  t.false(out.some((s) => /:class:|currentmodule|\.\. /.test(s.content + s.description)));
});

withCorpus('every reST page of flask parses with sane snippets', (t) => {
  const root = `${CORPUS}pallets__flask/3.1.3/docs`;
  let count = 0;
  for (const name of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.rst')) continue;
    const out = rst(fs.readFileSync(`${root}/${name}`, 'utf8'), `docs/${name}`);
    count += out.length;
    for (const s of out) {
      t.true(s.breadcrumb[0] === s.pageTitle && s.startLine >= 1, `${name}:${s.startLine}`);
      if (s.kind === 'code') t.true(s.code.trim() !== '' && !/^\s*:\w+:/.test(s.code), `${name}:${s.startLine}`);
    }
  }
  t.true(count > 300);
});

test('a docstring reads as Sphinx renders it: fields as words, marker fields (:internal:, :private:, :meta:) gone', (t) => {
  t.is(
    readableDocstring('An immutable :class:`list`.\n\n:param items: The items to hold.\n:returns: The list.\n:private:\n'),
    'An immutable `list`.\n\nitems: The items to hold. Returns: The list.',
  );
});

test('a nested reST list keeps its nesting', (t) => {
  const [out] = rst(['Steps', '=====', '', 'Do this:', '', '* Install:', '', '  * run ``pip``', '  * check', '', '* Configure'].join('\n'));
  t.is(out.content, 'Do this:\n\n* Install:\n\n  * run `pip`\n  * check\n\n* Configure');
});

test('a paragraph announcing a picture ends as a statement', (t) => {
  const [out] = rst(['Flow', '====', '', 'The request flows like this:', '', '.. image:: flow.png', '   :alt: flow', '', 'Then it returns.'].join('\n'));
  t.is(out.content, 'The request flows like this.\n\nThen it returns.');
});

test('auto-numbered items (#.) read with the numbers Sphinx renders, across paragraphs and literal blocks, restarting per list', (t) => {
  const [out] = rst(
    [
      'Steps',
      '=====',
      '',
      '#. Install the package.',
      '#. Run the server::',
      '',
      '      serve --port 8000',
      '',
      '#. Open the page.',
      '',
      '   #) nested, first',
      '   #) nested, second',
      '',
      '#. Log in.',
      '',
      'Then check:',
      '',
      '(#) it answers',
      '(#) it logs',
    ].join('\n'),
  );
  t.is(
    out.content,
    [
      '1. Install the package.',
      '2. Run the server:',
      '',
      '```',
      'serve --port 8000',
      '```',
      '',
      '3. Open the page.',
      '',
      '   1) nested, first',
      '   2) nested, second',
      '',
      '4. Log in.',
      '',
      'Then check:',
      '',
      '(1) it answers',
      '(2) it logs',
    ].join('\n'),
  );
  const two = rst(
    [
      'Install',
      '=======',
      '',
      '#. Download the package archive.',
      '#. Unpack it into a folder.',
      '',
      'Upgrade',
      '=======',
      '',
      '#. Stop the running server first.',
      '#. Replace the folder with the new one.',
    ].join('\n'),
  );
  t.deepEqual(
    two.map((s) => s.content),
    ['1. Download the package archive.\n2. Unpack it into a folder.', '1. Stop the running server first.\n2. Replace the folder with the new one.'],
    'a heading ends the list',
  );
});
