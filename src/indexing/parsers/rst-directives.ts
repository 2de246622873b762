/**
 * What to do with a reST/Sphinx directive (also MyST's ```{name} fences): its body is code,
 * prose to keep, an API object to keep with its signature, or something to drop (tables of
 * contents, images, autodoc, includes). Unknown directives keep their body: a tab, card or
 * container holds ordinary content, and losing text is worse than keeping a little noise.
 */
import { SHELL_COMMAND } from './text-utils';

export type DirectiveKind = 'code' | 'highlight' | 'drop' | 'admonition' | 'object' | 'container';

const CODE = new Set(['code-block', 'code', 'sourcecode', 'code-cell', 'testcode', 'doctest', 'jupyter-execute', 'ipython', 'click:example']);
const DROP = new Set([
  'toctree',
  'image',
  'figure',
  'only',
  'include',
  'literalinclude',
  'raw',
  'contents',
  'index',
  'currentmodule',
  'module',
  'testsetup',
  'testcleanup',
  'testoutput',
  'tabularcolumns',
  'meta',
  'sectionauthor',
  'moduleauthor',
  'codeauthor',
  'default-role',
  'role',
  'sectnum',
  'title',
  'target-notes',
  'header',
  'footer',
  'mermaid',
  'math',
  'graphviz',
  'plot',
  'click:run',
  'changelog_imports',
  'rst-class',
  'program',
  'py:module',
  'py:currentmodule',
  'js:module',
  'c:namespace',
  'cpp:namespace',
  'highlightlang',
  'tags',
  'spelling:word-list',
]);
const ADMONITION: Record<string, string> = {
  note: 'Note',
  warning: 'Warning',
  tip: 'Tip',
  important: 'Important',
  hint: 'Hint',
  caution: 'Caution',
  danger: 'Danger',
  attention: 'Attention',
  error: 'Error',
  seealso: 'See also',
  todo: 'To do',
  admonition: '',
  topic: '',
  sidebar: '',
  rubric: '',
  versionadded: 'New in version',
  versionchanged: 'Changed in version',
  deprecated: 'Deprecated since version',
  versionremoved: 'Removed in version',
  legacy: 'Legacy',
};
const OBJECT =
  /^(?:(?:py|js|c|cpp|std|rst|http):)?(function|class|method|attribute|data|exception|decorator|decoratormethod|classmethod|staticmethod|property|envvar|option|cmdoption|describe|object|type|member|var|macro|struct|enum|enumerator|confval|directive|role|get|post|put|patch|delete)$/;

/** Classifies a directive by name (case-insensitive, `py:` and other domain prefixes understood). */
export function classifyDirective(rawName: string): DirectiveKind {
  const name = rawName.toLowerCase();
  if (name === 'highlight') return 'highlight';
  if (CODE.has(name)) return 'code';
  if (DROP.has(name) || name.startsWith('auto') || /^(?:\w+:)?auto/.test(name)) return 'drop';
  if (name in ADMONITION) return 'admonition';
  if (OBJECT.test(name)) return 'object';
  return 'container';
}

/** The language of a code directive when its argument names none. */
export function defaultCodeLanguage(rawName: string, highlight: string, code: string): string {
  const name = rawName.toLowerCase();
  if (name === 'doctest') return 'pycon';
  if (name === 'testcode' || name === 'jupyter-execute' || name === 'ipython' || name === 'click:example') return 'python';
  return highlightLanguage(highlight, code);
}

/**
 * The language Sphinx highlights a block in under `.. highlight::` (or its default): a
 * language named, none for `none`/`text`, and for `default` (also when the page sets nothing)
 * Python 3, falling back to none when the block does not lex as Python (JSON, a session or
 * commands are recognised before: text-utils.ts `sessionLanguage`) — a block that does not read as code at all (a directory tree, a log, shell commands)
 * stays without a language rather than being called Python.
 */
export function highlightLanguage(highlight: string, code: string): string {
  if (highlight !== 'default') return highlight;
  return readsAsPythonCode(code) ? 'python' : '';
}

/** Code that Pygments would lex as Python and that reads as code (not a tree, a log or commands). */
export function readsAsPythonCode(code: string): boolean {
  const text = code.trim();
  return text !== '' && lexesAsPython(text) && readsAsPython(text);
}

/** Something Python code has: a statement keyword, a decorator, an assignment or a call. */
function readsAsPython(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.every((l) => SHELL_COMMAND.test(l.trim()))) return false;
  return /^\s*(?:import|from|def|class|return|if|for|while|with|try|raise|async|await|yield|assert|print)\b|^\s*@\w|[\w\])]\s*=[^=]|\w\(/m.test(text);
}

/**
 * Whether Pygments' Python lexer would read the block without an error token (what makes
 * Sphinx fall back to none): strings closed (triple-quoted ones across lines), and outside
 * strings and comments no `$`, `?`, backtick, lone `!` or non-ASCII symbol.
 */
export function lexesAsPython(code: string): boolean {
  const text = code.replace(/("""|''')[\s\S]*?\1/g, '""');
  if (/"""|'''/.test(text)) return false;
  for (const line of text.split('\n')) {
    let rest = '';
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '#') break;
      if (c === '"' || c === "'") {
        let j = i + 1;
        while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
        if (j >= line.length && !line.endsWith('\\')) return false;
        i = j;
        continue;
      }
      rest += c;
    }
    if (/[$?`]|![^=]|!$/.test(rest) || /[^\p{ASCII}\p{L}\p{N}]/u.test(rest)) return false;
  }
  return true;
}

/**
 * The sentence an admonition or version directive starts with: "New in version 2.0.",
 * "Warning:", or the title of a generic admonition. Empty when there is nothing to say.
 */
export function admonitionLead(rawName: string, argument: string): string {
  const name = rawName.toLowerCase();
  const label = ADMONITION[name] ?? '';
  const arg = argument.trim();
  if (/^(versionadded|versionchanged|deprecated|versionremoved)$/.test(name)) {
    const [version, ...rest] = arg.split(/\s+/);
    const head = version ? `${label} ${version}.` : '';
    return rest.length > 0 ? `${head} ${rest.join(' ')}` : head;
  }
  if (label === '') return arg;
  return arg ? `${label}: ${arg}` : `${label}:`;
}

/** The signature line kept for an API object directive: `Blueprint.register(app, options)`. */
export function objectSignature(rawName: string, argument: string): string {
  const arg = argument.trim();
  if (arg === '') return '';
  const kind = rawName.toLowerCase().replace(/^\w+:/, '');
  // "class", "exception" and "decorator" say what the name is; "function" and "data" add nothing.
  const prefix = kind === 'class' || kind === 'exception' ? `${kind} ` : kind === 'decorator' ? '@' : '';
  return `\`${prefix}${arg}\``;
}
