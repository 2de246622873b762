/**
 * Recognises HTML and JSX tags at the start of a Markdown line, including MDX component tags
 * whose attributes span several lines (`items={["a", "b"]}`, template literals, nested
 * braces). Only the tags go: the caller keeps whatever text follows them.
 */

/** Where a run of leading tags ends: the line (offset from the first) and what is left of it. */
export interface LeadingTags {
  /** How many lines after the first the tags reach into (0: all on the first line). */
  extraLines: number;
  /** The text after the last tag on the line where the tags end. */
  rest: string;
}

/** Attributes of a component rarely run longer; past this the `<` is taken as text. */
const MAX_TAG_LINES = 60;
const NAME = /[A-Za-z][\w.:-]*/y;

/**
 * Strips the tags that open `first` (and, for a tag left open at the end of the line, the
 * following lines from `next(k)`). Undefined when the line does not start with a tag.
 */
export function stripLeadingTags(first: string, next: (k: number) => string | undefined): LeadingTags | undefined {
  let text = first;
  let extraLines = 0;
  let pos = skipSpaces(text, 0);
  let found = false;
  while (text[pos] === '<') {
    const end = tagEnd(text, pos, extraLines, next);
    if (!end) break;
    found = true;
    if (end.extraLines !== extraLines) {
      extraLines = end.extraLines;
      text = next(extraLines) ?? '';
    }
    pos = skipSpaces(text, end.col);
  }
  return found ? { extraLines, rest: text.slice(pos) } : undefined;
}

function skipSpaces(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  return i;
}

/** The position just after the tag opening at `text[start]`, possibly on a later line. */
function tagEnd(text: string, start: number, lineOffset: number, next: (k: number) => string | undefined): { extraLines: number; col: number } | undefined {
  let i = start + 1;
  if (text[i] === '/') i++;
  if (text[i] === '>') return { extraLines: lineOffset, col: i + 1 };
  if (text.startsWith('!--', i)) return undefined;
  NAME.lastIndex = i;
  const name = NAME.exec(text);
  if (!name) return undefined;
  i += name[0].length;
  const after = text[i];
  if (after !== undefined && after !== '>' && after !== ' ' && after !== '\t' && !(after === '/' && text[i + 1] === '>')) return undefined;

  let line = text;
  let offset = lineOffset;
  let quote = '';
  let depth = 0;
  for (;;) {
    for (; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === '\\' && depth > 0) i++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === "'" || (c === '`' && depth > 0)) quote = c;
      else if (c === '{') depth++;
      else if (c === '}') depth = Math.max(0, depth - 1);
      else if (c === '>' && depth === 0) return { extraLines: offset, col: i + 1 };
      else if (c === '<' && depth === 0 && /[A-Za-z]/.test(line[i + 1] ?? '')) return undefined;
    }
    offset++;
    const following = offset - lineOffset <= MAX_TAG_LINES ? next(offset) : undefined;
    // An attribute list does not contain blank lines unless inside an expression.
    if (following === undefined || (depth === 0 && !quote && following.trim() === '')) return undefined;
    line = following;
    i = 0;
  }
}
