/**
 * Library search's queries on the catalogue index (pure builders; search/catalog-document.ts
 * holds the fields). Elasticsearch finds the candidates and filters them by visibility and
 * the caller's policy; Node then scores the few it returns with the exact rules of
 * search/catalog.ts, so a lookup costs the same at 16 libraries as at 10,000.
 *
 * The name query is a `dis_max` of clauses, one per rule of `nameMatchScore`, each scored
 * (at least) as that rule scores (constant scores; the prefix rule by the name's length), so
 * the candidates come back in about the order Node will rank them: the best matches are
 * among the first `size`, and a tie (an owner with hundreds of libraries) is broken by the
 * quality signals.
 */
import type { estypes } from '@elastic/elasticsearch';
import { asLibraryId, formsOf } from '../catalog';
import { trigrams, typoKeys } from '../catalog-document';

type Query = estypes.QueryDslQueryContainer;

/** A team policy's library filters (auth/policy.ts `LibraryFilters` has this shape). */
export interface CatalogPolicyFilters {
  mode: 'quality' | 'select';
  blockedLibraries: readonly string[];
  exceptedLibraries: readonly string[];
  minTrustScore: number | null;
  allowedLibraries: readonly string[];
  sourceTypes: readonly string[];
}

export interface CatalogScope {
  /** The caller's teams: their private copies are visible besides the public ones. */
  teams: readonly string[];
  /** The caller's team policy, when one applies. */
  filters?: CatalogPolicyFilters;
}

/** What library search reads of a hit. */
export const CATALOG_HIT_FIELDS = ['key', 'private', 'teamId', 'source', 'trustScore', 'summary', 'latest'] as const;

const norm = (id: string) => id.trim().replace(/\/+$/, '').toLowerCase();

/** Visibility and policy as filters (the same rules as auth/policy.ts `libraryAllowedByPolicy`). */
export function catalogFilters(scope: CatalogScope): { filter: Query[]; must_not: Query[] } {
  const visible: Query =
    scope.teams.length > 0
      ? { bool: { should: [{ term: { private: false } }, { terms: { teamId: [...scope.teams] } }], minimum_should_match: 1 } }
      : { term: { private: false } };
  const filter: Query[] = [{ term: { built: true } }, visible];
  const mustNot: Query[] = [];
  const f = scope.filters;
  if (f) {
    if (f.blockedLibraries.length > 0) mustNot.push({ terms: { idLower: f.blockedLibraries.map(norm) } });
    const excepted: Query = { terms: { idLower: f.exceptedLibraries.map(norm) } };
    if (f.mode === 'select') {
      filter.push({ bool: { should: [excepted, { terms: { idLower: f.allowedLibraries.map(norm) } }], minimum_should_match: 1 } });
    } else {
      const rules: Query[] = [];
      if (f.minTrustScore !== null) rules.push({ range: { trustScore: { gte: f.minTrustScore } } });
      if (f.sourceTypes.length > 0) rules.push({ terms: { source: [...f.sourceTypes] } });
      if (rules.length > 0) filter.push({ bool: { should: [excepted, { bool: { filter: rules } }], minimum_should_match: 1 } });
    }
  }
  return { filter, must_not: mustNot };
}

const scored = (boost: number, filter: Query): Query => ({ constant_score: { filter, boost } });

/**
 * Names that start with the core asked, scored as `nameMatchScore` scores them: 0.5 + 0.25 ×
 * (letters asked / letters of the name), the name's length read from the document's shortest
 * name (`nameLength`), so among hundreds of `axios-…` names the shortest come back first.
 */
function prefixScored(core: string): Query {
  return {
    function_score: {
      query: { prefix: { normals: core } },
      functions: [{ weight: 0.5 }, { field_value_factor: { field: 'nameLength', modifier: 'reciprocal', missing: 1000 }, weight: 0.25 * core.length }],
      score_mode: 'sum',
      boost_mode: 'replace',
    },
  };
}

/** Every prefix of `word` of at least `min` letters (a name that is a prefix of the one asked). */
function prefixesOf(word: string, min: number): string[] {
  const out: string[] = [];
  for (let n = min; n <= word.length; n++) out.push(word.slice(0, n));
  return out;
}

/**
 * The candidates for `libraryName`: every library copy the caller may use whose names could
 * match by one of the rules of `nameMatchScore` (exact id, normalised or core name, a word of
 * a longer name, prefixes either way, all words, typos, owner), best first.
 */
export function buildLibraryNameQuery(input: { libraryName: string; size: number } & CatalogScope): estypes.SearchRequest | undefined {
  const asked = formsOf(input.libraryName);
  if (asked.normal === '') return undefined;
  const clauses: Query[] = [];
  const askedId = asLibraryId(input.libraryName);
  if (askedId !== undefined) clauses.push(scored(1, { term: { idLower: askedId } }));
  clauses.push(scored(0.95, { term: { normals: asked.normal } }));
  clauses.push(scored(0.9, { terms: { cores: [...new Set([asked.core, asked.normal])] } }));
  if (asked.core !== '') clauses.push(scored(0.9, { term: { normals: asked.core } }));
  if (asked.words.length > 1) clauses.push(scored(0.75, { terms: { cores: asked.words } }));
  if (asked.core.length >= 3) clauses.push(prefixScored(asked.core));
  if (asked.normal.length >= 3) clauses.push(scored(0.65, { terms: { cores: prefixesOf(asked.normal, 3) } }));
  if (asked.words.length > 0) clauses.push(scored(0.5, { bool: { filter: asked.words.map((w) => ({ term: { words: w } })) } }));
  // Typos need 4 letters, and never exceed 2, nor 1 below 8 letters (allowedTypos): names that
  // share a typo key; Node checks the exact rule. (A fuzzy query's automaton cost ~1 ms a lookup.)
  const keys = typoKeys(asked.core);
  if (keys.length > 0) clauses.push(scored(0.7, { terms: { deletes: keys } }));
  clauses.push(scored(0.55, { term: { ownerNormal: asked.normal } }));
  if (asked.core !== '') clauses.push(scored(0.55, { term: { ownerCore: asked.core } }));
  return {
    size: input.size,
    track_total_hits: false,
    _source: [...CATALOG_HIT_FIELDS],
    query: { bool: { ...catalogFilters(input), must: [{ dis_max: { queries: clauses } }] } },
    sort: [{ _score: { order: 'desc' } }, { quality: { order: 'desc' } }, { idLower: { order: 'asc' } }],
  };
}

/**
 * Names near one nothing matched, for the 404's suggestions: up to two typos, or sharing
 * trigrams or a word; Node keeps those within search/catalog.ts `suggestLibraries`' distance.
 */
export function buildLibrarySuggestQuery(input: { libraryName: string; size: number } & CatalogScope): estypes.SearchRequest | undefined {
  const asked = formsOf(input.libraryName);
  if (asked.core === '') return undefined;
  const should: Query[] = [];
  if (asked.core.length >= 2)
    should.push({ fuzzy: { cores: { value: asked.core, fuzziness: asked.core.length < 3 ? 1 : 2, max_expansions: 200, transpositions: true, boost: 3 } } });
  const grams = trigrams(asked.core);
  // One clause per trigram, so more shared trigrams score higher.
  if (grams.length > 0) should.push({ bool: { should: grams.map((g) => ({ term: { grams: g } })) } });
  const words = asked.words.filter((w) => w.length >= 3);
  if (words.length > 0) should.push({ terms: { words, boost: 2 } });
  return {
    size: input.size,
    track_total_hits: false,
    _source: [...CATALOG_HIT_FIELDS],
    query: { bool: { ...catalogFilters(input), should, minimum_should_match: 1 } },
  };
}

/**
 * The library copies the caller may use whose normalised names (title, repository name,
 * aliases) or ids are among the given ones: the candidates a project's packages are mapped
 * to (projects/map-packages.ts decides the matches in Node). One terms query whatever the
 * lockfile's size.
 */
export function buildLibrariesByNamesQuery(
  input: { normals: readonly string[]; ids: readonly string[]; size: number } & CatalogScope,
): estypes.SearchRequest | undefined {
  const should: Query[] = [];
  if (input.normals.length > 0) should.push({ terms: { normals: [...input.normals] } });
  if (input.ids.length > 0) should.push({ terms: { idLower: input.ids.map(norm) } });
  if (should.length === 0) return undefined;
  const { filter, must_not } = catalogFilters(input);
  return {
    size: input.size,
    _source: [...CATALOG_HIT_FIELDS],
    sort: [{ trustScore: 'desc' }, { key: 'asc' }],
    query: { bool: { filter: [...filter, { bool: { should, minimum_should_match: 1 } }], must_not } },
  };
}
