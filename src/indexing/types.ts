/**
 * The contracts of the indexing pipeline. Every parser turns one document into
 * `ParsedSnippet`s; the pipeline adds identity (library, version, generation), URLs and
 * token counts to make `SnippetDocument`s — the search side's contract (search/types.ts),
 * which is exactly what Elasticsearch stores.
 */
import type { SnippetContent } from '../search/types';

export type { SnippetKind } from '../search/types';

/** One snippet as a parser produces it: no library identity yet (the content fields of search/types.ts). */
export type ParsedSnippet = SnippetContent;

/** A document handed to a parser. */
export interface SourceDocument {
  /** Repository-relative path with forward slashes. */
  path: string;
  text: string;
}

/** A parser: one document in, snippets out. Pure; never throws on malformed input. */
export type DocumentParser = (doc: SourceDocument) => ParsedSnippet[];
