/**
 * Use case "one question over several libraries" (HTTP `GET /v2/search`, the CLI's `ask`, the
 * MCP tool `search-docs`): named libraries (each optionally at a version, resolved as context
 * does: never substituted), or the caller's allowed set (`scope=team`), or the whole catalogue
 * the caller can see (`scope=all`; policies apply either way). Each library is answered by
 * exactly the context answer (retrieval/context.ts `answerInLibrary`: its legs, its own term
 * statistics, the same floors), then the answers are merged: a library's snippets weigh by
 * how its best cosine compares to the best library's (on `across.cosineScale`), the relative
 * floor is applied across libraries, and whole snippets fill one budget. Every snippet is
 * labelled with its library and version; every library asked gets its provenance.
 *
 * For a team's set or the catalogue, the libraries asked in full are chosen first by one
 * collapsed lexical search and one kNN search over all of them (the best `across.maxLibraries`).
 */
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { NoSnippetsFoundError, ValidationError } from '../errors';
import { parseLibraryId } from '../domain/library-ids';
import { usableServedLibrary } from '../catalog/merged-sources';
import { usableCatalogue } from '../catalog/find';
import { clientLibraryId } from '../domain/library-keys';
import type { LibraryRecord } from '../store/models/library';
import { analyzeQuery } from '../search/analysis';
import { DEFAULT_TOKENS, packSnippetsToBudget } from '../search/budget';
import type { AnswerResult } from '../search/answer';
import { buildLibraryContentQuery, readLibraryContentScores } from '../search/queries/libraries';
import { buildLibrariesKnnQuery, readNearestLibraries } from '../search/queries/libraries-knn';
import type { RankedSnippet } from '../search/types';
import { SEARCH_WEIGHTS, type SearchWeights } from '../search/weights';
import { answerInLibrary, languageOf } from './context';
import { chooseVersion, type VersionChoice } from './version-choice';
import { asPinned, pinnedNotIndexed, pinnedVersion, requestProject } from '../projects/project-version';
import { projectFor } from '../projects/projects';
import { provenanceOf, type Provenance } from './provenance';

export type AcrossScope = 'named' | 'team' | 'all';

export interface AcrossRequest {
  query: string;
  /** Library ids, each optionally with a version (`/pydantic/pydantic/2.13.4`); at most 10. */
  libraries?: readonly string[];
  /** Without libraries: `team` (the caller's allowed set) or `all` (the catalogue the caller sees). */
  scope?: 'team' | 'all';
  tokens?: number;
  language?: string;
  languageOnly?: boolean;
  /** A project whose pinned versions answer the libraries named without a version (projects/project-version.ts). */
  projectId?: string;
}

/** A snippet of the merged answer, with the library and version it comes from. */
export interface AcrossSnippet extends RankedSnippet {
  libraryId: string;
  version: string;
}

export interface AcrossAnswer {
  scope: AcrossScope;
  snippets: AcrossSnippet[];
  tokens: number;
  /** Every library asked, in the order of its best snippet, with what it contributed. */
  libraries: Array<{ libraryId: string; provenance: Provenance; snippets: number; relevant: boolean }>;
}

/** At most this many libraries named in one question. */
export const MAX_NAMED_LIBRARIES = 10;

interface Asked {
  library: LibraryRecord;
  provenance: Provenance;
  result: AnswerResult | undefined;
}

/** A library's best evidence that anything in its answer is about the question: its best cosine, else its best coverage. */
function bestEvidence(result: AnswerResult | undefined): number {
  let best = -Infinity;
  for (const r of result?.ranked ?? []) best = Math.max(best, r.cosine ?? r.coverage);
  return best;
}

/**
 * The merged answer (pure): each library's relevant snippets weighed by its evidence against
 * the best library's, the relative floor across all, one budget of whole snippets. Each library
 * that has a relevant answer leads with its best section (its first group) when `leadEach`
 * (libraries named: the caller wants each of them) or when its weight is above zero; the rest
 * follow by weighed score.
 */
export function mergeAnswers(
  asked: ReadonlyArray<{ libraryId: string; version: string; result: AnswerResult | undefined }>,
  budget: number,
  options: { leadEach?: boolean } = {},
  w: SearchWeights = SEARCH_WEIGHTS,
): AcrossSnippet[] {
  const live = asked.filter((a) => a.result && !a.result.nothingRelevant && a.result.snippets.length > 0);
  const top = Math.max(...live.map((a) => bestEvidence(a.result)));
  const leads: Array<AcrossSnippet & { order: number }> = [];
  const rest: Array<AcrossSnippet & { order: number }> = [];
  live.forEach((a, li) => {
    const weight = Math.max(0, 1 - (top - bestEvidence(a.result)) / w.across.cosineScale);
    const snippets = a.result!.snippets;
    // The first group: the first snippet and the parts served with it (they share its score).
    const lead = snippets.findIndex((s) => s.score !== snippets[0]!.score);
    const leadSize = lead === -1 ? snippets.length : lead;
    snippets.forEach((s, i) => {
      const item = { ...s, score: s.score * weight, libraryId: a.libraryId, version: a.version, order: li * 10_000 + i };
      (i < leadSize && (options.leadEach || weight > 0) ? leads : rest).push(item);
    });
  });
  // Groups of parts share a score, so a stable sort keeps them together and in order.
  const byScore = (x: { score: number; order: number }, y: { score: number; order: number }) => y.score - x.score || x.order - y.order;
  leads.sort(byScore);
  rest.sort(byScore);
  const floor = w.answer.relativeFloor * Math.max(leads[0]?.score ?? 0, rest[0]?.score ?? 0);
  const relevant = [...leads, ...rest.filter((s) => s.score > 0 && s.score >= floor)];
  const packed = new Set(packSnippetsToBudget(relevant, budget));
  return relevant.filter((s) => packed.has(s)).map(({ order: _order, ...s }) => s);
}

async function namedLibraries(
  services: Pick<Ports, 'libraries' | 'policies'>,
  principal: Principal,
  ids: readonly string[],
): Promise<Array<{ library: LibraryRecord; fromId?: string }>> {
  if (ids.length > MAX_NAMED_LIBRARIES) throw new ValidationError(`libraries names at most ${MAX_NAMED_LIBRARIES} libraries.`, 'libraries');
  const parsed = ids.map((raw) => parseLibraryId(raw));
  const unique = [...new Map(parsed.map((p) => [`${p.libraryId}@${p.version ?? ''}`, p])).values()];
  // Visibility and policy per library, as context: library_not_found, access_denied.
  // A merged source's id answers as its merged library (catalog/merged-sources.ts), once.
  const named = await Promise.all(
    unique.map(async (p) => ({ library: (await usableServedLibrary(services, principal, p.libraryId)).library, fromId: p.version })),
  );
  return [...new Map(named.map((n) => [`${n.library._id}@${n.fromId ?? ''}`, n])).values()];
}

/** What `likelyLibraries` reaches (ports.ts). */
export type LikelyLibrariesPorts = Pick<Ports, 'catalogIndex' | 'embeddings' | 'libraries' | 'policies' | 'snippets'>;

/** The libraries of a team's allowed set or the catalogue most likely to answer: by content, lexical and semantic. */
async function likelyLibraries(services: LikelyLibrariesPorts, principal: Principal, query: string, scope: 'team' | 'all'): Promise<LibraryRecord[]> {
  if (scope === 'team' && (principal.kind !== 'user' || !principal.defaultTeamId)) {
    throw new ValidationError('scope=team needs a caller in a team (an API key or session); name libraries or use scope=all.', 'scope');
  }
  // The catalogue index holds who may use what: the candidates cost the same whatever the catalogue's size.
  const usable = (await usableCatalogue(services, principal, SEARCH_WEIGHTS.across.maxCandidates)).filter((c) => c.latest !== null && c.latest.generation > 0);
  const max = SEARCH_WEIGHTS.across.maxLibraries;
  // A merged source is searched as part of its merged library (catalog/merged-sources.ts), once.
  const records = async (keys: readonly string[]) => {
    const found = (await Promise.all(keys.map((k) => services.libraries.get(k)))).filter((l): l is LibraryRecord => l !== null);
    const served = await Promise.all(found.map(async (l) => (l.mergedInto ? ((await services.libraries.get(l.mergedInto)) ?? l) : l)));
    return [...new Map(served.map((l) => [l._id, l])).values()];
  };
  if (usable.length <= max) return records(usable.map((c) => c.key));
  const scopes = usable.map((c) => ({ libraryId: c.key, version: 'latest', generation: c.latest?.generation ?? 0, baseGeneration: c.latest?.baseGeneration }));
  const lexicalBody = buildLibraryContentQuery({ libraryIds: usable.map((c) => c.key), query, generations: scopes });
  const embeddings = services.embeddings;
  const [lexical, semantic] = await Promise.all([
    lexicalBody ? services.snippets.searchHits(lexicalBody).then((hits) => readLibraryContentScores({ hits: { hits } })) : new Map<string, number>(),
    embeddings
      ? embeddings.embedQuery(query).then(async (vector) => {
          const body = buildLibrariesKnnQuery({ scopes, vector, size: 40 });
          return body ? readNearestLibraries(await services.snippets.searchHits<{ libraryId: string }>(body)) : new Map<string, number>();
        })
      : new Map<string, number>(),
  ]);
  // Rank by each list's order (a rank fusion): the nearest and the best-matching libraries first.
  const rank = new Map<string, number>();
  for (const list of [lexical, semantic]) {
    [...list.entries()].sort((a, b) => b[1] - a[1]).forEach(([id], i) => rank.set(id, (rank.get(id) ?? 0) + 1 / (10 + i)));
  }
  return records([...rank.keys()].sort((a, b) => (rank.get(b) ?? 0) - (rank.get(a) ?? 0)).slice(0, max));
}

/** What `searchAcrossLibraries` reaches (ports.ts). */
export type SearchAcrossLibrariesPorts = Pick<Ports, 'catalogIndex' | 'embeddings' | 'libraries' | 'policies' | 'projects' | 'snippets'>;

export async function searchAcrossLibraries(services: SearchAcrossLibrariesPorts, principal: Principal, request: AcrossRequest): Promise<AcrossAnswer> {
  const query = request.query.trim();
  if (!query) throw new ValidationError('query is required: the question to find documentation for.', 'query');
  if (query.length > 2000) throw new ValidationError('query is too long (at most 2000 characters).', 'query');
  const budget = request.tokens ?? DEFAULT_TOKENS;
  const language = languageOf(request);
  const named = (request.libraries ?? []).map((l) => l.trim()).filter(Boolean);
  if (named.length > 0 && request.scope) throw new ValidationError('Name libraries or give a scope, not both.', 'scope');
  const scope: AcrossScope = named.length > 0 ? 'named' : (request.scope ?? 'all');
  const targets =
    scope === 'named'
      ? await namedLibraries(services, principal, named)
      : (await likelyLibraries(services, principal, query, scope as 'team' | 'all')).map((library) => ({ library, fromId: undefined }));
  if (targets.length === 0) throw new NoSnippetsFoundError(scope === 'team' ? "your team's allowed libraries" : 'the catalogue');

  const analyzed = analyzeQuery(query);
  const projectId = requestProject(principal, request.projectId);
  const project = projectId === undefined ? undefined : await projectFor(services, principal, projectId, { packages: false });
  const answered = await Promise.all(
    targets.map(async ({ library, fromId }): Promise<Asked | undefined> => {
      const { version, pinned } = project ? pinnedVersion(project, library, fromId, undefined) : { version: undefined, pinned: undefined };
      let choice: VersionChoice | undefined;
      try {
        const chosen = chooseVersion(library, fromId, version);
        choice = chosen && asPinned(chosen, pinned);
      } catch (error) {
        throw pinnedNotIndexed(error, pinned);
      }
      // A library still being indexed has no version to answer from: left out.
      if (!choice) return undefined;
      const result = await answerInLibrary(services, library, choice, { query, analyzed, budget, ...(language ? { language } : {}) });
      return { library, provenance: provenanceOf(library, choice), result };
    }),
  );
  const ready = answered.filter((a): a is Asked => a !== undefined);
  const snippets = mergeAnswers(
    ready.map((a) => ({ libraryId: clientLibraryId(a.library._id), version: a.provenance.versionServed.version, result: a.result })),
    budget,
    { leadEach: scope === 'named' },
  );
  if (snippets.length === 0) {
    const names = ready.map((a) => clientLibraryId(a.library._id)).join(', ');
    throw new NoSnippetsFoundError(names || 'the libraries asked', { query, nearestSections: [] });
  }
  const order = new Map<string, number>();
  snippets.forEach((s, i) => order.set(s.libraryId, Math.min(order.get(s.libraryId) ?? i, i)));
  const libraries = ready
    .map((a) => {
      const id = clientLibraryId(a.library._id);
      return {
        libraryId: id,
        provenance: a.provenance,
        snippets: snippets.filter((s) => s.libraryId === id).length,
        relevant: !!a.result && !a.result.nothingRelevant,
      };
    })
    .sort((a, b) => (order.get(a.libraryId) ?? Infinity) - (order.get(b.libraryId) ?? Infinity));
  return { scope, snippets, tokens: snippets.reduce((n, s) => n + s.doc.tokens, 0), libraries };
}
