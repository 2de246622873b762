/**
 * The contracts between the search stages: what a context query fetches from the index,
 * what re-ranking hands to budget packing and formatting, and the library record the
 * catalogue ranking and its presenters read.
 */
import type { SnippetDocument } from '../indexing/types';

/** The stored fields a context query returns (`_source`), enough to rank and to render. */
export const CONTEXT_SOURCE_FIELDS = [
  'id', 'kind', 'title', 'description', 'content', 'language', 'code',
  'breadcrumb', 'pageTitle', 'path', 'url', 'startLine', 'tokens',
] as const satisfies ReadonlyArray<keyof SnippetDocument>;

/** One snippet as a context query returns it. */
export type ContextSnippet = Pick<SnippetDocument, (typeof CONTEXT_SOURCE_FIELDS)[number]>;

/** A search hit: the snippet and its Elasticsearch score. */
export interface ScoredCandidate {
  doc: ContextSnippet;
  score: number;
}

/** A snippet in its final rank with its final score (higher is better). */
export interface RankedSnippet {
  doc: ContextSnippet;
  score: number;
}

/** A library as the catalogue ranking and the presenters see it (built from the store). */
export interface LibrarySummary {
  /** `/owner/repo` or `/source/id`. */
  id: string;
  title: string;
  description: string;
  branch: string;
  lastUpdateDate: Date;
  state: string;
  totalTokens: number;
  totalSnippets: number;
  stars?: number;
  /** 0–10; undefined when unknown. */
  trustScore?: number;
  /** 0–100. */
  benchmarkScore: number;
  versions: string[];
  aliases?: string[];
}
