/**
 * Use case "documentation context for a question": resolve the library and version (with
 * visibility and policy checks), retrieve candidates from Elasticsearch (the lexical leg,
 * and with embeddings on a kNN leg on the query's vector, fused in Node), re-rank in Node,
 * pack whole snippets into the token budget. Shared by HTTP (json/txt), the legacy v1
 * route and MCP.
 */
import type { Services } from '../services';
import type { Principal } from '../auth/principal';
import { NoSnippetsFoundError, ValidationError } from '../errors';
import { parseLibraryId } from '../domain/library-ids';
import { usableLibrary } from '../catalog/access';
import { resolveVersion } from '../domain/library-keys';
import type { LibraryRecord, LibraryVersionRecord } from '../store/models/library';
import { analyzeQuery, type AnalyzedQuery } from '../search/analysis';
import { buildContextQuery } from '../search/queries/context';
import { buildKnnQuery } from '../search/queries/knn';
import { fuseHybrid } from '../search/fusion';
import { SEARCH_WEIGHTS } from '../search/weights';
import { rerankCandidates } from '../search/ranking';
import { DEFAULT_TOKENS, packSnippetsToBudget } from '../search/budget';
import type { ContextSnippet, RankedSnippet, ScoredCandidate } from '../search/types';

/**
 * Candidates fetched from Elasticsearch before re-ranking, by budget: enough for the budget
 * to fill after duplicates are dropped (snippets average ~150 tokens; the default 5000 asks
 * for 42), at least 20 so re-ranking has a choice, at most 500. When the snippets are
 * smaller than that and the budget is left underfilled, getContext asks once for more.
 */
export function candidatesFor(budget: number): number {
  return Math.min(MAX_CANDIDATES, Math.max(20, Math.ceil(budget / 120)));
}

const MAX_CANDIDATES = 500;

/** True when packed snippets leave more than a tenth of the budget unused. */
export function underfilled(snippets: readonly RankedSnippet[], budget: number): boolean {
  let total = 0;
  for (const s of snippets) total += s.doc.tokens;
  return total < budget * 0.9;
}

export interface ContextRequest {
  libraryId: string;
  query: string;
  tokens?: number;
}

export interface ContextAnswer {
  library: LibraryRecord;
  version: LibraryVersionRecord;
  snippets: RankedSnippet[];
  tokens: number;
  /** The best candidate's search score per analysed query term (usage's low-score questions). */
  scorePerTerm: number;
}

export async function getContext(services: Services, principal: Principal, request: ContextRequest): Promise<ContextAnswer> {
  const { libraryId, version: requested } = parseLibraryId(request.libraryId);
  const query = request.query.trim();
  if (!query) throw new ValidationError('query is required: the question to find documentation for.', 'query');
  if (query.length > 2000) throw new ValidationError('query is too long (at most 2000 characters).', 'query');
  const budget = request.tokens ?? DEFAULT_TOKENS;

  let library = await usableLibrary(services, principal, libraryId);
  const size = candidatesFor(budget);
  const analyzed = analyzeQuery(query);
  let candidates = await searchCandidates(services, library, requested, analyzed, query, size);
  if (candidates === undefined || candidates.length === 0) {
    // A cached library record may name a generation that was just replaced: read it fresh once.
    library = await usableLibrary(services, principal, libraryId, { fresh: true });
    candidates = await searchCandidates(services, library, requested, analyzed, query, size);
  }
  const version = resolveVersion(library, requested);
  if (!version || !candidates || candidates.length === 0) {
    if (!version) throw new NoSnippetsFoundError(`${libraryId} (it is still being indexed)`);
    throw new NoSnippetsFoundError(libraryId);
  }
  let snippets = packSnippetsToBudget(rerankCandidates(candidates, analyzed), budget);
  if (underfilled(snippets, budget) && candidates.length === size && size < MAX_CANDIDATES) {
    // Small snippets: the first candidates ran out before the budget did, and there are more.
    // Ask once for the next ones, up to three times as many in all, and re-rank all of them
    // (rare: the default budget asks for enough candidates of the corpus's usual size).
    const next = await searchCandidates(services, library, requested, analyzed, query, Math.min(MAX_CANDIDATES, size * 3) - size, size);
    if (next && next.length > 0) snippets = packSnippetsToBudget(rerankCandidates(mergeCandidates(candidates, next), analyzed), budget);
  }
  if (snippets.length === 0) throw new NoSnippetsFoundError(libraryId);
  const tokens = snippets.reduce((n, s) => n + s.doc.tokens, 0);
  const top = candidates.reduce((m, c) => Math.max(m, c.score), 0);
  return { library, version, snippets, tokens, scorePerTerm: top / Math.max(1, analyzed.terms.length) };
}

/** A first page of candidates followed by the next, without any the first already holds. */
export function mergeCandidates(first: readonly ScoredCandidate[], next: readonly ScoredCandidate[]): ScoredCandidate[] {
  const ids = new Set(first.map((c) => c.doc.id));
  return [...first, ...next.filter((c) => !ids.has(c.doc.id))];
}

async function searchCandidates(
  services: Services,
  library: LibraryRecord,
  requested: string | undefined,
  analyzed: AnalyzedQuery,
  query: string,
  size: number,
  from = 0,
): Promise<ScoredCandidate[] | undefined> {
  const version = resolveVersion(library, requested);
  if (!version) return undefined;
  const scope = { libraryId: library._id, version: version.version, generation: version.generation, baseGeneration: version.baseGeneration };
  const body = buildContextQuery({ ...scope, query, size, from, analyzed });
  // The semantic leg only for the first page: a next page widens the lexical list for the budget.
  const embeddings = from === 0 ? services.embeddings : undefined;
  if (!embeddings) return services.snippets.searchCandidates(body);
  // Both legs at once: the query is embedded while the lexical search runs.
  const [lexical, semantic] = await Promise.all([
    services.snippets.searchCandidates(body),
    embeddings.embedQuery(query).then((vector) => services.snippets.searchCandidates(buildKnnQuery({ ...scope, vector, size: Math.min(size, SEARCH_WEIGHTS.hybrid.knnHits) }))),
  ]);
  return fuseHybrid(lexical, semantic, SEARCH_WEIGHTS.hybrid, { namesIdentifiers: analyzed.identifiers.length > 0 });
}
