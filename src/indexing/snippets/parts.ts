/**
 * Sections split by size. A long section's prose becomes several info snippets of one
 * title (parsers/sections.ts `chunkProse`); read alone, every part after the first starts
 * mid-section without the sentence that says what the list or paragraph is about (koa's
 * `ctx.cookies.set` options continue in a second part that never names the call). Here,
 * after parsing and before bounds: a small trailing part is merged back into the one before
 * it when both fit the content bound, and every later part opens with the section's lead
 * sentence and says which part it is, so sibling parts are distinguishable and usable alone.
 * (Duplicates, near-identical parts included, are dropped afterwards by dedupe.ts.)
 */
import type { ParsedSnippet } from '../types';
import { SNIPPET_BOUNDS } from './bounds';

/** A part shorter than this (characters) is merged into its predecessor when they fit together. */
export const SMALL_PART = 400;
/** The lead carried into later parts is at most this long. */
const MAX_LEAD = 240;

/** Consecutive info snippets of one file with the same title and breadcrumb: the parts of one section. */
function samePartOf(a: ParsedSnippet, b: ParsedSnippet): boolean {
  return a.kind === 'info' && b.kind === 'info' && a.path === b.path && a.title === b.title && a.breadcrumb.join('\u0000') === b.breadcrumb.join('\u0000');
}

/**
 * The section's lead: its first sentence or line (a line ending in ":" introduces what
 * follows), cut at a word near MAX_LEAD.
 */
export function leadSentence(content: string): string {
  const text = content.trim();
  const firstLine = text.split('\n', 1)[0].trim();
  const sentence = /^(.+?[.!?:])(?:\s|$)/.exec(firstLine)?.[1] ?? firstLine;
  if (sentence.length <= MAX_LEAD) return sentence;
  const cut = sentence.lastIndexOf(' ', MAX_LEAD);
  return `${sentence.slice(0, cut > MAX_LEAD / 2 ? cut : MAX_LEAD)}…`;
}

/** Merges small parts and gives later parts their section's lead; other snippets pass through unchanged, in order. */
export function joinSectionParts(snippets: readonly ParsedSnippet[]): ParsedSnippet[] {
  const out: ParsedSnippet[] = [];
  let i = 0;
  while (i < snippets.length) {
    let j = i + 1;
    while (j < snippets.length && samePartOf(snippets[i], snippets[j])) j++;
    out.push(...(j - i > 1 ? finishParts(snippets.slice(i, j)) : [snippets[i]]));
    i = j;
  }
  return out;
}

function finishParts(parts: readonly ParsedSnippet[]): ParsedSnippet[] {
  const merged: ParsedSnippet[] = [];
  for (const part of parts) {
    const previous = merged[merged.length - 1];
    const joined = previous ? `${previous.content.trimEnd()}\n\n${part.content.trim()}` : '';
    if (previous && (part.content.trim().length < SMALL_PART || previous.content.trim().length < SMALL_PART) && joined.length <= SNIPPET_BOUNDS.content) {
      merged[merged.length - 1] = { ...previous, content: joined };
    } else {
      merged.push(part);
    }
  }
  if (merged.length === 1) return merged;
  const lead = leadSentence(merged[0].content);
  return merged.map((part, k) => (k === 0 ? part : { ...part, content: `${lead} (continued, part ${k + 1} of ${merged.length})\n\n${part.content.trim()}` }));
}
