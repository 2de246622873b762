/**
 * Reads a bundle stream (gzip-compressed NDJSON) a line at a time, within limits: at most
 * `maxBytes` compressed bytes, `maxBytes × MAX_EXPANSION` uncompressed, and lines of at most
 * MAX_BUNDLE_LINE_BYTES. Lines are split as bytes, so the checksum covers exactly what was
 * sent whatever the text encoding does.
 */
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { BundleError, MAX_BUNDLE_LINE_BYTES, MAX_EXPANSION } from './format';

/** The body was larger than allowed (the route maps it to 413 `payload_too_large`). */
export class BundleTooLargeError extends Error {}

export async function* readBundleLines(input: Readable, maxBytes: number): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  let compressed = 0;
  let tooLarge = false;
  input.on('data', (chunk: Buffer) => {
    compressed += chunk.length;
    if (compressed > maxBytes && !tooLarge) {
      tooLarge = true;
      gunzip.destroy(new BundleTooLargeError(`The bundle is larger than ${maxBytes} bytes (BUNDLE_MAX_BYTES).`));
    }
  });
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);

  let expanded = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      expanded += chunk.length;
      if (expanded > maxBytes * MAX_EXPANSION) throw new BundleTooLargeError(`The bundle expands to more than ${maxBytes * MAX_EXPANSION} bytes.`);
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        const piece = chunk.subarray(start, nl);
        const line = pendingBytes === 0 ? piece : Buffer.concat([...pending, piece]);
        pending = [];
        pendingBytes = 0;
        start = nl + 1;
        yield line;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_BUNDLE_LINE_BYTES) throw new BundleError(`The bundle has a line longer than ${MAX_BUNDLE_LINE_BYTES} bytes.`);
      }
    }
  } catch (error) {
    if (error instanceof BundleError || error instanceof BundleTooLargeError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR' || code === 'ERR_STREAM_PREMATURE_CLOSE')
      throw new BundleError('The bundle is truncated: it ends before its last line. Download or copy it again.');
    if (code === 'Z_DATA_ERROR')
      throw new BundleError(`The bundle is damaged (its gzip data is corrupt: ${(error as Error).message}). Download or copy it again.`);
    if (code === 'ECONNRESET' || code === 'ECONNABORTED') throw new BundleError('The upload was interrupted before the bundle ended.');
    throw error;
  } finally {
    input.unpipe(gunzip);
    gunzip.destroy();
  }
  if (pendingBytes > 0) throw new BundleError('The bundle is truncated: its last line is incomplete.');
}
