/**
 * Near-duplicates across the sources of a merged library (catalog/merged-sources.ts): a page in
 * the repository and the same page on the website are served once, the richer copy kept.
 *
 * Done when serving, not when building: each source is built and refreshed on its own, so a
 * build-time verdict would go stale whenever the other source changes; the comparison is over
 * the few dozen candidates of one question, with the build's word shingles and Jaccard
 * similarity (indexing/snippets/dedupe.ts). Texts are compared as words only (no Markdown punctuation,
 * no link targets), because the website copy went through HTML → Markdown and the repository's
 * did not; the threshold is lower than the build's for the same reason. Only snippets of
 * different sources are compared: a source's own near-copies were judged by its build. Pure.
 */
import { jaccard, normaliseForDedupe, shingleHashes } from '../util/shingles';
import { comparableText } from '../search/copies';
import type { ContextSnippet } from '../search/types';

/** Jaccard similarity of word 3-shingles at or above which copies from two sources are one page. */
export const CROSS_SOURCE_THRESHOLD = 0.6;
/** Shorter texts are only compared exactly. */
const MIN_LENGTH = 80;

type Comparable = Pick<ContextSnippet, 'id' | 'libraryId' | 'title' | 'content' | 'code' | 'description'>;

/** How rich a copy is: code examples first, then length (the copy kept of a duplicate pair). */
export function richness(doc: Comparable): [number, number] {
  const text = doc.content !== '' ? doc.content : doc.code;
  const fences = (text.match(/^\s*(```|~~~)/gm) ?? []).length / 2;
  return [doc.content === '' && doc.code !== '' ? Math.max(1, fences) : fences, text.length];
}

/**
 * The ids of the poorer copies among `docs`: each near-duplicate group across sources keeps its
 * richest member (ties: the earlier one, i.e. the better ranked). Pairwise over kept copies of
 * other sources: a question's pool is ~100 snippets.
 */
export function crossSourceDuplicates(docs: readonly Comparable[]): Set<string> {
  const order = docs.map((doc, i) => ({ doc, i, rich: richness(doc) })).sort((a, b) => b.rich[0] - a.rich[0] || b.rich[1] - a.rich[1] || a.i - b.i);
  const dropped = new Set<string>();
  const kept: Array<{ source: string; exact: string; shingles: Uint32Array }> = [];
  const seen = new Set<string>();
  for (const { doc } of order) {
    if (seen.has(doc.id)) continue;
    seen.add(doc.id);
    const exact = normaliseForDedupe(comparableText(doc));
    const shingles = exact.length >= MIN_LENGTH ? shingleHashes(exact) : new Uint32Array(0);
    const copy = kept.some(
      (k) =>
        k.source !== doc.libraryId &&
        (k.exact === exact ||
          (shingles.length > 0 && k.shingles.length > 0 && jaccard(shingles, k.shingles, CROSS_SOURCE_THRESHOLD) >= CROSS_SOURCE_THRESHOLD)),
    );
    if (copy) dropped.add(doc.id);
    else kept.push({ source: doc.libraryId, exact, shingles });
  }
  return dropped;
}
