/**
 * The Source port: where a library version's documents come from. A source opens a
 * snapshot of one version (a Git commit, a crawl of a website, an llms.txt, an uploaded
 * archive, an uploaded OpenAPI specification) that lists its documents with a content hash
 * and reads them through {@link CommitFiles}; the generic build (pipeline/build.ts) does
 * the rest — reuse of unchanged documents, parsing, finishing, publishing — the same way for
 * every source.
 * Whatever only one source needs (clone, ref resolution, tags, the repo config, code docs,
 * the version rule; a crawl's report) stays inside that source.
 */
import type { JobContext } from '../jobs/worker';
import type { CommitFiles } from '../pipeline/commit-files';
import type { RepoConfig } from '../discover/config';
import type { ParsedSnippet } from '../types';
import type { LibraryRecord } from '../../store/models/library';

/** One document of a version: its doc path (for a web page, derived from its URL) and content hash. */
export interface ListedDocument {
  path: string;
  /** A content hash (a blob id, a sha256): equal hashes mean the previous snippets still hold. */
  hash: string;
  /**
   * The text cannot be read in this build, only reused (a web page that answered 304 Not
   * Modified): the build reuses its previous snippets and never reads it.
   */
  reuseOnly?: boolean;
}

/** One version of a library's documents, as a source found them for a build. */
export interface SourceSnapshot {
  /** What was built: a commit sha, or a digest of the document hashes. */
  revision: string;
  /** The tag or branch built (empty when the source has none). */
  ref: string;
  /** Other names (tags) addressing this version. */
  tags: string[];
  /** The documents to parse, in build order (already selected). */
  documents: ListedDocument[];
  /** Read access to the documents and any other file of the version (includes, configs). */
  files: CommitFiles;
  /** The repository's switches (shelfmark.json), when the source has one. */
  config?: RepoConfig;
  /**
   * Parses a document itself, when its documents are not prose the parsers read (an OpenAPI
   * specification): the build then neither expands includes in it nor judges its language.
   */
  parse?(page: { path: string; text: string }): Promise<ParsedSnippet[]>;
  /** Where a snippet's source line can be seen. */
  fileUrl(path: string, line: number): string;
  /** The library's title, description and branch when building latest (from its README's). */
  meta(described: { title?: string; description?: string }): Partial<Pick<LibraryRecord, 'title' | 'description' | 'branch'>>;
  /** Why there are no snippets (the no_snippets_found message). */
  emptyMessage: string;
  /** Snippets generated beside the documents (a Git repo's code docs), given the docs' code snippet count. */
  supplement?(ctx: JobContext, codeSnippets: number): Promise<{ snippets: ParsedSnippet[]; files: ListedDocument[] }>;
  /** After the build (published, or nothing changed): queue more versions, apply rules. */
  after?(ctx: JobContext): Promise<void>;
  /** Frees what opening took (a clone's directory, a fetcher's connections). */
  close(): void | Promise<void>;
}

/** A source of documents (one per job, built from its params). */
export interface DocumentSource {
  open(ctx: JobContext): Promise<SourceSnapshot>;
  /**
   * A refresh's cheap look before opening: true when the served version is current (a Git
   * remote whose ref still points at the served commit), and the job ends with nothing
   * written, having done whatever a check does without a build (the version rule).
   */
  upToDate?(ctx: JobContext): Promise<boolean>;
}
