/**
 * Inline Markdown made readable: link text without URLs, no images, HTML/JSX tags, MDX
 * comments, attribute lists or emphasis markers, entities decoded. Inline code spans are
 * copied untouched, so `<div>` or `a*b*c` inside backticks survive. A single forward scan
 * with bounded look-ahead: no regular expression here can backtrack across a document.
 */

import { indexInline, runLength, type InlineIndex } from './markdown-spans';
import { renderRole } from './rst-inline';
import { renderShortcodes } from './shortcodes';

interface Segment {
  code: boolean;
  text: string;
}

/** How far a link's brackets or parentheses may reach; beyond that they are literal text. */
const MAX_LINK_SPAN = 2000;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  reg: '®',
  trade: '™',
  rarr: '→',
  larr: '←',
  lbrace: '{',
  rbrace: '}',
  lsqb: '[',
  rsqb: ']',
  vert: '|',
  num: '#',
  bull: '•',
  middot: '·',
  times: '×',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  emsp: ' ',
  ensp: ' ',
  thinsp: ' ',
  zwj: '',
  zwnj: '',
  shy: '',
};

const TAG = /<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*)?\/?>|<\/?>/y;
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[\w.+-]+@[\w-]+\.[\w.-]+)>/y;
const ENTITY = /&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/y;
const ATTRIBUTE_LIST = /\{:?[ \t]*[.#][^{}\n]{0,200}\}/y;
/** JSX whitespace and string literals between tags: `{' '}`, `{" "}`, `{"\n"}`, `{'text'}`. */
const JSX_STRING = /\{[ \t]*(?:'([^'\n{}]{0,200})'|"([^"\n{}]{0,200})"|`([^`\n{}$]{0,200})`)[ \t]*\}/y;
const SPECIAL = /[`\\![\]<{&]/g;
/** MyST roles: {func}`name`, {ref}`text <target>`. */
const MYST_ROLE = /\{([A-Za-z][\w:.+-]*)\}(?=`)/y;

/** Prose for reading and search: markup removed, inline code kept with its backticks. */
export function cleanMarkdownProse(text: string): string {
  if (!PLAIN_NEEDS_WORK.test(text)) return text.trim();
  const joined = scan(text)
    .map((s) => (s.code ? s.text : stripEmphasis(s.text).replace(/(?<=\S)[ \t]{2,}/g, ' ')))
    .join('');
  return joined.includes('\n')
    ? joined
        .split('\n')
        .map((l) => l.trimEnd())
        .join('\n')
        .trim()
    : joined.trim();
}

/** A heading as a title: markup, anchors ({#id}, {/*id*\/}) and backticks removed. */
export function cleanHeadingText(text: string): string {
  return scan(stripBracketAnchor(stripHeadingAnchor(text)))
    .map((s) => (s.code ? s.text.replace(/^`+ ?| ?`+$/g, '') : stripEmphasis(s.text)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `Title {#id}`, `Title { #id }`, `Title {/*id*\/}`, `Title {: .class}` → `Title`. */
function stripHeadingAnchor(text: string): string {
  const t = text.trimEnd();
  if (!t.endsWith('}')) return t;
  const open = t.lastIndexOf('{');
  if (open < 0) return t;
  const tail = t.slice(open);
  return /^\{(\s*#[\w.:-]*\s*|\/\*.*\*\/|:?\s*[.#][^{}]*)\}$/.test(tail) ? t.slice(0, open).trimEnd() : t;
}

/** Fumadocs' `Title [#custom-id]`. */
function stripBracketAnchor(text: string): string {
  const t = text.trimEnd();
  if (!t.endsWith(']')) return t;
  const open = t.lastIndexOf('[#');
  return open > 0 && /^\[#[\w.:-]+\]$/.test(t.slice(open)) ? t.slice(0, open).trimEnd() : t;
}

/** Text without any of these characters (or runs of spaces, or trailing spaces) is already clean. */
const PLAIN_NEEDS_WORK = /[`\\![\]<{&*_~]|[ \t]{2}|[ \t]\n|:[a-z0-9_+-]+:/;

/** Splits text into code spans and cleaned non-code text. */
function scan(text: string): Segment[] {
  const out = new Segments();
  const index = indexInline(text);
  // Where a link's label ends → where the whole link ends; the label itself is scanned in place.
  const jumps = new Map<number, number>();
  let commentClose = -2;
  let i = 0;
  while (i < text.length) {
    SPECIAL.lastIndex = i;
    const m = SPECIAL.exec(text);
    if (!m) {
      out.text(text.slice(i));
      break;
    }
    out.text(text.slice(i, m.index));
    i = m.index;
    const c = text[i];
    if (c === '`') {
      const end = index.codeEnd.get(i);
      if (end !== undefined) {
        out.code(text.slice(i, end));
        i = end;
      } else {
        const run = runLength(text, i, '`');
        out.text(text.slice(i, i + run));
        i += run;
      }
    } else if (c === '\\') {
      const next = text[i + 1] ?? '';
      const escapable = /[!-/:-@[-`{-~]/.test(next);
      out.text(escapable ? next : '\\');
      i += escapable ? 2 : 1;
    } else if (c === ']') {
      const end = jumps.get(i);
      if (end === undefined) out.text(']');
      i = end ?? i + 1;
    } else if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      const open = c === '!' ? i + 1 : i;
      const link = linkAt(text, open, index);
      if (!link) {
        out.text(c);
        i += 1;
      } else if (c === '!' || text[open + 1] === '^') {
        // Images and footnote references carry nothing a reader of the snippet can use.
        i = link.end;
      } else {
        jumps.set(link.labelEnd, link.end);
        i = open + 1;
      }
    } else if (c === '!') {
      out.text('!');
      i += 1;
    } else if (c === '<') {
      i = skipAngle(text, i, out);
    } else if (c === '{') {
      MYST_ROLE.lastIndex = i;
      const role = MYST_ROLE.exec(text);
      const end = role ? index.codeEnd.get(i + role[0].length) : undefined;
      if (role && end !== undefined) {
        const rendered = renderRole(role[1], text.slice(i + role[0].length, end).replace(/^`+|`+$/g, ''));
        if (rendered.startsWith('`')) out.code(rendered);
        else out.text(rendered);
        i = end;
        continue;
      }
      if (text.startsWith('{/*', i)) {
        // MDX comment; remember a missing closer so `{/*{/*{/*...` stays linear.
        if (commentClose !== -1 && commentClose < i) commentClose = text.indexOf('*/}', i);
        if (commentClose >= 0) {
          i = commentClose + 3;
          continue;
        }
      }
      JSX_STRING.lastIndex = i;
      const jsx = JSX_STRING.exec(text);
      if (jsx) {
        // `word{' '}<Link>` renders one space; the literal's text is what readers see.
        const value = (jsx[1] ?? jsx[2] ?? jsx[3] ?? '').replace(/\\n/g, ' ');
        out.text(value.trim() === '' ? ' ' : value);
        i += jsx[0].length;
        continue;
      }
      ATTRIBUTE_LIST.lastIndex = i;
      const a = ATTRIBUTE_LIST.exec(text);
      if (a) i += a[0].length;
      else {
        out.text('{');
        i += 1;
      }
    } else {
      ENTITY.lastIndex = i;
      const e = ENTITY.exec(text);
      if (e) {
        out.text(decodeEntity(e[1]) ?? e[0]);
        i += e[0].length;
      } else {
        out.text('&');
        i += 1;
      }
    }
  }
  return out.finish();
}

/** Code spans and text in order; consecutive text is merged. */
class Segments {
  private readonly list: Segment[] = [];
  private buffer = '';

  text(s: string): void {
    this.buffer += s;
  }

  code(s: string): void {
    this.flush();
    this.list.push({ code: true, text: s });
  }

  finish(): Segment[] {
    this.flush();
    return this.list;
  }

  private flush(): void {
    if (this.buffer !== '') this.list.push({ code: false, text: this.buffer });
    this.buffer = '';
  }
}

/** HTML comments, tags and autolinks at `i`; returns the index after what was consumed. */
function skipAngle(text: string, i: number, out: Segments): number {
  if (text.startsWith('<!--', i)) {
    const end = text.indexOf('-->', i + 4);
    return end < 0 ? text.length : end + 3;
  }
  AUTOLINK.lastIndex = i;
  const auto = AUTOLINK.exec(text);
  if (auto) {
    out.text(auto[1]);
    return i + auto[0].length;
  }
  TAG.lastIndex = i;
  const tag = TAG.exec(text);
  if (tag) return i + tag[0].length;
  out.text('<');
  return i + 1;
}

/** `[label](url)`, `[label][ref]`, `[label][]`, `[^note]` at `open`; undefined when it is not a link. */
function linkAt(text: string, open: number, index: InlineIndex): { labelEnd: number; end: number } | undefined {
  const labelEnd = index.close.get(open);
  if (labelEnd === undefined || labelEnd - open > MAX_LINK_SPAN) return undefined;
  const after = text[labelEnd + 1];
  if (after === '(' || after === '[') {
    const end = index.close.get(labelEnd + 1);
    return end === undefined || end - labelEnd > MAX_LINK_SPAN ? undefined : { labelEnd, end: end + 1 };
  }
  if (/^\[\^[\w-]+\]$/.test(text.slice(open, labelEnd + 1))) return { labelEnd, end: labelEnd + 1 };
  return undefined;
}

function decodeEntity(name: string): string | undefined {
  if (name.startsWith('#')) {
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : undefined;
  }
  return ENTITIES[name.toLowerCase()];
}

const STAR_EMPHASIS = /(^|[^\w*\\])(\*{1,3})(?=[^\s*])([^*\n]*?[^\s*\\])\2(?![\w*])/g;
const UNDERSCORE_EMPHASIS = /(^|[^\w\\])(_{1,3})(?=[^\s_])([^_\n]*?[^\s_\\])\2(?!\w)/g;

/** `*a*`, `**a**`, `_a_`, `~~a~~` → a, leaving lone markers (`*args`, `2 * 3`, `__init__`) alone; shortcodes rendered. */
function stripEmphasis(text: string): string {
  const s = renderShortcodes(text);
  if (!/[*_~]/.test(s)) return s;
  let out = s;
  // Nested emphasis (`**a *b* c**`) unwraps from the inside out, one level per pass.
  for (let pass = 0; pass < 3; pass++) {
    const next = out.replace(STAR_EMPHASIS, '$1$3').replace(UNDERSCORE_EMPHASIS, '$1$3');
    if (next === out) break;
    out = next;
  }
  return out.replace(/~~(?=\S)([^~\n]*?\S)~~/g, '$1');
}
