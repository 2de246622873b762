import test from 'ava';
import { compilePattern, scanTree, type ScanRequest, type ScanTree } from './scan';

function treeOf(files: string[]): ScanTree {
  const bufs = files.map((f) => Buffer.from(f, 'utf8'));
  const offsets: number[] = [];
  let at = 0;
  for (const b of bufs) {
    offsets.push(at);
    at += b.length;
  }
  return { content: Buffer.concat(bufs), offsets, lengths: bufs.map((b) => b.length) };
}

const req = (over: Partial<ScanRequest>): ScanRequest => ({
  pattern: '',
  regex: false,
  caseSensitive: true,
  wholeWord: false,
  maxMatches: 100,
  maxPerFile: 100,
  deadline: Date.now() + 10_000,
  ...over,
});

const tree = treeOf([
  'const a = createServer();\n// createServer again\nnothing here\n',
  'é 😀 createServer(x) // unicode before the match\n',
  'function createServerless() {}\nlet CREATESERVER = 1;\n',
]);

test('a case-sensitive literal finds each line once, with file, line and column (the indexOf path)', (t) => {
  const r = scanTree(tree, req({ pattern: 'createServer' }));
  t.deepEqual(
    r.matches.map((m) => [m.file, m.line, m.column]),
    [
      [0, 1, 11],
      [0, 2, 4],
      [1, 1, 6],
      [2, 1, 10],
    ],
  );
  t.is(r.matches[2].text, 'é 😀 createServer(x) // unicode before the match');
  t.is(r.filesScanned, 3);
  t.is(r.filesMatched, 3);
  t.is(r.stoppedBy, null);
});

test('case-insensitive and whole-word searches take the RegExp path', (t) => {
  t.is(scanTree(tree, req({ pattern: 'createserver', caseSensitive: false })).matches.length, 5);
  const whole = scanTree(tree, req({ pattern: 'createServer', wholeWord: true }));
  t.deepEqual(
    whole.matches.map((m) => [m.file, m.line]),
    [
      [0, 1],
      [0, 2],
      [1, 1],
    ],
    'createServerless is another identifier',
  );
});

test('a regex matches within a line; a literal is never read as a pattern', (t) => {
  const r = scanTree(tree, req({ pattern: '^let \\w+ =', regex: true }));
  t.deepEqual(
    r.matches.map((m) => [m.file, m.line, m.text]),
    [[2, 2, 'let CREATESERVER = 1;']],
  );
  t.is(scanTree(tree, req({ pattern: 'a = c(' })).matches.length, 0);
  t.is(scanTree(treeOf(['x = f(a[0]);\n']), req({ pattern: 'f(a[0])', caseSensitive: false })).matches.length, 1, 'special characters are escaped');
  t.throws(() => compilePattern({ pattern: '(unclosed', regex: true, caseSensitive: true, wholeWord: false }), { instanceOf: SyntaxError });
});

test('an empty match counts each line once and the scan ends', (t) => {
  const r = scanTree(treeOf(['a\nb\nc']), req({ pattern: '^', regex: true }));
  t.deepEqual(
    r.matches.map((m) => m.line),
    [1, 2, 3],
  );
});

test('bounds: results, per file, a file subset, and the deadline', (t) => {
  t.is(scanTree(tree, req({ pattern: 'createServer', maxMatches: 2 })).stoppedBy, 'limit');
  t.is(scanTree(tree, req({ pattern: 'createServer', maxMatches: 2 })).matches.length, 2);
  t.deepEqual(
    scanTree(tree, req({ pattern: 'createServer', maxPerFile: 1 })).matches.map((m) => m.file),
    [0, 1, 2],
  );
  t.deepEqual(
    scanTree(tree, req({ pattern: 'createServer', files: [2] })).matches.map((m) => m.file),
    [2],
  );
  const late = scanTree(tree, req({ pattern: 'createServer', deadline: Date.now() - 1 }));
  t.is(late.stoppedBy, 'deadline');
  t.is(late.filesScanned, 0);
});

test('a long line is clipped around the match', (t) => {
  const line = `${'x'.repeat(1000)} needle ${'y'.repeat(1000)}`;
  const [m] = scanTree(treeOf([line]), req({ pattern: 'needle' })).matches;
  t.true(m.text.length < 260);
  t.true(m.text.includes('needle'));
  t.is(m.column, 1002);
});
