/**
 * The snippets index: settings, mappings typed against `SnippetDocument` (a field without a
 * mapping, or a mapping without a field, does not compile), and `toIndexedSnippet`, which
 * fills the analysed fields from the raw ones.
 *
 * Analysed fields hold tokens produced by search/analysis.ts and use the built-in
 * `whitespace` analyzer, which every distribution has (the server-core one has no
 * `whitespace` *tokenizer*, hence the `standard` tokenizer in the shingle analyzer: its input
 * is already lowercased, stemmed, stop-word-free text). `.shingles` subfields index word
 * pairs so a plain `match` on them rewards query words that appear side by side.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { SnippetDocument } from './types';
import { analyzeText, extractIdentifiers } from './analysis';
import { proseOf } from './format/fence';

export const SHINGLE_ANALYZER = 'shelfmark_shingles';

export const SNIPPET_INDEX_SETTINGS: estypes.IndicesIndexSettings = {
  number_of_shards: 1,
  number_of_replicas: 0,
  // One library version's snippets side by side: the query filter then skips whole ranges
  // (see snippet-store.ts for the measured effect).
  sort: { field: ['libraryId', 'version', 'generation'], order: ['asc', 'asc', 'asc'] },
  analysis: {
    filter: {
      shelfmark_word_pairs: { type: 'shingle', min_shingle_size: 2, max_shingle_size: 2, output_unigrams: false },
    },
    analyzer: {
      [SHINGLE_ANALYZER]: { type: 'custom', tokenizer: 'standard', filter: ['shelfmark_word_pairs'] },
    },
  },
};

const keyword: estypes.MappingProperty = { type: 'keyword' };
/** Returned from _source, never searched. */
const stored: estypes.MappingProperty = { type: 'text', index: false };
const storedKeyword: estypes.MappingProperty = { type: 'keyword', index: false, doc_values: false };
const analysed: estypes.MappingProperty = { type: 'text', analyzer: 'whitespace' };
const analysedWithPairs: estypes.MappingProperty = {
  type: 'text',
  analyzer: 'whitespace',
  fields: { shingles: { type: 'text', analyzer: SHINGLE_ANALYZER } },
};

/** Dimensions of the snippet vectors (all-MiniLM-L6-v2 and compatible models). */
export const EMBEDDING_DIMS = 384;

export const SNIPPET_FIELDS: Record<keyof SnippetDocument, estypes.MappingProperty> = {
  id: keyword,
  libraryId: keyword,
  version: keyword,
  generation: { type: 'long' },
  // The generation that retired the snippet (incremental builds, search/served.ts).
  retired: { type: 'long' },
  kind: keyword,
  path: keyword,
  language: keyword,
  fileHash: keyword,
  url: storedKeyword,
  startLine: { type: 'integer', index: false },
  tokens: { type: 'integer' },
  pageKind: keyword,
  pageVersion: keyword,
  part: { type: 'short' },
  title: stored,
  breadcrumb: stored,
  pageTitle: stored,
  description: stored,
  content: stored,
  code: stored,
  searchTitle: analysedWithPairs,
  searchBreadcrumb: analysed,
  searchBody: analysedWithPairs,
  searchCode: analysedWithPairs,
  searchPath: analysed,
  // Identifiers are matched whole; pairs of them mean nothing.
  searchIdentifiers: { type: 'text', analyzer: 'whitespace', norms: false },
  // Unit vectors, so dot product is the cosine; int8 HNSW quarters the graph's memory.
  embedding: { type: 'dense_vector', dims: EMBEDDING_DIMS, index: true, similarity: 'dot_product', index_options: { type: 'int8_hnsw' } },
};

export const SNIPPET_MAPPINGS: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  properties: SNIPPET_FIELDS,
};

/**
 * Body of `indices.create` for a new generation of the snippets index. On Elasticsearch 9
 * the vectors are left out of `_source` (mapping version 4; `index.mapping.exclude_source_vectors`,
 * set explicitly though it is 9's default): every hit of a context query used to load and
 * filter a `_source` whose 384 numbers as JSON (~4 KB) were most of the stored document,
 * although the query names other fields. Elasticsearch 9 still keeps the vector through
 * partial updates (retiring a snippet) and gives it back on request
 * (`_source.exclude_vectors: false`); a reader of `_source` that needs it (a mapping
 * migration, an export) restores it from the vector cache (embedding/service.ts `attach`).
 * On 8.x the vectors stay in `_source`: its only way to leave them out, a mapping-level
 * `_source.excludes`, loses them on every partial update.
 */
export function snippetIndexDefinition(options: { esMajor: number; shards?: number }): {
  settings: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
} {
  const base = options.shards !== undefined ? { ...SNIPPET_INDEX_SETTINGS, number_of_shards: options.shards } : SNIPPET_INDEX_SETTINGS;
  const settings: estypes.IndicesIndexSettings =
    options.esMajor >= 9 ? { ...base, mapping: { exclude_source_vectors: true } as estypes.IndicesMappingLimitSettings } : base;
  return { settings, mappings: SNIPPET_MAPPINGS };
}

const analyse = (text: string): string => analyzeText(text).join(' ');

/** The path's words: folders and file name without its extension. */
export function pathWords(path: string): string {
  return path
    .replace(/\.[A-Za-z0-9]+$/, '')
    .split('/')
    .join(' ');
}

/** Page title and breadcrumb without the repetition of a breadcrumb that starts with the title. */
function headingText(doc: Pick<SnippetDocument, 'pageTitle' | 'breadcrumb'>): string {
  const headings = doc.breadcrumb[0] === doc.pageTitle ? doc.breadcrumb : [doc.pageTitle, ...doc.breadcrumb];
  return headings.join('\n');
}

/** Returns the document with its analysed fields computed from its raw fields. */
export function toIndexedSnippet(doc: SnippetDocument): SnippetDocument {
  // A section's snippet holds its prose and code in `content` (the code is also in `code`);
  // a snippet of code alone (an operation, code docs) has its prose in `description`.
  const prose = (doc.content !== '' ? proseOf(doc.content) : '') || doc.description;
  const headings = headingText(doc);
  const identifiers = new Set([
    ...extractIdentifiers(doc.title, true),
    ...extractIdentifiers(headings, true),
    ...extractIdentifiers(doc.code, true),
    ...extractIdentifiers(prose, false),
  ]);
  return {
    ...doc,
    searchTitle: analyse(doc.title),
    searchBreadcrumb: analyse(headings),
    searchBody: analyse(prose),
    searchCode: analyse(doc.code),
    searchPath: analyse(pathWords(doc.path)),
    searchIdentifiers: [...identifiers].join(' '),
  };
}
