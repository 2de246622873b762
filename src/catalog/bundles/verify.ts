/**
 * Checks a whole bundle without importing it: the header, every line's shape and the
 * trailer's checksum. The CLI runs it on an export as it downloads, so a bundle cut short
 * by the server or the network is reported at once rather than at import time.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BundleError, parseHeader, trailerSchema, type BundleHeader } from './format';
import { readBundleLines } from './read-lines';

export async function verifyBundle(input: Readable, maxBytes = Number.MAX_SAFE_INTEGER): Promise<{ header: BundleHeader; snippets: number }> {
  const hash = createHash('sha256');
  let header: BundleHeader | undefined;
  let lines = 0;
  let snippets = 0;
  let trailer: { lines: number; sha256: string } | undefined;
  for await (const raw of readBundleLines(input, maxBytes)) {
    if (trailer) throw new BundleError('The bundle has data after its last line.');
    if (!header) header = parseHeader(raw.toString('utf8'));
    else if (raw.includes('"type":"end"')) {
      const parsed = trailerSchema.safeParse(JSON.parse(raw.toString('utf8')));
      if (parsed.success) {
        trailer = parsed.data;
        continue;
      }
    } else if (raw.subarray(0, 20).toString().startsWith('{"type":"snippet"')) snippets++;
    hash.update(raw).update('\n');
    lines++;
  }
  if (!header) throw new BundleError('The bundle is empty.');
  if (!trailer) throw new BundleError('The bundle is truncated: its last line (with the checksum) is missing.');
  if (trailer.lines !== lines || trailer.sha256 !== hash.digest('hex')) throw new BundleError('The bundle failed its checksum.');
  return { header, snippets };
}
