/**
 * Presenters of catalogue results: the Context7 JSON entry of `GET /v2/libs/search`, and
 * the text the MCP tool `resolve-library-id` answers with. Unknown numbers are -1, as in
 * Context7; the text leaves out a snippet count of -1 and an empty version list.
 */
import type { LibrarySummary } from '../types';

export interface LibrarySearchResultJson {
  id: string;
  title: string;
  description: string;
  branch: string;
  lastUpdateDate: string;
  state: string;
  totalTokens: number;
  totalSnippets: number;
  stars: number;
  trustScore: number;
  benchmarkScore: number;
  versions: string[];
  /** Indexed vs latest: the newest version indexed, and the newest release the source had at its last check (null: unknown). */
  latestIndexed?: string;
  sourceLatest?: string | null;
  /** With a project: the version its lockfile pins. */
  pinnedVersion?: string;
  /** The id that matched: a source merged into this library, which serves it now. */
  redirectedFrom?: string;
}

export const LIBRARY_SEPARATOR = '\n----------\n';
export const NO_LIBRARIES_TEXT = 'No documentation libraries found matching your query.';

/** One `results[]` entry of `GET /v2/libs/search`. */
export function presentLibrary(library: LibrarySummary): LibrarySearchResultJson {
  return {
    id: library.id,
    title: library.title,
    description: library.description,
    branch: library.branch,
    lastUpdateDate: library.lastUpdateDate.toISOString(),
    state: library.state,
    totalTokens: library.totalTokens,
    totalSnippets: library.totalSnippets,
    stars: library.stars ?? -1,
    trustScore: library.trustScore ?? -1,
    benchmarkScore: library.benchmarkScore,
    versions: [...library.versions],
    ...(library.latestIndexed !== undefined ? { latestIndexed: library.latestIndexed, sourceLatest: library.sourceLatest ?? null } : {}),
    ...(library.pinnedVersion !== undefined ? { pinnedVersion: library.pinnedVersion } : {}),
    ...(library.redirectedFrom !== undefined ? { redirectedFrom: library.redirectedFrom } : {}),
  };
}

/** High ≥ 7, Medium ≥ 4, Low below; Unknown when there is no trust score. */
export function sourceReputation(trustScore: number | undefined): 'High' | 'Medium' | 'Low' | 'Unknown' {
  if (trustScore === undefined || !Number.isFinite(trustScore) || trustScore < 0) return 'Unknown';
  if (trustScore >= 7) return 'High';
  if (trustScore >= 4) return 'Medium';
  return 'Low';
}

/** One library as the `resolve-library-id` tool lists it. */
export function formatLibraryText(library: LibrarySummary): string {
  const lines = [`- Title: ${library.title}`, `- Context7-compatible library ID: ${library.id}`, `- Description: ${library.description}`];
  if (library.totalSnippets >= 0) lines.push(`- Code Snippets: ${library.totalSnippets}`);
  lines.push(`- Source Reputation: ${sourceReputation(library.trustScore)}`);
  lines.push(`- Benchmark Score: ${Math.round(library.benchmarkScore * 10) / 10}`);
  if (library.versions.length > 0) lines.push(`- Versions: ${library.versions.join(', ')}`);
  if (library.latestIndexed !== undefined) {
    const source = library.sourceLatest
      ? library.sourceLatest.replace(/^v/, '') === library.latestIndexed.replace(/^v/, '')
        ? " (the source's newest release)"
        : `; the source's newest release: ${library.sourceLatest}`
      : '';
    lines.push(`- Latest indexed: ${library.latestIndexed}${source}`);
  }
  if (library.redirectedFrom) lines.push(`- Merged: ${library.redirectedFrom} is now one of this library's sources (use ${library.id})`);
  if (library.pinnedVersion) lines.push(`- Pinned by your project: ${library.pinnedVersion} (query-docs answers at this version unless you name another)`);
  return lines.join('\n');
}

/** The text answer of `resolve-library-id`: the libraries in rank order. */
export function formatResolveLibraryText(libraries: readonly LibrarySummary[]): string {
  return libraries.length === 0 ? NO_LIBRARIES_TEXT : libraries.map(formatLibraryText).join(LIBRARY_SEPARATOR);
}
