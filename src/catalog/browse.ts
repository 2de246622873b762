/**
 * Use case "browse a library's snippets" (the library page's snippet browser): the copy the
 * caller addresses and may use (visibility, then the team's policy, as context does), one of
 * its versions, and a page of its served snippets with facets (search/queries/browse.ts).
 */
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { usableLibrary } from './access';
import { clientLibraryId, resolveVersion } from '../store/libraries';
import { buildBrowseQuery, readBrowseFacets, type BrowseFacets, type BrowsedSnippet } from '../search/queries/browse';
import { presentedSourceUrl } from '../util/source-url';

export interface BrowseRequest {
  libraryId: string;
  teamId?: string;
  version?: string;
  q?: string;
  kind?: 'code' | 'info';
  page?: string;
  pageKind?: string;
  from: number;
  size: number;
}

export interface BrowseResult {
  libraryId: string;
  version: string;
  total: number;
  from: number;
  size: number;
  snippets: BrowsedSnippet[];
  facets: BrowseFacets;
}

export async function browseSnippets(
  services: Pick<Ports, 'libraries' | 'policies' | 'snippets'>,
  principal: Principal,
  input: BrowseRequest,
): Promise<BrowseResult> {
  const lib = await usableLibrary(services, principal, input.libraryId, { fresh: true, teamId: input.teamId });
  const version = resolveVersion(lib, input.version === 'latest' ? undefined : input.version);
  if (!version)
    return {
      libraryId: clientLibraryId(lib._id),
      version: input.version ?? 'latest',
      total: 0,
      from: input.from,
      size: input.size,
      snippets: [],
      facets: { kinds: [], pages: [], pageKinds: [] },
    };
  const body = buildBrowseQuery({
    scope: { libraryId: lib._id, version: version.version, generation: version.generation, baseGeneration: version.baseGeneration },
    q: input.q,
    kind: input.kind,
    path: input.page,
    pageKind: input.pageKind,
    from: input.from,
    size: input.size,
  });
  const res = await services.snippets.search<BrowsedSnippet>(body);
  const total = typeof res.hits.total === 'number' ? res.hits.total : (res.hits.total?.value ?? 0);
  return {
    libraryId: clientLibraryId(lib._id),
    version: version.version,
    total,
    from: input.from,
    size: input.size,
    // Field by field: a snippet of a repository on this server's disk names its file, not the path.
    snippets: res.hits.hits.flatMap((h) => (h._source ? [presentSnippet(h._source)] : [])),
    facets: readBrowseFacets(res.aggregations as Record<string, unknown> | undefined),
  };
}

function presentSnippet(s: BrowsedSnippet): BrowsedSnippet {
  return {
    id: s.id,
    kind: s.kind,
    title: s.title,
    breadcrumb: s.breadcrumb,
    pageTitle: s.pageTitle,
    description: s.description,
    content: s.content,
    language: s.language,
    code: s.code,
    path: s.path,
    startLine: s.startLine,
    url: presentedSourceUrl(s),
    tokens: s.tokens,
    ...(s.pageKind ? { pageKind: s.pageKind } : {}),
  };
}
