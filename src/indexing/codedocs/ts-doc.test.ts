import test from 'ava';
import { docExamples, isHiddenDoc, parseDocComment, renderDocDescription, resolveInlineTags } from './ts-doc';

test('margins are removed but the indentation of code inside the prose is kept', (t) => {
  const doc = parseDocComment(
    '/**\n   * Shorthand for:\n   *\n   *    http.createServer(app.callback()).listen(...)\n   *\n   * @param {Mixed} ...\n   */',
    10,
  );
  t.is(doc.summary, 'Shorthand for:\n\n   http.createServer(app.callback()).listen(...)');
  t.deepEqual(
    doc.tags.map((x) => [x.name, x.text, x.line]),
    [['param', '{Mixed} ...', 15]],
  );
});

test('comments without star margins and one-line comments parse too', (t) => {
  t.is(parseDocComment('/** Just one line. */').summary, 'Just one line.');
  t.is(parseDocComment('/**\n    First line\n      indented\n */').summary, 'First line\n  indented');
});

test('@ at the start of a line inside a fenced example is code, not a tag', (t) => {
  const doc = parseDocComment('/**\n * @example\n * ```ts\n * @Component({})\n * class A {}\n * ```\n */', 0);
  t.deepEqual(docExamples(doc), [{ code: '@Component({})\nclass A {}', language: 'ts', caption: '', line: 3 }]);
});

test('an example with prose and several fences yields one example per fence with its caption', (t) => {
  const doc = parseDocComment(
    [
      '/**',
      ' * @example',
      ' *',
      ' * Basic usage:',
      ' *',
      ' * ```javascript',
      ' * const r = new Router();',
      ' * ```',
      ' *',
      ' * With a prefix:',
      ' * ```js',
      " * new Router({ prefix: '/api' })",
      ' * ```',
      ' */',
    ].join('\n'),
    100,
  );
  t.deepEqual(docExamples(doc), [
    { code: 'const r = new Router();', language: 'javascript', caption: 'Basic usage:', line: 106 },
    { code: "new Router({ prefix: '/api' })", language: 'js', caption: 'With a prefix:', line: 111 },
  ]);
});

test('an example caption tag becomes the caption', (t) => {
  const doc = parseDocComment('/**\n * @example <caption>Listening</caption>\n * app.listen(3000)\n */', 0);
  t.deepEqual(docExamples(doc), [{ code: 'app.listen(3000)', language: '', caption: 'Listening', line: 2 }]);
});

test('@internal, @private, @ignore and @api private hide a declaration; @api public does not', (t) => {
  for (const tag of ['@internal', '@private', '@ignore', '@hidden', '@api private', '@access private'])
    t.true(isHiddenDoc(parseDocComment(`/** X.\n * ${tag}\n */`)), tag);
  t.false(isHiddenDoc(parseDocComment('/** X.\n * @api public\n */')));
  t.false(isHiddenDoc(undefined));
});

test('parameter forms: dotted names, optional with defaults, TSDoc dashes, alternatives', (t) => {
  const doc = parseDocComment(
    [
      '/**',
      ' * Sends.',
      ' * @param {Object} opts options',
      ' * @param {boolean} [opts.force=false] - overwrite',
      ' * @param path - the path',
      ' * @param {String|Error} err, msg or status',
      ' * @typeParam T - the payload type',
      ' * @returns {Promise<void>}',
      ' */',
    ].join('\n'),
  );
  t.is(
    renderDocDescription(doc),
    'Sends.\n\nParameters:\n- opts (Object): options\n- opts.force (boolean, optional, default false): overwrite\n- path: the path\n- err, msg or status (String|Error)\n- T: the payload type\n\nReturns: Promise<void>',
  );
});

test('inline link tags become their label or target', (t) => {
  t.is(resolveInlineTags('See {@link Foo}, {@link Bar | the bar}, {@link https://x.dev docs} and {@linkcode baz}.'), 'See Foo, the bar, docs and baz.');
});
