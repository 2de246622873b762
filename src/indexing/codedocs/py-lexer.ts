/**
 * Python source as logical lines: one statement header each, however many physical lines its
 * brackets, backslash continuations or triple-quoted strings span. Strings (with any prefix)
 * and comments are skipped while counting brackets, so `def f(a="(", b=':')` is one header
 * whose `:` is the one after the parameters. One pass over the text; never throws.
 */

/** One logical line of Python. */
export interface LogicalLine {
  /** 0-based index of its first physical line. */
  start: number;
  /** 0-based index of its last physical line. */
  end: number;
  /** Indentation of its first line (a tab advances to the next multiple of 8). */
  indent: number;
  /** The whitespace that indents its first line, as written. */
  margin: string;
  /** Its text from the first non-blank character, comments included, physical lines kept. */
  text: string;
  /** Offset in `text` of the first `:` outside brackets and strings (-1 when none). */
  colon: number;
}

const PREFIX_CHARS = 'rRbBuUfFtT';

/** Splits Python source into logical lines; blank and comment-only lines are dropped. */
export function logicalLines(source: string): LogicalLine[] {
  const src = source.replace(/\r\n?/g, '\n');
  const out: LogicalLine[] = [];
  const n = src.length;
  let i = 0;
  let line = 0;
  while (i < n) {
    // At the start of a physical line that begins a statement: measure its indentation.
    let indent = 0;
    const lineStart = i;
    while (i < n && (src[i] === ' ' || src[i] === '\t' || src[i] === '\f')) {
      indent = src[i] === '\t' ? indent + 8 - (indent % 8) : src[i] === ' ' ? indent + 1 : 0;
      i++;
    }
    if (i >= n) break;
    if (src[i] === '\n' || src[i] === '#') {
      while (i < n && src[i] !== '\n') i++;
      i++;
      line++;
      continue;
    }
    const startOffset = i;
    const start = line;
    let depth = 0;
    let colon = -1;
    while (i < n) {
      const c = src[i];
      if (c === '\n') {
        if (depth > 0) {
          line++;
          i++;
          continue;
        }
        break;
      }
      if (c === '#') {
        while (i < n && src[i] !== '\n') i++;
        continue;
      }
      if (c === '\\' && src[i + 1] === '\n') {
        i += 2;
        line++;
        continue;
      }
      if (c === '"' || c === "'") {
        const end = skipString(src, i);
        line += countNewlines(src, i, end);
        i = end;
        continue;
      }
      if (PREFIX_CHARS.includes(c) && (i === 0 || !isWordChar(src[i - 1]))) {
        const quote = stringAfterPrefix(src, i);
        if (quote !== -1) {
          const end = skipString(src, quote);
          line += countNewlines(src, i, end);
          i = end;
          continue;
        }
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
      else if (c === ':' && depth === 0 && colon === -1) colon = i - startOffset;
      i++;
    }
    out.push({ start, end: line, indent, margin: src.slice(lineStart, startOffset), text: src.slice(startOffset, i).replace(/\s+$/, ''), colon });
    i++;
    line++;
  }
  return out;
}

/**
 * The end offset (exclusive) of the string literal whose opening quote is at `at`. A
 * single-quoted string stops at the end of its line even when unterminated, so one bad
 * literal cannot swallow the rest of the file.
 */
export function skipString(src: string, at: number): number {
  const q = src[at];
  const triple = src[at + 1] === q && src[at + 2] === q;
  let i = at + (triple ? 3 : 1);
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') i += 2;
    else if (triple && c === q && src[i + 1] === q && src[i + 2] === q) return i + 3;
    else if (!triple && c === q) return i + 1;
    else if (!triple && c === '\n') return i;
    else i++;
  }
  return src.length;
}

/** The offset of the quote after a string prefix (`rb"`, `f'`) starting at `at`, else -1. */
export function stringAfterPrefix(src: string, at: number): number {
  for (let k = at; k < at + 3 && k < src.length; k++) {
    const c = src[k];
    if (c === '"' || c === "'") return k > at ? k : -1;
    if (!PREFIX_CHARS.includes(c)) return -1;
  }
  return -1;
}

/** The string literal that makes up the statement `text` (a docstring): its body, or undefined. */
export function leadingString(text: string): string | undefined {
  const quoteAt = text[0] === '"' || text[0] === "'" ? 0 : stringAfterPrefix(text, 0);
  if (quoteAt === -1) return undefined;
  const q = text[quoteAt];
  const triple = text.startsWith(q.repeat(3), quoteAt);
  const open = quoteAt + (triple ? 3 : 1);
  const end = skipString(text, quoteAt);
  const closed = triple ? text.startsWith(q.repeat(3), end - 3) && end - 3 >= open : text[end - 1] === q && end - 1 >= open;
  // A docstring is a statement of its own: `"a".join(x)` is an expression, not a docstring.
  const rest = text.slice(end).trim();
  if (rest !== '' && !rest.startsWith('#') && !/^[rRbBuUfF]{0,2}["']/.test(rest) && rest !== ';') return undefined;
  const body = text.slice(open, closed ? end - (triple ? 3 : 1) : end);
  const raw = /[rR]/.test(text.slice(0, quoteAt));
  return raw ? body : body.replace(/\\(["'\\])/g, '$1').replace(/\\\n/g, '');
}

function countNewlines(src: string, from: number, to: number): number {
  let count = 0;
  for (let k = src.indexOf('\n', from); k !== -1 && k < to; k = src.indexOf('\n', k + 1)) count++;
  return count;
}

function isWordChar(c: string): boolean {
  return /\w/.test(c);
}
