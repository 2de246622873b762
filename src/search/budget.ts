/**
 * The token budget of a context answer: whole snippets only, in rank order, never more
 * than asked. The route validates `tokens` against these bounds.
 */
import type { RankedSnippet } from './types';

export const DEFAULT_TOKENS = 5000;
export const MIN_TOKENS = 100;
export const MAX_TOKENS = 100_000;

/** Tokens of the separator between two snippets in the text format (a line of dashes and blank lines). */
export const SEPARATOR_TOKENS = 4;

/**
 * Keeps snippets in rank order while the running total (each snippet's `tokens` plus a
 * separator before every snippet but the first) stays within `budget`. A snippet that does
 * not fit is skipped and packing goes on with later, smaller ones; the order never changes.
 */
export function packSnippetsToBudget(ranked: readonly RankedSnippet[], budget: number): RankedSnippet[] {
  const packed: RankedSnippet[] = [];
  let total = 0;
  for (const snippet of ranked) {
    const cost = Math.max(0, snippet.doc.tokens) + (packed.length > 0 ? SEPARATOR_TOKENS : 0);
    if (total + cost > budget) continue;
    packed.push(snippet);
    total += cost;
  }
  return packed;
}
