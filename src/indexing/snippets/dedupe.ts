/**
 * Duplicate snippets: the same code or prose copied into several pages (install commands,
 * shared examples, a page included in two sections). Exact duplicates are recognised by a hash
 * of the whitespace- and case-normalised text; near-duplicates of long texts by the Jaccard
 * similarity of their word 3-shingles, compared only among snippets that share one of a few
 * minimum shingle hashes, so the work stays roughly linear in the number of snippets.
 */
import { createHash } from 'node:crypto';
import { countCommon, jaccard, normaliseForDedupe, shingleHashes } from '../../util/shingles';

export interface DuplicateOptions {
  /** Jaccard similarity of shingle sets at or above which two long texts are duplicates. */
  nearThreshold?: number;
  /** Normalised texts shorter than this are only compared exactly (short snippets differ in a word on purpose). */
  nearMinLength?: number;
}

/** How many minimum hashes key a text into buckets: near-duplicates share at least one with high probability. */
const SKETCH = 4;
/** Size of the bottom-k sketches compared before a full Jaccard computation. */
const PRECHECK = 16;
/** Most recent bucket members compared, so a shingle common to thousands of snippets cannot make it quadratic. */
const BUCKET_SCAN = 32;

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
