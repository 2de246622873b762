/** Binary and encoding checks for repository files. */

/** True when the buffer has a NUL byte in its first 8 KB (how git itself guesses). */
export function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Strict UTF-8 decoding with the BOM removed; undefined when the bytes are not UTF-8. */
export function decodeUtf8(buf: Buffer): string | undefined {
  try {
    const text = decoder.decode(buf);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    return undefined;
  }
}
