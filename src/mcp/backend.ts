/**
 * What the MCP tools need from Shelfmark, as an interface with two implementations:
 * in-process use cases for the server's own `/mcp` endpoint (backends/in-process), and an
 * HTTP client of a Shelfmark server's API for the stdio transport (backends/http). The tool
 * definitions (names, schemas, descriptions, text of answers and errors) are written once
 * against this interface.
 *
 * Failures are thrown as `AppError`s carrying the spec's error codes, whichever backend
 * raised them, so the tools turn them into the same guidance text.
 */
import type { CodeRequest } from '../code/code-query';
import type { LibrarySummary } from '../search/types';

export interface LibrarySearchAnswer {
  /** Libraries in rank order (at most ten). */
  libraries: LibrarySummary[];
  /** True when the caller's team policy hid some libraries. */
  searchFilterApplied: boolean;
}

export interface DocsQuery {
  /** A library id as the client sent it (`/org/project`, optionally `/version` or `@version`). */
  libraryId: string;
  query: string;
  /** Token budget, already within the service's bounds. */
  tokens: number;
  /** An overview of the library rather than an answer to `query` (no relevance floors). */
  overview?: boolean;
  /** A version, a semver range or `closest[:<version>]` (the `version` input of Context7's newer clients). */
  version?: string;
  /** A code language whose examples rank first (only those with `languageOnly`). */
  language?: string;
  languageOnly?: boolean;
  /** A project whose pinned version answers when no version is named (default: the session's, then the key's). */
  projectId?: string;
}

export interface AcrossQuery {
  query: string;
  /** Library ids (each optionally with a version); empty: `scope` decides. */
  libraries: string[];
  scope?: 'team' | 'all';
  tokens: number;
  language?: string;
}

export interface UpgradeGuideQuery {
  libraryId: string;
  from: string;
  to?: string;
  page: number;
  tokens: number;
}

/** A question to the code tools (GET /v2/code; code/code-query.ts). */
/** What the code tools take (the use case's own request). */
export type CodeQueryInput = CodeRequest;

export interface DocsBackend {
  /** Ranked libraries for a name; throws `no_libraries_found` when nothing matches. */
  searchLibraries(input: { libraryName: string; query?: string }): Promise<LibrarySearchAnswer>;
  /** The Context7 text form of the best snippets for a question (usage recorded as `mcp`). */
  queryDocs(input: DocsQuery): Promise<string>;
  /** The text form of one question over several libraries (GET /v2/search). */
  searchAcross(input: AcrossQuery): Promise<string>;
  /** The text of one page of an upgrade guide (GET /v2/upgrade-guide). */
  upgradeGuide(input: UpgradeGuideQuery): Promise<string>;
  /** The text answer of one code-tools operation at the library's indexed commit (GET /v2/code). */
  queryCode(input: CodeQueryInput): Promise<string>;
}

/** Where unexpected failures are reported (a pino logger fits). */
export interface ToolLog {
  error(details: object, message: string): void;
}
