import test from 'ava';
import { decodeUtf8, looksBinary } from './binary';

test('text is not binary; NUL bytes and invalid UTF-8 are', (t) => {
  t.false(looksBinary(Buffer.from('# Title\n\nSome text — with “quotes” and 日本語.\n')));
  t.false(looksBinary(Buffer.alloc(0)));
  t.true(looksBinary(Buffer.from([0x23, 0x20, 0x00, 0x41])));
  t.true(looksBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'PNG header');
  t.true(looksBinary(Buffer.from('caf\xe9', 'latin1')), 'Latin-1 is not UTF-8');
  t.true(looksBinary(Buffer.from('\uFEFFhi', 'utf16le')), 'UTF-16 has NULs');
});

test('a NUL after the first 8 KB does not make a file binary, bad UTF-8 anywhere does', (t) => {
  const late = Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0])]);
  t.false(looksBinary(late));
  const badLate = Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0xc3])]);
  t.true(looksBinary(badLate));
});

test('a multi-byte character across the 8 KB boundary is fine', (t) => {
  const text = `${'a'.repeat(8191)}é and more`;
  t.false(looksBinary(Buffer.from(text)));
  t.is(decodeUtf8(Buffer.from(text)), text);
});

test('decodeUtf8 strips a BOM and refuses invalid bytes', (t) => {
  t.is(decodeUtf8(Buffer.from('\uFEFF# Title')), '# Title');
  t.is(decodeUtf8(Buffer.from('plain')), 'plain');
  t.is(decodeUtf8(Buffer.from([0xff, 0xfe, 0x41])), undefined);
  t.is(decodeUtf8(Buffer.from([0xed, 0xa0, 0x80])), undefined, 'encoded surrogates are invalid');
  t.is(decodeUtf8(new Uint8Array(Buffer.from('xhi')).subarray(1)), 'hi', 'views of a larger buffer are decoded by their own bounds');
});
