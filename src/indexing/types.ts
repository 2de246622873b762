/**
 * The contracts of the indexing pipeline. Every parser turns one document into
 * `ParsedSnippet`s; the pipeline adds identity (library, version, generation), URLs and
 * token counts to make `SnippetDocument`s, which is exactly what Elasticsearch stores.
 */

export type SnippetKind = 'code' | 'info';

/** One snippet as a parser produces it: no library identity yet. */
export interface ParsedSnippet {
  kind: SnippetKind;
  /** Code: a short title from the heading path (e.g. "Setting a cookie"). Info: the section heading. */
  title: string;
  /** Heading path from the page title down to the section, e.g. ["Context", "API", "ctx.cookies.set()"]. */
  breadcrumb: string[];
  /** The document's title (front matter title, first H1, or file name). */
  pageTitle: string;
  /** Code: the prose that introduces the code. Info: empty. */
  description: string;
  /** Info: the section's prose (bounded). Code: empty. */
  content: string;
  /** Code: language of the fence ("" when unknown). Info: "". */
  language: string;
  /** Code: the code itself. Info: "". */
  code: string;
  /** Repository-relative path with forward slashes. */
  path: string;
  /** 1-based line in the source file where the snippet starts. */
  startLine: number;
}

/** A document handed to a parser. */
export interface SourceDocument {
  /** Repository-relative path with forward slashes. */
  path: string;
  text: string;
}

/** A parser: one document in, snippets out. Pure; never throws on malformed input. */
export type DocumentParser = (doc: SourceDocument) => ParsedSnippet[];

/** The snippet as stored in Elasticsearch (see search/mappings.ts). */
export interface SnippetDocument extends ParsedSnippet {
  /** Stable id: hash of library, version, path, startLine and content. */
  id: string;
  libraryId: string;
  version: string;
  /**
   * The build this snippet belongs to. A library version is rebuilt as a new generation
   * and switched in one step (MongoDB records the generation being served).
   */
  generation: number;
  /**
   * The generation of the build that replaced this snippet (its file changed or went), absent
   * while it is live: a build writes only changed files' snippets and marks the ones it
   * replaces, so readers of the served generation keep them until the switch (search/served.ts).
   */
  retired?: number | null;
  /** URL of the file at the indexed commit, with a line anchor when known. */
  url: string;
  /** Token count of the rendered snippet (gpt-tokenizer, cl100k/o200k). */
  tokens: number;
  /** Hash of the source file's content, so a refresh can skip unchanged files. */
  fileHash: string;
  /** Analysed text fields (identifier-split, stemmed in Node); see search/analysis.ts. */
  searchTitle: string;
  /** Breadcrumb and page title, analysed. */
  searchBreadcrumb: string;
  searchBody: string;
  searchCode: string;
  /** The words of the path (`docs/api/context.md` → docs api context), analysed. */
  searchPath: string;
  /** Exact identifiers, lowercased and unstemmed: compound forms everywhere, every word of code and title. */
  searchIdentifiers: string;
  /**
   * The snippet's vector from the local embedding model (unit length; see
   * embedding/text.ts for what it is computed from). Absent when embeddings are off. A plain
   * field of the document, so it travels with it (copies, exports).
   */
  embedding?: number[];
}

/** The analysed fields of a snippet not analysed yet (`toIndexedSnippet` fills them in). */
export const UNANALYSED: Pick<SnippetDocument, 'searchTitle' | 'searchBreadcrumb' | 'searchBody' | 'searchCode' | 'searchPath' | 'searchIdentifiers'> = Object.freeze({
  searchTitle: '',
  searchBreadcrumb: '',
  searchBody: '',
  searchCode: '',
  searchPath: '',
  searchIdentifiers: '',
});
