/**
 * Use case "find a library" (`GET /v2/libs/search`, MCP `resolve-library-id`): catalogue
 * ranking by name (exact, alias, fuzzy), then by how well each candidate's content answers
 * the query, then quality; visibility and the caller's policy applied as filters.
 *
 * The catalogue index (search/catalog-index.ts) finds the candidates — the copies the caller
 * may use whose names could match — so a lookup costs the same whatever the catalogue's size;
 * the rules of search/catalog.ts then score those few exactly. Only name matches are answers
 * (else 404 with near names, from a second index query, in the message), and the snippets are
 * asked about content only when several names match and a question is given. Whole answers
 * (404s too) are remembered per caller scope, name and question while the catalogue's
 * generation is unchanged (search/query-cache.ts `FindCaches`).
 */
import type { Principal } from '../auth/principal';
import type { AppliedPolicy } from '../auth/policies';
import type { HotHit } from '../search/client';
import type { CatalogDocument } from '../search/catalog-document';
import type { LibrarySummary } from '../search/types';
import type { SearchRequestBody } from '../search/queries/context';
import { callerTeams } from './access';
import { canSeeLibrary } from '../auth/authorize';
import { NoLibrariesFoundError, ValidationError } from '../errors';
import { preferredCopies } from '../domain/library-keys';
import { matchLibraryNames, rankLibraries, suggestLibraries } from '../search/catalog';
import { summaryOf } from '../search/catalog-document';
import {
  buildLibrariesByNamesQuery,
  buildLibraryNameQuery,
  buildLibrarySuggestQuery,
  CATALOG_HIT_FIELDS,
  catalogFilters,
  type CatalogScope,
} from '../search/queries/catalog';
import { buildLibraryContentQuery, readLibraryContentScores } from '../search/queries/libraries';
import type { FindCaches } from '../search/query-cache';

export interface SearchResult {
  libraries: LibrarySummary[];
  searchFilterApplied: boolean;
}

/** What library search uses: the catalogue index, the snippets (content scores) and policies. */
export interface FindPorts {
  catalogIndex: { search<T>(body: object): Promise<Array<HotHit<T>>>; readonly changeCount?: number };
  snippets: { searchHits<T>(body: SearchRequestBody): Promise<Array<HotHit<T>>> };
  policies: { forPrincipal(principal: Principal): Promise<AppliedPolicy> };
  /** The catalogue's generation, which the remembered answers are keyed by (absent: none are). */
  libraries?: { cachedGeneration(): Promise<string> };
  findCaches?: FindCaches;
}

/** How many libraries a search answers with at most. */
const MAX_RESULTS = 10;
/**
 * Candidates read from the catalogue index: twice the answers. The index returns them in the
 * order of the name rules (queries/catalog.ts scores each rule as nameMatchScore does, quality
 * breaking ties), and content is compared only for the best-named (below), so the answers
 * come from the first few; each candidate read costs (its fetch is most of a lookup's time).
 */
const CANDIDATES = 20;
/**
 * Matches whose content is compared for a question: content reorders matches whose names
 * match alike, and its cost grows with each library asked about, so the best-named ones only.
 */
const CONTENT_CANDIDATES = 10;

type CatalogHit = Pick<CatalogDocument, 'key' | 'private' | 'teamId' | 'source' | 'trustScore' | 'summary' | 'latest'>;

interface Candidate {
  _id: string;
  private: boolean;
  teamId: string | null;
  source: string;
  summary: LibrarySummary;
  latest: CatalogHit['latest'];
}

export async function searchLibraries(ports: FindPorts, principal: Principal, input: { libraryName: string; query?: string }): Promise<SearchResult> {
  const libraryName = input.libraryName.trim();
  if (!libraryName) throw new ValidationError('libraryName is required.', 'libraryName');
  if (libraryName.length > 200) throw new ValidationError('libraryName is too long.', 'libraryName');
  const policy = await ports.policies.forPrincipal(principal);
  const scope: CatalogScope = { teams: callerTeams(principal), ...(policy.filters ? { filters: policy.filters } : {}) };
  const compute = () => findLibraries(ports, principal, policy, scope, libraryName, input.query?.trim());
  if (!ports.findCaches || !ports.libraries) return compute();
  // What decides the answer besides the catalogue: what the caller may see (its kind, role and
  // teams, in order), its team's policy, the name and the question.
  const key = JSON.stringify([seesAll(principal), scope.teams, policy.applied, scope.filters ?? null, libraryName, input.query?.trim() ?? '']);
  // A record write moves the generation before its catalogue document is written (and another
  // instance's document may be written later still): this process's index writes count too.
  const generation = `${await ports.libraries.cachedGeneration()}/${ports.catalogIndex.changeCount ?? 0}`;
  const answer = await ports.findCaches.answers.get(key, generation, () =>
    compute().then(
      (result): RememberedAnswer => ({ result }),
      (error: unknown): RememberedAnswer => {
        // A 404 is an answer too (names are asked again and again); any other error is not kept.
        if (error instanceof NoLibrariesFoundError) return { error };
        throw error;
      },
    ),
  );
  if ('error' in answer) throw answer.error;
  return { ...answer.result, libraries: [...answer.result.libraries] };
}

type RememberedAnswer = { result: SearchResult } | { error: NoLibrariesFoundError };

/** Whether the caller sees every private copy (auth/authorize.ts `canSeeLibrary`). */
function seesAll(principal: Principal): boolean {
  return principal.kind === 'service' || (principal.kind === 'user' && principal.role === 'admin');
}

async function findLibraries(
  ports: FindPorts,
  principal: Principal,
  policy: AppliedPolicy,
  scope: CatalogScope,
  libraryName: string,
  query: string | undefined,
): Promise<SearchResult> {
  const candidates = await usable(ports, principal, policy, scope, buildLibraryNameQuery({ libraryName, size: CANDIDATES, ...scope }));
  const summaries = candidates.map((c) => c.summary);
  const matches = matchLibraryNames(libraryName, summaries);
  if (matches.length === 0) {
    const near = await usable(ports, principal, policy, scope, buildLibrarySuggestQuery({ libraryName, size: CANDIDATES, ...scope }));
    throw new NoLibrariesFoundError(
      libraryName,
      suggestLibraries(
        libraryName,
        near.map((c) => c.summary),
      ),
      await hiddenByPolicy(ports, principal, policy, scope, libraryName),
    );
  }

  // The content score orders libraries whose names match alike; one match needs no search.
  let contentScores: Map<string, number> | undefined;
  if (query && matches.length > 1) {
    const best = rankLibraries({ libraryName, matches }).slice(0, CONTENT_CANDIDATES);
    const matchedIds = new Set(best.map((m) => m.library.id));
    const scored = candidates.filter((c) => matchedIds.has(c.summary.id) && c.latest !== null);
    const generations = scored.map((c) => ({
      libraryId: c._id,
      version: 'latest',
      generation: c.latest?.generation ?? 0,
      baseGeneration: c.latest?.baseGeneration,
    }));
    const body = buildLibraryContentQuery({ libraryIds: scored.map((c) => c._id), query, generations });
    if (body) {
      // Snippets carry the stored key; the ranking reads client ids (one copy each, above).
      const search = () => ports.snippets.searchHits<{ libraryId?: string }>(body);
      const hits = ports.findCaches
        ? ((await ports.findCaches.content.get(JSON.stringify(body), '', search)) as Awaited<ReturnType<typeof search>>)
        : await search();
      const byKey = readLibraryContentScores({ hits: { hits } });
      const idOf = new Map(scored.map((c) => [c._id, c.summary.id]));
      contentScores = new Map([...byKey].flatMap(([key, score]) => (idOf.has(key) ? [[idOf.get(key) as string, score] as const] : [])));
    }
  }
  const ranked = rankLibraries({ libraryName, query, matches, contentScores });
  return { libraries: redirectMergedSources(ranked.map((r) => r.library)).slice(0, MAX_RESULTS), searchFilterApplied: policy.applied };
}

/**
 * A source merged into another library answers as that library, saying which id matched
 * (catalog/merged-sources.ts); each library once, at the rank of its best match. Pure.
 */
export function redirectMergedSources(libraries: readonly LibrarySummary[]): LibrarySummary[] {
  const out: LibrarySummary[] = [];
  const seen = new Set<string>();
  const listed = new Set(libraries.map((l) => l.id));
  for (const library of libraries) {
    const id = library.mergedInto ?? library.id;
    if (seen.has(id)) continue;
    if (library.mergedInto && listed.has(library.mergedInto)) continue;
    seen.add(id);
    out.push(library.mergedInto ? { ...library, id, redirectedFrom: library.id, mergedInto: undefined } : library);
  }
  return out;
}

/**
 * Every built library copy the caller may use, from the catalogue index (at most `size`, most
 * trusted first): the candidates of a search across libraries that names none.
 */
export async function usableCatalogue(
  ports: Pick<FindPorts, 'catalogIndex' | 'policies'>,
  principal: Principal,
  size: number,
): Promise<Array<{ key: string; id: string; latest: CatalogHit['latest'] }>> {
  const policy = await ports.policies.forPrincipal(principal);
  const scope: CatalogScope = { teams: callerTeams(principal), ...(policy.filters ? { filters: policy.filters } : {}) };
  const body = { size, _source: [...CATALOG_HIT_FIELDS], sort: [{ trustScore: 'desc' }, { key: 'asc' }], query: { bool: catalogFilters(scope) } };
  return (await usable(ports, principal, policy, scope, body)).map((c) => ({ key: c._id, id: c.summary.id, latest: c.latest }));
}

/**
 * The library copies the caller may use (visibility and policy as in search) whose normalised
 * names or client ids are among the given ones, at most `size`: a project's mapping candidates.
 */
export async function librariesNamed(
  ports: Pick<FindPorts, 'catalogIndex' | 'policies'>,
  principal: Principal,
  names: { normals: readonly string[]; ids: readonly string[] },
  size = 2000,
): Promise<Array<{ summary: LibrarySummary; source: string }>> {
  const policy = await ports.policies.forPrincipal(principal);
  const scope: CatalogScope = { teams: callerTeams(principal), ...(policy.filters ? { filters: policy.filters } : {}) };
  const found = await usable(ports, principal, policy, scope, buildLibrariesByNamesQuery({ ...names, size, ...scope }));
  return found.map((c) => ({ summary: c.summary, source: c.source }));
}

/**
 * The libraries named `libraryName` the caller may see but its team's policy hides: said as
 * such, since a name the policy hides is not "no match" (one more index query, on a miss only).
 */
async function hiddenByPolicy(ports: FindPorts, principal: Principal, policy: AppliedPolicy, scope: CatalogScope, libraryName: string): Promise<string[]> {
  if (!policy.applied || !scope.filters) return [];
  const unfiltered: CatalogScope = { teams: scope.teams };
  const body = buildLibraryNameQuery({ libraryName, size: CANDIDATES, ...unfiltered });
  if (!body) return [];
  const hits = await ports.catalogIndex.search<CatalogHit>(body);
  const visible = preferredCopies(
    hits.flatMap((h) => (h._source?.summary ? [candidateOf(h._source)] : [])).filter((c) => canSeeLibrary(principal, c)),
    scope.teams,
  );
  const hidden = visible.filter((c) => !policy.allows({ id: c.summary.id, source: c.source, trustScore: c.summary.trustScore ?? 0 }));
  return matchLibraryNames(
    libraryName,
    hidden.map((c) => c.summary),
  ).map((m) => m.library.id);
}

function candidateOf(doc: CatalogHit): Candidate {
  return { _id: doc.key, private: doc.private, teamId: doc.teamId ?? null, source: doc.source, summary: summaryOf(doc), latest: doc.latest ?? null };
}

/**
 * The catalogue's answer to `body`, per client id the copy the caller addresses, kept when it
 * may see and use it: the index filtered already; the same rules again in Node are cheap on a
 * hundred hits and keep one definition authoritative (auth/policy.ts, domain/library-keys.ts).
 */
async function usable(
  ports: Pick<FindPorts, 'catalogIndex'>,
  principal: Principal,
  policy: AppliedPolicy,
  scope: CatalogScope,
  body: object | undefined,
): Promise<Candidate[]> {
  if (!body) return [];
  const hits = await ports.catalogIndex.search<CatalogHit>(body);
  const found = hits.flatMap((h) => (h._source?.summary ? [candidateOf(h._source)] : []));
  const visible = preferredCopies(
    found.filter((c) => canSeeLibrary(principal, c)),
    scope.teams,
  );
  return visible.filter((c) => policy.allows({ id: c.summary.id, source: c.source, trustScore: c.summary.trustScore ?? 0 }));
}
