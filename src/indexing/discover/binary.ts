/** Binary and encoding checks for repository files: we index UTF-8 text only. */
import { isUtf8 } from 'node:buffer';

/** How much of a file git itself looks at to guess whether it is binary. */
const SNIFF_BYTES = 8192;

/**
 * True when the file is not UTF-8 text: a NUL byte in its first 8 KB (how git guesses;
 * also catches UTF-16) or bytes that are not valid UTF-8 anywhere.
 */
export function looksBinary(buf: Uint8Array): boolean {
  return buf.subarray(0, SNIFF_BYTES).includes(0) || !isUtf8(buf);
}

/** Strict UTF-8 decoding with a leading BOM removed; undefined when the bytes are not UTF-8. */
export function decodeUtf8(buf: Uint8Array): string | undefined {
  if (!isUtf8(buf)) return undefined;
  const text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
