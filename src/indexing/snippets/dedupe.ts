/**
 * Duplicate snippets: the same code or prose copied into several pages (install commands,
 * shared examples, a page included in two sections). Exact duplicates are recognised by a hash
 * of the whitespace- and case-normalised text; near-duplicates of long texts by the Jaccard
 * similarity of their word 3-shingles, compared only among snippets that share one of a few
 * minimum shingle hashes, so the work stays roughly linear in the number of snippets.
 */
import { createHash } from 'node:crypto';

export interface DuplicateOptions {
  /** Jaccard similarity of shingle sets at or above which two long texts are duplicates. */
  nearThreshold?: number;
  /** Normalised texts shorter than this are only compared exactly (short snippets differ in a word on purpose). */
  nearMinLength?: number;
}

/** Shingle width in words. */
const SHINGLE = 3;
/** How many minimum hashes key a text into buckets: near-duplicates share at least one with high probability. */
const SKETCH = 4;
/** Size of the bottom-k sketches compared before a full Jaccard computation. */
const PRECHECK = 16;
/** Most recent bucket members compared, so a shingle common to thousands of snippets cannot make it quadratic. */
const BUCKET_SCAN = 32;

/** Whitespace- and case-insensitive form of a text. */
export function normaliseForDedupe(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * A stateful filter: `isDuplicate(group, text)` is true when an earlier accepted text of the
 * same group (e.g. the snippet kind) is the same or nearly the same; otherwise it records the
 * text and returns false. Feed texts in the order of preference (the first one is kept).
 */
export function createDuplicateFilter(options: DuplicateOptions = {}): (group: string, text: string) => boolean {
  const threshold = options.nearThreshold ?? 0.9;
  const minLength = options.nearMinLength ?? 200;
  const exact = new Set<string>();
  const kept: Uint32Array[] = [];
  const bucketsByGroup = new Map<string, Map<number, number[]>>();

  return (group, text) => {
    const normal = normaliseForDedupe(text);
    const key = createHash('sha1').update(group).update('\0').update(normal).digest('base64');
    if (exact.has(key)) return true;
    exact.add(key);
    if (normal.length < minLength) return false;
    const shingles = shingleHashes(normal);
    if (shingles.length === 0) return false;
    let buckets = bucketsByGroup.get(group);
    if (!buckets) bucketsByGroup.set(group, (buckets = new Map()));
    const sketch = shingles.subarray(0, SKETCH);
    let compared: number[] | undefined;
    for (const h of sketch) {
      const members = buckets.get(h);
      if (!members) continue;
      for (let j = members.length - 1; j >= Math.max(0, members.length - BUCKET_SCAN); j--) {
        const other = members[j];
        if (compared?.includes(other)) continue;
        (compared ??= []).push(other);
        if (sketchesAgree(shingles, kept[other]) && jaccard(shingles, kept[other], threshold) >= threshold) return true;
      }
    }
    const index = kept.push(shingles) - 1;
    for (const h of sketch) {
      const members = buckets.get(h);
      if (members) members.push(index);
      else buckets.set(h, [index]);
    }
    return false;
  };
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

/**
 * A cheap pre-check on the 16 smallest hashes of each set (a bottom-k sketch): for sets with
 * Jaccard 0.9, about 14 of them agree, and fewer than 8 is vanishingly unlikely, while texts
 * that merely share boilerplate agree on a few. Only agreeing pairs get the full comparison.
 */
function sketchesAgree(a: Uint32Array, b: Uint32Array): boolean {
  const k = Math.min(PRECHECK, a.length, b.length);
  if (k < PRECHECK) return true;
  return countCommon(a, b, k) * 2 >= k;
}

/** How many values the first `limit` entries of two sorted unique arrays share. */
function countCommon(a: Uint32Array, b: Uint32Array, limit = Math.max(a.length, b.length)): number {
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
