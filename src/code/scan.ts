/**
 * Line search over a kept tree's content (one buffer, files one after the other), like
 * `git grep`: a literal or a regular expression, matched within a line, one hit per line,
 * bounded by a result count, a per-file count and a deadline checked between files. A
 * case-sensitive literal scans the whole buffer with `indexOf` (no decoding); everything
 * else decodes each file once and runs a JavaScript RegExp over it. A pattern that
 * backtracks without end is stopped from outside: the scan runs in a worker thread that is
 * terminated at the deadline (code-workers.ts). Pure apart from the clock.
 */

export interface ScanTree {
  content: Uint8Array;
  /** Each file's byte offset and length in `content`, in path order. */
  offsets: ArrayLike<number>;
  lengths: ArrayLike<number>;
}

export interface ScanRequest {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  /** Only where the match is a whole identifier (references of a symbol). */
  wholeWord: boolean;
  /** Indices of the files to scan (a path filter's result), ascending; undefined: all. */
  files?: number[];
  maxMatches: number;
  maxPerFile: number;
  /** Epoch ms after which no further file is scanned. */
  deadline: number;
}

export interface LineMatch {
  file: number;
  /** 1-based. */
  line: number;
  /** 1-based, in characters of the line. */
  column: number;
  /** The line (at most ~240 characters around the match). */
  text: string;
}

export interface ScanResult {
  matches: LineMatch[];
  filesScanned: number;
  filesMatched: number;
  /** Why the scan stopped before the end: enough results, or the deadline. */
  stoppedBy: 'limit' | 'deadline' | null;
}

const IDENT = 'A-Za-z0-9_$\\u00C0-\\uFFFF';
const MAX_LINE = 240;

/** A JavaScript RegExp for the request (throws SyntaxError on a bad pattern). */
export function compilePattern(req: Pick<ScanRequest, 'pattern' | 'regex' | 'caseSensitive' | 'wholeWord'>): RegExp {
  const body = req.regex ? req.pattern : req.pattern.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const source = req.wholeWord ? `(?<![${IDENT}])(?:${body})(?![${IDENT}])` : body;
  return new RegExp(source, `gm${req.caseSensitive ? '' : 'i'}`);
}

function clip(line: string, column: number): string {
  if (line.length <= MAX_LINE) return line;
  const start = Math.max(0, Math.min(column - 80, line.length - MAX_LINE));
  return `${start > 0 ? '…' : ''}${line.slice(start, start + MAX_LINE)}…`;
}

function lineAt(text: string, index: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const nl = text.indexOf('\n', index);
  return { start, end: nl === -1 ? text.length : nl };
}

export function scanTree(tree: ScanTree, req: ScanRequest): ScanResult {
  const count = tree.offsets.length;
  const order = req.files ?? Array.from({ length: count }, (_, i) => i);
  const result: ScanResult = { matches: [], filesScanned: 0, filesMatched: 0, stoppedBy: null };
  const fast = !req.regex && req.caseSensitive && !req.wholeWord && !req.pattern.includes('\n');
  const needle = fast ? Buffer.from(req.pattern, 'utf8') : undefined;
  const re = fast ? undefined : compilePattern(req);
  const buf = Buffer.from(tree.content.buffer, tree.content.byteOffset, tree.content.byteLength);
  for (const file of order) {
    if (result.matches.length >= req.maxMatches) {
      result.stoppedBy = 'limit';
      break;
    }
    if (Date.now() > req.deadline) {
      result.stoppedBy = 'deadline';
      break;
    }
    result.filesScanned++;
    const from = tree.offsets[file];
    const to = from + tree.lengths[file];
    if (needle && buf.subarray(from, to).indexOf(needle) === -1) continue;
    const text = buf.toString('utf8', from, to);
    const found = needle ? literalLines(text, req.pattern) : regexLines(text, re as RegExp);
    let inFile = 0;
    for (const m of found) {
      if (inFile >= req.maxPerFile || result.matches.length >= req.maxMatches) break;
      result.matches.push({ file, ...m });
      inFile++;
    }
    if (inFile > 0) result.filesMatched++;
  }
  return result;
}

/** Lines holding `needle`, each once, with its line number and column. */
function* literalLines(text: string, needle: string): Generator<Omit<LineMatch, 'file'>> {
  let line = 1;
  let counted = 0;
  let at = text.indexOf(needle);
  while (at !== -1) {
    line += countNewlines(text, counted, at);
    const { start, end } = lineAt(text, at);
    counted = end;
    yield { line, column: at - start + 1, text: clip(text.slice(start, end), at - start) };
    at = text.indexOf(needle, end);
  }
}

/** Lines where `re` (global, multiline) matches, each once. */
function* regexLines(text: string, re: RegExp): Generator<Omit<LineMatch, 'file'>> {
  let line = 1;
  let counted = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    line += countNewlines(text, counted, m.index);
    const { start, end } = lineAt(text, m.index);
    counted = end;
    yield { line, column: m.index - start + 1, text: clip(text.slice(start, end), m.index - start) };
    // One hit per line (an empty match too): go on at the next line.
    re.lastIndex = end + 1;
    if (re.lastIndex > text.length) break;
  }
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
