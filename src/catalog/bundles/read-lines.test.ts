import test from 'ava';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { readBundleLines, BundleTooLargeError } from './read-lines';
import { BundleError } from './format';

async function lines(input: Buffer, maxBytes: number, chunk = 7): Promise<string[]> {
  const pieces: Buffer[] = [];
  for (let i = 0; i < input.length; i += chunk) pieces.push(input.subarray(i, i + chunk));
  const out: string[] = [];
  for await (const line of readBundleLines(Readable.from(pieces), maxBytes)) out.push(line.toString('utf8'));
  return out;
}

test('lines are split as bytes across chunk borders, multi-byte characters intact', async (t) => {
  const text = '{"a":"überall ✓"}\n{"b":2}\n';
  t.deepEqual(await lines(gzipSync(text), 1024, 3), ['{"a":"überall ✓"}', '{"b":2}']);
});

test('more compressed bytes than allowed stop the read without a Content-Length', async (t) => {
  const big = gzipSync(Buffer.from(Array.from({ length: 5000 }, (_, i) => `{"n":${i},"r":"${Math.random()}"}`).join('\n')));
  await t.throwsAsync(lines(big, 1024, 512), { instanceOf: BundleTooLargeError });
});

test('a gzip bomb stops at 40 times the allowed size', async (t) => {
  const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x61)); // about 4 KB compressed
  await t.throwsAsync(lines(bomb, 16 * 1024, 4096), { instanceOf: BundleTooLargeError, message: /expands to more than 655360 bytes/ });
});

test('a truncated stream and a last line without its newline are refused as truncated', async (t) => {
  const whole = gzipSync('{"a":1}\n{"b":2}\n');
  await t.throwsAsync(lines(whole.subarray(0, whole.length - 6), 1024), { instanceOf: BundleError, message: /truncated/ });
  await t.throwsAsync(lines(gzipSync('{"a":1}\n{"b":2}'), 1024), { instanceOf: BundleError, message: /truncated/ });
  await t.throwsAsync(lines(Buffer.from('not gzip at all'), 1024), { instanceOf: BundleError, message: /damaged/ });
});
