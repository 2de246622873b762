import test from 'ava';
import { leadingString, logicalLines } from './py-lexer';

test('brackets, strings and continuations join physical lines into one logical line', (t) => {
  const lines = logicalLines('x = (1,\n     2)\ny = "a(" + \'b[\'\nz = 1 + \\\n    2\n# comment\n\n    \ndef f(a=")", b: str = "x:y") -> int:\n    return 1\n');
  t.deepEqual(
    lines.map((l) => [l.start, l.end, l.indent]),
    [
      [0, 1, 0],
      [2, 2, 0],
      [3, 4, 0],
      [8, 8, 0],
      [9, 9, 4],
    ],
  );
  const def = lines[3];
  t.is(def.text.slice(0, def.colon + 1), 'def f(a=")", b: str = "x:y") -> int:');
});

test('triple-quoted strings span lines; their quotes and brackets do not count', (t) => {
  const lines = logicalLines('def f():\n    """Doc with ( and \'\'\' and \\""" inside\n    second line ) ]\n    """\n    return 1\n');
  t.deepEqual(
    lines.map((l) => [l.start, l.end]),
    [
      [0, 0],
      [1, 3],
      [4, 4],
    ],
  );
});

test('string prefixes (r, b, f, rb, Rb) are recognised, identifiers ending in those letters are not', (t) => {
  const lines = logicalLines('a = rb"(" ; b = f\'{x}(\'\nbar = br"x" + ur\nc = 1\n');
  t.is(lines.length, 3);
  t.is(lines[2].text, 'c = 1');
});

test('an unterminated single-quoted string ends at its line; tabs indent to multiples of 8', (t) => {
  const lines = logicalLines('x = "open\ny = 2\n\tz = 3\n  \tw = 4\n');
  t.deepEqual(
    lines.map((l) => [l.text, l.indent, l.margin]),
    [
      ['x = "open', 0, ''],
      ['y = 2', 0, ''],
      ['z = 3', 8, '\t'],
      ['w = 4', 8, '  \t'],
    ],
  );
});

test('leadingString reads a docstring literal with any prefix and refuses expressions', (t) => {
  t.is(leadingString('"""Doc."""'), 'Doc.');
  t.is(leadingString("r'''Raw \\d.'''"), 'Raw \\d.');
  t.is(leadingString('"Say \\"hi\\"."'), 'Say "hi".');
  t.is(leadingString('"""Unclosed'), 'Unclosed');
  t.is(leadingString('"a".join(x)'), undefined);
  t.is(leadingString('x = "a"'), undefined);
  t.is(leadingString('"one" "two"'), 'one');
});
