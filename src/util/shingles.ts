/**
 * Word 3-shingles and their Jaccard similarity: how near two texts are as copies, whatever
 * their markup. The build's duplicate filter (indexing/snippets/dedupe.ts), the tree-copy
 * check of discovery, the cross-source dedupe of merged libraries and the answer's copy check
 * (search/answer.ts) all compare texts this way. Pure.
 */

/** Shingle width in words. */
const SHINGLE = 3;

/** Whitespace- and case-insensitive form of a text. */
export function normaliseForDedupe(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Sorted, unique 32-bit hashes of the word 3-shingles of a normalised text. */
export function shingleHashes(normal: string): Uint32Array {
  const words = normal.split(' ');
  if (words.length < SHINGLE) return new Uint32Array(0);
  const wordHashes = words.map(fnv1a);
  const out = new Uint32Array(words.length - SHINGLE + 1);
  for (let i = 0; i < out.length; i++) {
    let h = Math.imul(wordHashes[i] ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13) ^ wordHashes[i + 1], 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 16) ^ wordHashes[i + 2], 0x27d4eb2f);
    out[i] = (h ^ (h >>> 15)) >>> 0;
  }
  out.sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i];
  return out.subarray(0, n);
}

/** How many values the first `limit` entries of two sorted unique arrays share. */
export function countCommon(a: Uint32Array, b: Uint32Array, limit = Math.max(a.length, b.length)): number {
  const na = Math.min(limit, a.length);
  const nb = Math.min(limit, b.length);
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < na && j < nb) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return common;
}

/** Jaccard similarity of two sorted unique arrays; returns 0 early when the sizes alone rule out `atLeast`. */
export function jaccard(a: Uint32Array, b: Uint32Array, atLeast = 0): number {
  const small = Math.min(a.length, b.length);
  const large = Math.max(a.length, b.length);
  if (large === 0) return 1;
  if (small / large < atLeast) return 0;
  const common = countCommon(a, b);
  return common / (a.length + b.length - common);
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
