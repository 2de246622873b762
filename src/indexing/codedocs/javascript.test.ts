/** generateDocs for JavaScript: CommonJS exports, JSDoc types, default exports and scripts. */
import test from 'ava';
import type { ParsedSnippet } from '../types';
import { snippetsFromTypeScript } from './typescript';

const ts = (text: string, path = 'lib/index.js') => snippetsFromTypeScript({ path, text });
const titled = (snippets: ParsedSnippet[], title: string) => snippets.find((s) => s.title === title);
const titles = (snippets: ParsedSnippet[]) => snippets.map((s) => s.title);

test('default exports take the file name, or the folder name for index files', (t) => {
  t.deepEqual(titles(ts('/** Compose middleware. */\nexport default function (stack) { return stack; }\n', 'lib/compose.js')), ['compose()']);
  t.deepEqual(titles(ts('export default class { run() {} }\n', 'packages/queue/src/index.ts')), ['class src']);
  const named = ts('/** Koa app. */\nconst app = () => 1;\nexport default app;\n', 'src/app.ts');
  t.deepEqual(titles(named), ['app()']);
});

test('a script that exports nothing: its documented functions and classes are its API', (t) => {
  const snippets = ts(
    `
/** Shows a toast. */
function showToast(message) {}
function undocumented() {}
/** Documented variable: not a declaration worth a snippet. */
var counter = 0;
/** A widget. */
class Widget {}
`,
    'public/js/ui.js',
  );
  t.deepEqual(titles(snippets), ['showToast()', 'class Widget']);
});

test('CommonJS: module.exports function, class, object members, exports.x and prototype methods', (t) => {
  const fn = ts(
    `
/**
 * Create a server.
 * @param {Object} opts
 * @return {Server}
 */
module.exports = function createServer(opts) {
  return new Server(opts);
};
`,
    'lib/server.js',
  );
  t.deepEqual(titles(fn), ['createServer()']);
  t.is(fn[0].code, 'module.exports = function createServer(opts)');
  t.is(fn[0].language, 'javascript');
  t.is(fn[0].description, 'Create a server.\n\nParameters:\n- opts (Object)\n\nReturns: Server');

  const lib = ts(
    `
'use strict'
/** Module dependencies. */
const util = require('util')

/**
 * Initialize a new \`Router\`.
 * @api public
 */
function Router(opts) {
  this.opts = opts
}

/**
 * Use middleware \`fn\`.
 * @api public
 */
Router.prototype.use = function (fn) {
  return this
}

/**
 * Match a path.
 * @api private
 */
Router.prototype.match = function (path) {}

/** Escape a string. */
exports.escape = function escape (s) { return s }
exports.version = '1.0'
module.exports.Router = Router
`,
    'lib/router.js',
  );
  t.deepEqual(titles(lib), ['Router()', 'Router.use()', 'escape()']);
  t.is(titled(lib, 'Router.use()')?.code, 'Router.prototype.use = function (fn)');
  t.deepEqual(titled(lib, 'Router.use()')?.breadcrumb, ['lib/router', 'Router', 'Router.use()']);

  const proto = ts(
    `
const proto = module.exports = {
  /**
   * Throw an error.
   *
   *    this.throw(403)
   *
   * @api public
   */
  throw (...args) { throw createError(...args) },
  get cookies () { return this._cookies },
  /** @api private */
  onerror (err) {},
  /** Similar to .throw(). */
  assert: httpAssert,
  _hidden () {}
}
`,
    'lib/context.js',
  );
  t.deepEqual(titles(proto), ['context.throw()', 'context.cookies', 'context.assert']);
  t.is(titled(proto, 'context.throw()')?.description, 'Throw an error.\n\n   this.throw(403)');
  t.is(titled(proto, 'context.throw()')?.code, 'throw (...args)');

  const cls = ts(
    '/** The app. */\nmodule.exports = class Application extends Emitter {\n  /** Use `fn`. */\n  use (fn) { return this }\n}\n',
    'lib/application.js',
  );
  t.deepEqual(titles(cls), ['class Application', 'Application.use()']);
});

test('JSDoc in JavaScript: types, optional parameters with defaults and links are rendered plainly', (t) => {
  const [snippet] = ts(
    `
/**
 * Format a {@link Date} as text, see {@linkcode toISO the ISO form}.
 *
 * @param {Date} date - The date
 * @param {string} [locale='en'] - The locale
 * @returns {string} The text
 * @deprecated Use Intl.DateTimeFormat
 */
export function format(date, locale = 'en') {
  return date.toLocaleString(locale);
}
`,
    'src/format.mjs',
  );
  t.is(snippet.language, 'javascript');
  t.is(
    snippet.description,
    "Format a Date as text, see the ISO form.\n\nParameters:\n- date (Date): The date\n- locale (string, optional, default 'en'): The locale\n\nReturns: The text\nDeprecated: Use Intl.DateTimeFormat",
  );
  t.deepEqual(snippet.breadcrumb, ['src/format', 'format()']);
});
