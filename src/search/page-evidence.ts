/**
 * What the pages of an answer's candidates say about them, for answer.ts: a page's
 * introduction beside a section of its own page, a lone hit (the only candidate of its page),
 * and a page whose sections would fill the answer. Pure.
 */
import type { RankedSnippet, ScoredCandidate } from './types';

/** Whether a snippet is a page's introduction: the text before its first heading (no heading below the page's title). */
export function isPageIntro(doc: Pick<RankedSnippet['doc'], 'breadcrumb'>): boolean {
  return doc.breadcrumb.length <= 1;
}

/** The pages the pool holds a section of (a snippet below one of the page's headings). */
export function pagesWithSections(pool: readonly Pick<ScoredCandidate, 'doc'>[]): Set<string> {
  const pages = new Set<string>();
  for (const c of pool) if (!isPageIntro(c.doc)) pages.add(c.doc.path);
  return pages;
}

/**
 * The candidates that passed the floors, less the lone hits: a snippet that is the only one of
 * its page among them (nothing else on its page answers) stays only if it scores `loneMin`;
 * the best one always stays.
 */
export function withPageSupport<T extends { doc: { path: string }; score: number }>(passed: readonly T[], loneMin: number): T[] {
  const perPage = new Map<string, number>();
  for (const r of passed) perPage.set(r.doc.path, (perPage.get(r.doc.path) ?? 0) + 1);
  return passed.filter((r, i) => i === 0 || (perPage.get(r.doc.path) ?? 0) > 1 || r.score >= loneMin);
}

/**
 * An answer is not a page copied out: the candidates of one page beyond the first `from` (in
 * rank order) each need the floor (`floorOf`) raised by `step` more than the one before; the
 * best candidate always stays.
 */
export function withPageRepeats<T extends { doc: { path: string }; score: number }>(
  passed: readonly T[],
  floorOf: (r: T) => number,
  from: number,
  step: number,
): T[] {
  const seen = new Map<string, number>();
  return passed.filter((r, i) => {
    const earlier = seen.get(r.doc.path) ?? 0;
    seen.set(r.doc.path, earlier + 1);
    return i === 0 || earlier < from || r.score >= floorOf(r) * (1 + step * (earlier - from + 1));
  });
}
