/**
 * The earlier parts of long sections an answer holds a later part of (answer.ts serves a
 * section's parts together, its opening part first): the parts below a given number on the
 * given pages of one library version. Pure; the caller keeps the ones of the right section
 * (same title and heading path).
 */
import type { SearchRequestBody } from './context';
import { scopesFilter, type SourceScope } from '../served';

export interface SectionPartsInput {
  libraryId: string;
  version: string;
  generation?: number;
  baseGeneration?: number;
  /** A merged library: the versions of its other sources served with this one (served.ts `scopesFilter`). */
  also?: readonly SourceScope[];
  /** Pages and the highest part wanted on each (exclusive). */
  wanted: { path: string; below: number }[];
}

/** At most this many parts are read (a page has few long sections). */
const MAX_PARTS = 100;

export function buildSectionPartsQuery(input: SectionPartsInput): SearchRequestBody {
  return {
    size: MAX_PARTS,
    track_total_hits: false,
    query: {
      bool: {
        filter: [
          ...scopesFilter(input),
          {
            bool: {
              should: input.wanted.map((w) => ({ bool: { filter: [{ term: { path: w.path } }, { range: { part: { lt: w.below } } }] } })),
              minimum_should_match: 1,
            },
          },
        ],
      },
    },
  };
}
