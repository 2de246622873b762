/**
 * Copies among an answer's candidates: one section on two pages (search/answer.ts serves it
 * once). Pure.
 */
import { dot, type RescoredCandidate } from './rescore';
import type { ContextSnippet, ScoredCandidate } from './types';
import { jaccard, normaliseForDedupe, shingleHashes } from '../util/shingles';

interface CopyWords {
  exact: string;
  shingles: Uint32Array;
}
type CopyEvidence = NonNullable<ScoredCandidate['evidence']> & { copyWords?: CopyWords };

/** Jaccard similarity of word 3-shingles at or above which two same-titled sections are one copied (as across a merged library's sources). */
export const COPY_TEXT = 0.6;

/** The words of a snippet as two renderings of it share them: link targets, markup and punctuation gone. */
export function comparableText(doc: Pick<ContextSnippet, 'title' | 'content' | 'code' | 'description'>): string {
  const body = doc.content !== '' ? doc.content : `${doc.description}\n${doc.code}`;
  return `${doc.title}\n${body}`
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[^\p{L}\p{N}_]+/gu, ' ')
    .toLowerCase()
    .trim();
}

/** A page read as a repository's or package's front page (README.md, readme.rst, …). */
const README = /(^|\/)readme(\.[a-z0-9]+)?$/i;

/**
 * A section copied onto another page (a package's README repeating the documentation, a page
 * kept in two folders, a generated page beside its source) is served once: a candidate is left
 * out when a better one on another page has a vector within `copyCosine` of its own, or has
 * the same heading and nearly the same words (word 3-shingles, Jaccard ≥ `COPY_TEXT`: the
 * headings above differ, so the vectors do, as with Svelte's error catalogue generated from
 * its messages folder). When the better one is a README and the copy is not, the
 * documentation's own page takes the README's place (and score). Candidates scoring below
 * `minScore` are kept as they are (exact copies were dropped earlier, by withoutDuplicates).
 */
export function withoutCopies(
  ranked: readonly RescoredCandidate[],
  pool: readonly Pick<ScoredCandidate, 'doc' | 'evidence'>[],
  copyCosine: number,
  minScore = -Infinity,
): RescoredCandidate[] {
  const vectors = new Map<string, Float32Array>();
  const evidence = new Map<string, CopyEvidence>();
  for (const c of pool) {
    if (c.evidence?.vector) vectors.set(c.doc.id, c.evidence.vector);
    if (c.evidence) evidence.set(c.doc.id, c.evidence);
  }
  const words = new Map<string, CopyWords>();
  // Kept with the candidate's evidence (the candidate cache's), like its field lengths: a snippet's words never change.
  const wordsOf = (doc: ContextSnippet): CopyWords => {
    const held = evidence.get(doc.id);
    let w = held?.copyWords ?? words.get(doc.id);
    if (!w) {
      const exact = normaliseForDedupe(comparableText(doc));
      w = { exact, shingles: shingleHashes(exact) };
      if (held) held.copyWords = w;
      else words.set(doc.id, w);
    }
    return w;
  };
  const sameWords = (a: ContextSnippet, b: ContextSnippet) => {
    if (a.title === '' || a.title !== b.title) return false;
    // Sets of very different sizes cannot reach the threshold: no shingles are computed for them.
    if (Math.min(a.tokens, b.tokens) < COPY_TEXT * Math.max(a.tokens, b.tokens)) return false;
    const [x, y] = [wordsOf(a), wordsOf(b)];
    return x.exact === y.exact || (x.shingles.length > 0 && y.shingles.length > 0 && jaccard(x.shingles, y.shingles, COPY_TEXT) >= COPY_TEXT);
  };
  const out: RescoredCandidate[] = [];
  for (const r of ranked) {
    const v = vectors.get(r.doc.id);
    const copyOf =
      r.score >= minScore
        ? out.findIndex((o) => {
            if (o.doc.path === r.doc.path) return false;
            const kept = vectors.get(o.doc.id);
            return (v !== undefined && kept !== undefined && dot(kept, v) >= copyCosine) || sameWords(o.doc, r.doc);
          })
        : -1;
    if (copyOf === -1) {
      out.push(r);
      continue;
    }
    const kept = out[copyOf]!;
    if (README.test(kept.doc.path) && !README.test(r.doc.path)) out[copyOf] = { ...r, score: kept.score };
  }
  return out;
}
