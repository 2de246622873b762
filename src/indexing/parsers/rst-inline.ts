/**
 * Inline reStructuredText made readable: roles, hyperlink references, substitutions,
 * footnote references, emphasis and escapes. ``literals`` become Markdown inline code so
 * every format's prose reads the same way.
 */

/**
 * Roles naming code objects render as inline code, as Sphinx renders them; the others
 * (:ref:, :doc:, :term:, :pep:...) as their plain text.
 */
const CODE_ROLES = new Set([
  'func',
  'meth',
  'class',
  'attr',
  'exc',
  'data',
  'obj',
  'mod',
  'const',
  'option',
  'envvar',
  'program',
  'command',
  'file',
  'samp',
  'member',
  'type',
  'var',
  'macro',
  'struct',
  'enum',
  'enumerator',
  'code',
  'literal',
  'paramref',
  'kbd',
]);

/**
 * The text of a role: `text <target>` → text, `~a.b.C` → C, `!x` → x. Shared by reST
 * (:role:`x`) and MyST Markdown ({role}`x`).
 */
export function renderRole(role: string, content: string): string {
  const name = role.includes(':') ? role.slice(role.lastIndexOf(':') + 1) : role;
  const labelled = /^([^<]*?)\s*<([^<>]*)>$/.exec(content.trim());
  let text = labelled ? labelled[1] || labelled[2] : content.trim();
  if (!labelled) {
    text = text.replace(/^!/, '');
    if (text.startsWith('~')) text = text.slice(1).split('.').pop() ?? text;
    else if (text.startsWith('.')) text = text.slice(1);
    // Some projects (SQLAlchemy) write `_engine.Engine` for "Engine, found via a module alias".
    else if (/^_[A-Za-z]\w*\.[A-Za-z]/.test(text)) text = text.slice(text.indexOf('.') + 1);
  }
  text = text.replace(/\\(.)/g, '$1');
  if (text === '') return '';
  return CODE_ROLES.has(name.toLowerCase()) && !labelled ? `\`${text}\`` : text;
}

const ROLE = /:((?:[A-Za-z][\w.+-]*:)*[A-Za-z][\w.+-]*):`([^`]*)`/g;
const REFERENCE = /`([^`]+)`__?(?![\w])/g;
const INTERPRETED = /`([^`]+)`/g;
const FOOTNOTE_REF = /\s?\[(?:#[\w-]*|\*|\d+|[A-Za-z][\w.-]*)\]_(?!\w)/g;
const SUBSTITUTION = /(^|[\s(])\|([\w][\w .-]{0,60}?)\|(?=[\s.,;:)]|$)/g;
const NAMED_REFERENCE = /\b([A-Za-z][\w-]*)_(?=[\s.,;:)]|$)/g;
const STRONG = /\*\*(?=\S)([^*\n]*?\S)\*\*/g;
const EMPHASIS = /(^|[^\w*\\])\*(?=[^\s*])([^*\n]*?[^\s*\\])\*(?![\w*])/g;

/** reST prose for reading: markup removed, ``literals`` as `code`. */
export function cleanRstInline(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('``', i);
    if (open < 0) break;
    const close = text.indexOf('``', open + 2);
    if (close < 0) break;
    out += cleanMarkup(text.slice(i, open));
    const literal = text.slice(open + 2, close);
    out += literal.trim() === '' ? literal : `\`${literal}\``;
    i = close + 2;
  }
  out += cleanMarkup(text.slice(i));
  return out.replace(/(?<=\S)[ \t]{2,}/g, ' ').trim();
}

/** A section title as plain text: markup and backticks removed. */
export function cleanRstTitle(text: string): string {
  return cleanRstInline(text).replace(/`/g, '').replace(/\s+/g, ' ').trim();
}

function cleanMarkup(s: string): string {
  if (s === '') return s;
  return s
    .replace(ROLE, (_m, role: string, content: string) => renderRole(role, content))
    .replace(REFERENCE, (_m, content: string) => {
      const labelled = /^([^<]*?)\s*<([^<>]*)>$/.exec(content);
      return labelled ? labelled[1] || labelled[2] : content;
    })
    .replace(INTERPRETED, (_m, content: string) => (/^\s|\s$/.test(content) ? _m : `\`${content}\``))
    .replace(FOOTNOTE_REF, '')
    .replace(SUBSTITUTION, '$1$2')
    .replace(NAMED_REFERENCE, '$1')
    .replace(STRONG, '$1')
    .replace(EMPHASIS, '$1$2')
    .replace(/\\ /g, '')
    .replace(/\\([^\w\s])/g, '$1');
}
