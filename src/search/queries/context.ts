/**
 * The context query: the candidates for a question within one library version. Pure: the
 * question is analysed in Node (search/analysis.ts) and the result is the exact
 * Elasticsearch request body; the caller adds the index name. Only core query types are used
 * (`combined_fields`, `multi_match`, `match`), so it runs on the server-core distribution.
 */
import type { estypes } from '@elastic/elasticsearch';
import { analyzeQuery, analyzeText, type AnalyzedQuery } from '../analysis';
import { CONTEXT_SOURCE_FIELDS } from '../types';
import { SEARCH_WEIGHTS, type QueryWeights } from '../weights';
import { scopesFilter, type SourceScope } from '../served';

/** A search request without its index. */
export type SearchRequestBody = Omit<estypes.SearchRequest, 'index'>;
type Query = estypes.QueryDslQueryContainer;

export interface ContextQueryInput {
  libraryId: string;
  version: string;
  /** The generation being served (from MongoDB, with its base: served.ts); without it every generation matches. */
  generation?: number;
  baseGeneration?: number;
  /** A merged library: the versions of its other sources served with this one (served.ts `scopesFilter`). */
  also?: readonly SourceScope[];
  query: string;
  size: number;
  /** Candidates to skip: the next page of a query whose first page left the budget unfilled. */
  from?: number;
  /** `analyzeQuery(query)` when the caller has it already (it re-ranks with the same analysis). */
  analyzed?: AnalyzedQuery;
}

const TLD_SUFFIX = /\.(com|org|io|dev|net|docs?)$/;

/** Analysed words that only name the library: `/expressjs/expressjs.com` → express, expressj, … */
export function libraryNameTerms(libraryId: string): Set<string> {
  const segments = libraryId.split('/').filter((s) => s !== '');
  const name = (segments[1] ?? segments[0] ?? '').toLowerCase().replace(TLD_SUFFIX, '');
  const variants = [name, name.replace(/[.-]?js$/, '')].filter((v) => v !== '');
  return new Set(analyzeText(variants.join(' ')));
}

/** `field^boost` strings, in the declared order. */
export function boostedFields(fields: Readonly<Record<string, number>>): string[] {
  return Object.entries(fields).map(([field, boost]) => (boost === 1 ? field : `${field}^${boost}`));
}

/** The scoring clauses for an analysed question; shared with the catalogue query. */
export function contextShouldClauses(analyzed: AnalyzedQuery, nameTerms: ReadonlySet<string>, w: QueryWeights): Query[] {
  const topical = analyzed.terms.filter((t) => !nameTerms.has(t));
  const main = topical.length > 0 ? topical : analyzed.terms;
  const naming = topical.length > 0 ? analyzed.terms.filter((t) => nameTerms.has(t)) : [];
  const fields = boostedFields(w.fields);
  const should: Query[] = [];
  if (main.length > 0) {
    should.push({ combined_fields: { query: main.join(' '), fields, operator: 'or', boost: w.main } });
    should.push({
      multi_match: { query: main.join(' '), type: 'best_fields', fields: boostedFields(w.headingFields), boost: w.headings },
    });
  }
  for (const phrase of analyzed.phrases.slice(0, w.maxPhrases)) {
    should.push({
      multi_match: { query: phrase.join(' '), type: 'best_fields', fields: boostedFields(w.pairFields), boost: w.pairs },
    });
  }
  if (analyzed.identifiers.length > 0) {
    should.push({ match: { searchIdentifiers: { query: analyzed.identifiers.join(' '), boost: w.identifiers } } });
  }
  for (const phrase of analyzed.exactPhrases.slice(0, w.maxExactPhrases)) {
    should.push({
      multi_match: {
        query: phrase.join(' '),
        type: 'phrase',
        slop: w.phraseSlop,
        fields: ['searchTitle', 'searchBody', 'searchCode'],
        boost: w.exactPhrase,
      },
    });
  }
  if (analyzed.expansions.length > 0) {
    should.push({ combined_fields: { query: analyzed.expansions.join(' '), fields, operator: 'or', boost: w.expansions } });
  }
  if (naming.length > 0) {
    should.push({ combined_fields: { query: naming.join(' '), fields, operator: 'or', boost: w.libraryName } });
  }
  return should;
}

/**
 * Builds the candidate query for `GET /v2/context`: snippets of one library version,
 * scored by BM25F over the analysed fields plus heading, proximity, identifier and quoted
 * phrase boosts. Returns `size` candidates with only the fields needed to rank and render.
 */
export function buildContextQuery(input: ContextQueryInput, weights: QueryWeights = SEARCH_WEIGHTS.query): SearchRequestBody {
  const analyzed = input.analyzed ?? analyzeQuery(input.query);
  const should = contextShouldClauses(analyzed, libraryNameTerms(input.libraryId), weights);
  return {
    ...(input.from ? { from: input.from } : {}),
    size: input.size,
    track_total_hits: false,
    _source: [...CONTEXT_SOURCE_FIELDS],
    query: {
      bool: {
        filter: [...scopesFilter(input)],
        ...(should.length > 0 ? { should, minimum_should_match: 1 } : {}),
      },
    },
  };
}
