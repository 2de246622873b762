/**
 * The search side's contracts: the snippet as the index stores it (`SnippetDocument`, which
 * indexing writes), and between the search stages what a context query fetches from the index,
 * what re-ranking hands to budget packing and formatting, and the library record the
 * catalogue ranking and its presenters read.
 */

export type SnippetKind = 'code' | 'info';

/** What a page is (indexing/discover/page-kind.ts decides; ranking and clients read it). */
export const PAGE_KINDS = ['guide', 'reference', 'example', 'errors', 'changelog', 'migration', 'blog', 'internal', 'stub'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/** A snippet's content as a parser produces it (indexing's `ParsedSnippet`): no library identity yet. */
export interface SnippetContent {
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
  /**
   * What the page is (indexing/discover/page-kind.ts): guide, reference, example, errors (a catalogue of error or warning messages), changelog,
   * migration, blog, internal or stub. Absent on snippets indexed before kinds existed (guide).
   */
  pageKind?: PageKind;
  /** The version a changelog or migration page is about ("3", "2.0"), when it names one. */
  pageVersion?: string;
  /** 0 for a section's opening part (or a whole section); k for its k-th later part. */
  part?: number;
}

/**
 * The snippet as stored in Elasticsearch (see search/mappings.ts): the search side's contract,
 * which indexing writes (indexing imports it from here, never the other way round).
 */
export interface SnippetDocument extends SnippetContent {
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
export const UNANALYSED: Pick<SnippetDocument, 'searchTitle' | 'searchBreadcrumb' | 'searchBody' | 'searchCode' | 'searchPath' | 'searchIdentifiers'> =
  Object.freeze({
    searchTitle: '',
    searchBreadcrumb: '',
    searchBody: '',
    searchCode: '',
    searchPath: '',
    searchIdentifiers: '',
  });

/** The stored fields a context query returns (`_source`), enough to rank and to render. */
export const CONTEXT_SOURCE_FIELDS = [
  'id',
  'kind',
  'title',
  'description',
  'content',
  'language',
  'code',
  'breadcrumb',
  'pageTitle',
  'path',
  'url',
  'startLine',
  'tokens',
  'pageKind',
  'pageVersion',
  'part',
  // Which source a candidate came from: a merged library's near-duplicates are removed across sources only.
  'libraryId',
] as const satisfies ReadonlyArray<keyof SnippetDocument>;

/**
 * One snippet as a context query returns it; an answer may merge adjacent parts of one section
 * into one (search/section-parts.ts), which then names the last part it holds.
 */
export type ContextSnippet = Pick<SnippetDocument, (typeof CONTEXT_SOURCE_FIELDS)[number]> & { lastPart?: number };

/** The analysed fields a candidate is re-scored with in Node (search/rescore.ts), as the index stores them. */
export const EVIDENCE_FIELDS = [
  'searchTitle',
  'searchBreadcrumb',
  'searchBody',
  'searchCode',
  'searchPath',
  'searchIdentifiers',
] as const satisfies ReadonlyArray<keyof SnippetDocument>;

/** What re-scoring reads of a candidate besides its content: its analysed text and its vector. */
export interface CandidateEvidence {
  text: Pick<SnippetDocument, (typeof EVIDENCE_FIELDS)[number]>;
  /** The snippet's unit vector (absent when embeddings are off or the snippet has none). */
  vector?: Float32Array;
}

/** A search hit: the snippet, its Elasticsearch score and (for context candidates) its evidence. */
export interface ScoredCandidate {
  doc: ContextSnippet;
  score: number;
  evidence?: CandidateEvidence;
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
  /** The newest indexed version (retrieval/provenance.ts `latestIndexed`), and the newest release its source had at the last check. */
  latestIndexed?: string;
  sourceLatest?: string | null;
  /** With a project (projects/project-version.ts `withPin`): the version its lockfile pins. */
  pinnedVersion?: string;
  /** A source merged into another library (catalog/merged-sources.ts): that library's id. */
  mergedInto?: string;
  /** In a search answer: the id that matched, a source merged into this library. */
  redirectedFrom?: string;
}
