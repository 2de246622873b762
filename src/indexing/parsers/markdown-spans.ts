/**
 * Where inline code spans start and end and which bracket closes which, found in one linear
 * pass so the inline cleaner never searches ahead from every `[` or backtick.
 */

/** Where code spans end and which bracket closes which, computed once per text. */
export interface InlineIndex {
  /** Start of a code span → index just after it. */
  codeEnd: Map<number, number>;
  /** Index of a `[` or `(` → index of its matching `]` or `)`. */
  close: Map<number, number>;
}

/** Shared by texts without code spans or brackets; never written to. */
const EMPTY_INDEX: InlineIndex = { codeEnd: new Map(), close: new Map() };

/**
 * One linear pass: backtick runs pair with the next run of the same length (CommonMark's
 * rule), then brackets and parentheses outside code spans pair by stack. Scanning for a
 * closer from every `[` instead would be quadratic on text like `[[[[...`.
 */
export function indexInline(text: string): InlineIndex {
  if (!text.includes('`') && !text.includes('[')) return EMPTY_INDEX;
  const runs: { start: number; length: number }[] = [];
  for (let i = text.indexOf('`'); i >= 0; i = text.indexOf('`', i)) {
    const length = runLength(text, i, '`');
    runs.push({ start: i, length });
    i += length;
  }
  const nextSame: number[] = new Array<number>(runs.length).fill(-1);
  const lastByLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    nextSame[r] = lastByLength.get(runs[r].length) ?? -1;
    lastByLength.set(runs[r].length, r);
  }
  const codeEnd = new Map<number, number>();
  for (let r = 0; r < runs.length; ) {
    const c = nextSame[r];
    if (c < 0) {
      r++;
      continue;
    }
    codeEnd.set(runs[r].start, runs[c].start + runs[c].length);
    r = c + 1;
  }
  const close = new Map<number, number>();
  const brackets: number[] = [];
  const parens: number[] = [];
  const special = /[`\\[\]()]/g;
  for (let m = special.exec(text); m; m = special.exec(text)) {
    const i = m.index;
    const c = text[i];
    if (c === '`') special.lastIndex = codeEnd.get(i) ?? i + runLength(text, i, '`');
    else if (c === '\\') special.lastIndex = i + 2;
    else if (c === '[') brackets.push(i);
    else if (c === '(') parens.push(i);
    else {
      const open = (c === ']' ? brackets : parens).pop();
      if (open !== undefined) close.set(open, i);
    }
  }
  return { codeEnd, close };
}

/** Length of the run of `ch` starting at `i`. */
export function runLength(text: string, i: number, ch: string): number {
  let n = 0;
  while (text[i + n] === ch) n++;
  return n;
}

/** End (exclusive) of the code span opening at `i`, or 0 when the backticks are unmatched. */
export function codeSpanEnd(text: string, i: number): number {
  const n = runLength(text, i, '`');
  let from = i + n;
  for (;;) {
    const j = text.indexOf('`', from);
    if (j < 0) return 0;
    const m = runLength(text, j, '`');
    if (m === n) return j + m;
    from = j + m;
  }
}
