/**
 * Use case "documentation context for a question": resolve the library and version (with
 * visibility and policy checks), gather the candidate pool from Elasticsearch (the lexical
 * leg and, with embeddings on, the kNN leg on the question's vector, with every candidate's
 * analysed text and vector) and the library's own term statistics, all at once; then the
 * answer (search/answer.ts): re-scored, cut where relevance falls off, within the budget as a
 * ceiling, or 404 no_snippets_found naming the nearest sections when nothing is relevant.
 * Shared by HTTP (json/txt), the legacy v1 route and MCP.
 */
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { NoSnippetsFoundError, ValidationError } from '../errors';
import { parseLibraryId } from '../domain/library-ids';
import { sourceScopes, usableServedLibrary } from '../catalog/merged-sources';
import type { SourceScope } from '../search/served';
import { crossSourceDuplicates } from './merged-dedupe';
import { clientLibraryId, resolveVersion } from '../domain/library-keys';
import type { LibraryRecord, LibraryVersionRecord } from '../store/models/library';
import { analyzeQuery, type AnalyzedQuery } from '../search/analysis';
import { buildContextQuery } from '../search/queries/context';
import { buildKnnQuery } from '../search/queries/knn';
import { answerFromLegs, type AnswerInput, type AnswerResult } from '../search/answer';
import { isPartOf, missingParts } from '../search/section-parts';
import { SEARCH_WEIGHTS } from '../search/weights';
import { DEFAULT_TOKENS } from '../search/budget';
import type { RankedSnippet, ScoredCandidate } from '../search/types';
import { normaliseLanguage } from '../search/code-language';
import { chooseVersion, type VersionChoice } from './version-choice';
import { provenanceOf, type Provenance } from './provenance';
import { asPinned, pinnedNotIndexed, requestProject, versionFromProject } from '../projects/project-version';

/**
 * Lexical candidates fetched for the pool, by budget: the answer's weights ask for 30 (the
 * default budget 32), a large budget for more (a snippet is ~150–600 tokens), at most 500.
 */
export function candidatesFor(budget: number): number {
  return Math.min(MAX_CANDIDATES, Math.max(SEARCH_WEIGHTS.answer.lexicalHits, Math.ceil(budget / 160)));
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
  /** An overview rather than an answer (get-library-docs without a topic): no relevance floors. */
  overview?: boolean;
  /** The `version` input: a version, a semver range, `closest[:<version>]` or `latest` (version-choice.ts). */
  version?: string;
  /** A code language whose examples rank first; with `languageOnly`, the only examples served. */
  language?: string;
  languageOnly?: boolean;
  /** A project whose pinned version answers when the request names none (projects/project-version.ts). */
  projectId?: string;
}

export interface ContextAnswer {
  library: LibraryRecord;
  version: LibraryVersionRecord;
  snippets: RankedSnippet[];
  tokens: number;
  /** The best candidate's search score per analysed query term (usage's low-score questions). */
  scorePerTerm: number;
  /** Where the answer came from (provenance.ts). */
  provenance: Provenance;
}

/** The question an overview is ranked by (get-library-docs and the v1 route without a topic). */
export function overviewQuery(libraryId: string): string {
  const project = libraryId.replace(/@.*$/, '').split('/').filter(Boolean)[1] ?? '';
  return `${project} overview getting started usage`.trim();
}

/** How many sections a "nothing relevant" answer names. */
const NEAREST_SECTIONS = 3;

/** What `getContext` reaches (ports.ts). */
export type GetContextPorts = Pick<Ports, 'embeddings' | 'libraries' | 'policies' | 'projects' | 'snippets'>;

export async function getContext(services: GetContextPorts, principal: Principal, request: ContextRequest): Promise<ContextAnswer> {
  const { libraryId, version: fromId } = parseLibraryId(request.libraryId);
  const query = request.query.trim();
  if (!query) throw new ValidationError('query is required: the question to find documentation for.', 'query');
  if (query.length > 2000) throw new ValidationError('query is too long (at most 2000 characters).', 'query');
  const budget = request.tokens ?? DEFAULT_TOKENS;
  const language = languageOf(request);

  // A merged source's old id serves its merged library (catalog/merged-sources.ts).
  let { library, redirectedFrom } = await usableServedLibrary(services, principal, libraryId);
  const projectId = requestProject(principal, request.projectId);
  const { version, pinned } = await versionFromProject(services, principal, projectId, library, fromId, request.version);
  const choose = (lib: LibraryRecord) => {
    try {
      const chosen = chooseVersion(lib, fromId, version);
      return chosen && asPinned(chosen, pinned);
    } catch (error) {
      throw pinnedNotIndexed(error, pinned);
    }
  };
  let choice = choose(library);
  const size = candidatesFor(budget);
  const analyzed = analyzeQuery(query);
  let legs = choice && (await searchLegs(services, library, recordName(choice), analyzed, query, size));
  if (legs === undefined || legs.lexical.length + legs.semantic.length === 0) {
    // A cached library record may name a generation that was just replaced: read it fresh once.
    ({ library, redirectedFrom } = await usableServedLibrary(services, principal, libraryId, { fresh: true }));
    choice = choose(library);
    legs = choice && (await searchLegs(services, library, recordName(choice), analyzed, query, size));
  }
  if (!choice || !legs || legs.lexical.length + legs.semantic.length === 0) {
    if (!choice) throw new NoSnippetsFoundError(`${libraryId} (it is still being indexed)`);
    throw new NoSnippetsFoundError(libraryId, { query, nearestSections: [] });
  }
  const requested = recordName(choice);
  const input: AnswerInput = {
    ...legs,
    analyzed,
    budget,
    query,
    libraryId: clientLibraryId(library._id),
    version: choice.record.version,
    overview: request.overview,
    ...(language ? { language } : {}),
  };
  const result = await completeAnswer(services, library, requested, input, size, legs.also);
  if (result.snippets.length === 0) {
    if (result.nothingRelevant) throw new NoSnippetsFoundError(libraryId, { query, nearestSections: nearestSections(result) });
    if (result.noneInLanguage) throw new NoSnippetsFoundError(libraryId, { query, nearestSections: [], language: request.language ?? '' });
    throw new NoSnippetsFoundError(libraryId, { budget, smallest: result.smallestRelevant });
  }
  const tokens = result.snippets.reduce((n, s) => n + s.doc.tokens, 0);
  const top = legs.lexical.reduce((m, c) => Math.max(m, c.score), 0);
  return {
    library,
    version: choice.record,
    snippets: result.snippets,
    tokens,
    scorePerTerm: top / Math.max(1, analyzed.terms.length),
    provenance: { ...provenanceOf(library, choice), ...mergedProvenance(redirectedFrom, legs.also) },
  };
}

/** What a merged library's answer adds to its provenance: the id asked for when redirected, the other sources read. */
function mergedProvenance(redirectedFrom: string | undefined, also: readonly SourceScope[]): Pick<Provenance, 'redirectedFrom' | 'mergedSources'> {
  return {
    ...(redirectedFrom ? { redirectedFrom } : {}),
    ...(also.length > 0 ? { mergedSources: also.map((s) => ({ libraryId: clientLibraryId(s.libraryId), version: s.version })) } : {}),
  };
}

/**
 * One library version's answer to a question: the legs, then the answer completed (getContext's
 * core without its errors and retries), for search across libraries. Undefined when the version
 * has nothing to search.
 */
export async function answerInLibrary(
  services: Pick<Ports, 'embeddings' | 'snippets' | 'libraries'>,
  library: LibraryRecord,
  choice: VersionChoice,
  question: { query: string; analyzed: AnalyzedQuery; budget: number; language?: AnswerInput['language'] },
): Promise<AnswerResult | undefined> {
  const size = candidatesFor(question.budget);
  const requested = recordName(choice);
  const legs = await searchLegs(services, library, requested, question.analyzed, question.query, size);
  if (!legs || legs.lexical.length + legs.semantic.length === 0) return undefined;
  const { language, ...rest } = question;
  const input: AnswerInput = { ...legs, ...rest, libraryId: clientLibraryId(library._id), version: choice.record.version, ...(language ? { language } : {}) };
  return completeAnswer(services, library, requested, input, size, legs.also);
}

/** The version name the stores know a chosen record by (undefined: the default branch). */
function recordName(choice: VersionChoice): string | undefined {
  return choice.record.version === 'latest' ? undefined : choice.record.version;
}

/** The language input, normalised (undefined when none was asked). */
export function languageOf(request: Pick<ContextRequest, 'language' | 'languageOnly'>): AnswerInput['language'] {
  const name = request.language?.trim();
  if (!name) {
    if (request.languageOnly) throw new ValidationError('languageOnly needs language: the code language to keep (e.g. "python").', 'languageOnly');
    return undefined;
  }
  if (name.length > 40 || !/^[\w#+.-]+$/.test(name))
    throw new ValidationError('language must be a code language name such as "python", "typescript" or "bash".', 'language');
  return { name: normaliseLanguage(name), only: request.languageOnly === true };
}

/**
 * The answer, completed where the first pass leaves it short: when every candidate was
 * relevant and the budget is not full, once more with the next candidates (up to three times
 * as many in all: a large budget on a broad question); and when it holds a later part of a
 * long section without the parts before it, with those parts read (it is served from its
 * opening part on).
 */
async function completeAnswer(
  services: Pick<Ports, 'embeddings' | 'snippets' | 'libraries'>,
  library: LibraryRecord,
  requested: string | undefined,
  input: AnswerInput,
  size: number,
  also: SourceScope[],
): Promise<AnswerResult> {
  let result = answerFromLegs(input);
  if (result.exhausted && underfilled(result.snippets, input.budget) && input.lexical.length === size && size < MAX_CANDIDATES) {
    const next = await searchLegs(services, library, requested, input.analyzed, input.query, Math.min(MAX_CANDIDATES, size * 3) - size, size);
    if (next && next.lexical.length > 0) {
      const lexical = mergeCandidates(input.lexical, next.lexical);
      const dropped = also.length > 0 ? crossSourceDuplicates([...lexical, ...input.semantic].map((c) => c.doc)) : new Set<string>();
      input = { ...input, lexical: lexical.filter((c) => !dropped.has(c.doc.id)), semantic: input.semantic.filter((c) => !dropped.has(c.doc.id)) };
      result = answerFromLegs(input);
    }
  }
  const missing = missingParts(result.snippets);
  const version = resolveVersion(library, requested);
  if (missing.length === 0 || !version) return result;
  const scope = { libraryId: library._id, version: version.version, generation: version.generation, baseGeneration: version.baseGeneration, also };
  const read = await services.snippets.sectionParts({ ...scope, wanted: missing.map((m) => ({ path: m.path, below: m.below })) });
  const parts = read.filter((c) => isPartOf(c.doc, missing));
  return parts.length > 0 ? answerFromLegs({ ...input, parts }) : result;
}

/** The best-scored sections of a pool none of which is relevant, as "Page > Heading". */
function nearestSections(result: AnswerResult): string[] {
  const names: string[] = [];
  for (const r of result.ranked) {
    const name = r.doc.breadcrumb.length > 0 ? r.doc.breadcrumb.join(' > ') : r.doc.title;
    if (!names.includes(name)) names.push(name);
    if (names.length === NEAREST_SECTIONS) break;
  }
  return names;
}

/** A first page of candidates followed by the next, without any the first already holds. */
export function mergeCandidates(first: readonly ScoredCandidate[], next: readonly ScoredCandidate[]): ScoredCandidate[] {
  const ids = new Set(first.map((c) => c.doc.id));
  return [...first, ...next.filter((c) => !ids.has(c.doc.id))];
}

interface Legs {
  /** A merged library: the versions of its other sources searched with it. */
  also: SourceScope[];
  lexical: ScoredCandidate[];
  semantic: ScoredCandidate[];
  stats: Awaited<ReturnType<Ports['snippets']['termStats']>>;
  queryVector?: Float32Array;
}

async function searchLegs(
  services: Pick<Ports, 'embeddings' | 'snippets' | 'libraries'>,
  library: LibraryRecord,
  requested: string | undefined,
  analyzed: AnalyzedQuery,
  query: string,
  size: number,
  from = 0,
): Promise<Legs | undefined> {
  const version = resolveVersion(library, requested);
  if (!version) return undefined;
  const also = await sourceScopes(services, library, version.version);
  const scope = { libraryId: library._id, version: version.version, generation: version.generation, baseGeneration: version.baseGeneration, also };
  const body = buildContextQuery({ ...scope, query, size, from, analyzed });
  const embeddings = services.embeddings;
  const vectors = { vectors: embeddings !== undefined };
  // Everything at once: the lexical leg, the library's term statistics, and the question's
  // vector followed by the kNN leg (first page only: a next page widens the lexical list).
  const [lexical, stats, semantic] = await Promise.all([
    services.snippets.searchCandidates(body, vectors),
    services.snippets.termStats(scope, analyzed.terms),
    embeddings && from === 0
      ? embeddings.embedQuery(query).then(async (vector) => ({
          vector,
          hits: await services.snippets.searchCandidates(buildKnnQuery({ ...scope, vector, size: SEARCH_WEIGHTS.answer.knnHits }), vectors),
        }))
      : undefined,
  ]);
  const legs = { also, lexical, stats, semantic: semantic?.hits ?? [], ...(semantic ? { queryVector: semantic.vector } : {}) };
  return also.length > 0 ? withoutCrossSourceCopies(legs) : legs;
}

/** Both legs without the poorer copy of a page two sources hold (retrieval/merged-dedupe.ts). */
function withoutCrossSourceCopies(legs: Legs): Legs {
  const dropped = crossSourceDuplicates([...legs.lexical, ...legs.semantic].map((c) => c.doc));
  if (dropped.size === 0) return legs;
  return { ...legs, lexical: legs.lexical.filter((c) => !dropped.has(c.doc.id)), semantic: legs.semantic.filter((c) => !dropped.has(c.doc.id)) };
}
