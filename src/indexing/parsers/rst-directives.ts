/**
 * What to do with a reST/Sphinx directive (also MyST's ```{name} fences): its body is code,
 * prose to keep, an API object to keep with its signature, or something to drop (tables of
 * contents, images, autodoc, includes). Unknown directives keep their body: a tab, card or
 * container holds ordinary content, and losing text is worse than keeping a little noise.
 */
import { readsAsPythonCode } from './python-code';

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
 * Python 3, falling back to none when the block does not lex as Python (python-code.ts). A
 * session, JSON or commands are recognised before this (text-utils.ts `sessionLanguage`).
 */
export function highlightLanguage(highlight: string, code: string): string {
  if (highlight !== 'default') return highlight;
  return readsAsPythonCode(code) ? 'python' : '';
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

/** What replaces a Markdown admonition's marker line (markdown-unwrap.ts): `text` ("" for nothing) and whether it starts the body's first paragraph. */
export interface MarkerLine {
  text: string;
  joins: boolean;
}

/**
 * Admonition types that change how their text is to be used, read as Sphinx renders them
 * (`admonitionLead`); a note or a tip says nothing its text does not.
 */
const LABELS: Record<string, string> = {
  warning: 'Warning',
  caution: 'Caution',
  attention: 'Attention',
  danger: 'Danger',
  error: 'Error',
};
const VERSIONS: Record<string, { directive: string; alone: string }> = {
  'version-added': { directive: 'versionadded', alone: 'New:' },
  versionadded: { directive: 'versionadded', alone: 'New:' },
  'version-changed': { directive: 'versionchanged', alone: 'Changed:' },
  versionchanged: { directive: 'versionchanged', alone: 'Changed:' },
  'version-removed': { directive: 'versionremoved', alone: 'Removed:' },
  deprecated: { directive: 'deprecated', alone: 'Deprecated:' },
};

/**
 * The line a Markdown admonition (`!!!`, `///`, `:::`, a GitHub alert) of `type` titled `title` starts with, as the reST parser renders
 * Sphinx's: a warning, a deprecation or a version change says so ("Warning: …", "Deprecated
 * since version 2.0. …", "New in version 2.13. …"), its body's first paragraph following on
 * the same line; the title of a warning is its own paragraph ("Warning: Careful"). Other
 * types (a note, a tip, `details`, a site's own) keep their title alone.
 */
export function markerLead(type: string, title: string | undefined): MarkerLine {
  const name = type.toLowerCase();
  const t = title ?? '';
  const version = VERSIONS[name];
  if (version) {
    const number = t.replace(/^v(?=\d)/i, '');
    return { text: number ? admonitionLead(version.directive, number) : version.alone, joins: true };
  }
  const label = LABELS[name];
  if (!label) return { text: t, joins: false };
  return t ? { text: `${label}: ${t}`, joins: false } : { text: `${label}:`, joins: true };
}
