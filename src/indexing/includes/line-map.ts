/**
 * Lines of an expanded page back to the lines of the page as written. Include expansion
 * replaces each directive by the text it names, so a snippet's start line, counted in the
 * expanded text, would point below its place in the file (its source link one directive's
 * worth of lines too far for every include above it). The two texts are aligned line by
 * line (jsdiff's Myers diff, bounded): a line of the page keeps its own number, a line that
 * came from an included file takes the number of the directive it replaced. Whatever the
 * convention (Sphinx, MyST, MkDocs snippets, FastAPI, mdBook, AsciiDoc, autodoc), no
 * expander has to keep a map of its own.
 */
import { diffArrays } from 'diff';

/** Past this many inserted or removed lines the alignment is given up (line numbers stay as expanded). */
const MAX_EDIT_LENGTH = 20_000;
/** Nor does an alignment take longer than this (ms): indexing a page, not a diff tool. */
const TIMEOUT_MS = 500;

/**
 * A function from a 1-based line of `expanded` to the 1-based line of `original` it stands
 * for; the identity when the texts are the same or too far apart to align.
 */
export function originalLineOf(original: string, expanded: string): (line: number) => number {
  if (original === expanded) return (line) => line;
  const a = original.split('\n').map((l) => l.trimEnd());
  const b = expanded.split('\n').map((l) => l.trimEnd());
  const page = new Set(a);
  // Blank lines apart first (each include's block then stands at its own directive, even when
  // the page lists them one after another); when that takes too long (very long included
  // text with many paragraphs), blank lines inside included text go with it.
  let { tokens, spans } = collapsed(b, page, false);
  let changes = diffArrays(a, tokens, { maxEditLength: MAX_EDIT_LENGTH, timeout: TIMEOUT_MS / 2 });
  if (!changes) {
    ({ tokens, spans } = collapsed(b, page, true));
    changes = diffArrays(a, tokens, { maxEditLength: MAX_EDIT_LENGTH, timeout: TIMEOUT_MS });
  }
  if (!changes) return (line) => line;
  const map = new Int32Array(b.length);
  const put = (k: number, at: number) => {
    for (const j of spans[k]!) map[j] = at;
  };
  let i = 0; // next line of the original
  let k = 0; // next token of the expanded text
  // The directive an insertion replaces: the first line of the removed run before it. Blank
  // lines the diff pairs inside an included block (with the page's blank line after the
  // directive) do not end it, so the whole block stands at its directive.
  let directive = -1;
  for (const change of changes) {
    if (change.removed) {
      directive = i;
      i += change.count;
    } else if (change.added) {
      const at = directive >= 0 ? directive : Math.min(i, a.length - 1);
      for (let n = 0; n < change.count; n++) put(k++, at);
    } else {
      for (let n = 0; n < change.count; n++) {
        if (a[i] !== '') directive = -1;
        put(k++, directive >= 0 ? directive : i);
        i++;
      }
    }
  }
  return (line) => map[Math.min(Math.max(line, 1), b.length) - 1]! + 1;
}

/**
 * The expanded lines with each run of lines the page does not hold (included text, and with
 * `blanksInside` the blank lines inside it too) as one token, so that the diff's cost grows with the number of includes rather
 * than with their length; `spans` lists the expanded lines each token stands for.
 */
function collapsed(b: readonly string[], page: ReadonlySet<string>, blanksInside: boolean): { tokens: string[]; spans: number[][] } {
  const tokens: string[] = [];
  const spans: number[][] = [];
  const foreign = (j: number) => b[j] !== '' && !page.has(b[j]!);
  let run: number[] | undefined;
  for (let j = 0; j < b.length; j++) {
    let inRun = foreign(j);
    if (blanksInside && !inRun && run && b[j] === '') {
      // A blank line stays in the run when included text goes on after it.
      let next = j + 1;
      while (next < b.length && b[next] === '') next++;
      inRun = next < b.length && foreign(next);
    }
    if (inRun) {
      if (!run) {
        run = [];
        tokens.push(`\u0000${tokens.length}`);
        spans.push(run);
      }
      run.push(j);
      continue;
    }
    run = undefined;
    tokens.push(b[j]!);
    spans.push([j]);
  }
  return { tokens, spans };
}
