/**
 * The catalogue index's document: one per library copy, with the name forms library search
 * compares (search/catalog.ts) computed here in Node — normalised names, core names, words,
 * trigrams, the owner's forms — so Elasticsearch finds the candidates with term, prefix and
 * fuzzy queries on keywords (the integ-test distribution has no analysis-common, so no
 * n-gram analyser), plus the visibility and policy fields search filters on and the summary
 * it answers with. The mapping is typed against the document.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { LibrarySummary } from './types';
import { formsOf, qualityScore } from './catalog';

/** What the catalogue knows of a library copy (catalog/ turns a library record into one). */
export interface CatalogEntry {
  /** The stored key (`/acme/internal~team_1` for a team's copy). */
  key: string;
  private: boolean;
  teamId: string | null;
  source: string;
  /** Whether some version is built (only built libraries are found). */
  built: boolean;
  /** The latest version's served generation, for the content query. */
  latest: { generation: number; baseGeneration?: number } | null;
  /** The record's last change (ms): the document's external version, so an older write never replaces a newer one. */
  changedAt: number;
  summary: LibrarySummary;
}

/** The summary as stored (dates as ISO strings). */
export type StoredSummary = Omit<LibrarySummary, 'lastUpdateDate'> & { lastUpdateDate: string };

export interface CatalogDocument {
  key: string;
  /** The client id, and lowercased for exact ids and policy lists. */
  id: string;
  idLower: string;
  private: boolean;
  teamId: string | null;
  source: string;
  trustScore: number;
  /** search/catalog.ts `qualityScore`: orders candidates whose names match alike. */
  quality: number;
  built: boolean;
  changedAt: number;
  /** Forms of the title, repository name and aliases (search/catalog.ts `formsOf`). */
  normals: string[];
  cores: string[];
  words: string[];
  /** Trigrams of the core names: near names for a 404's suggestions. */
  grams: string[];
  /** The core names and their deletion variants (`typoKeys`): names within a typo or two share one. */
  deletes: string[];
  ownerNormal: string;
  ownerCore: string;
  /**
   * The length of the shortest normalised name: the candidate query scores a prefix match as
   * `nameMatchScore` does (shorter names nearer the one asked), so the best come back first.
   */
  nameLength: number;
  /** The document's shape (`CATALOG_DOCUMENT_FORM`): reconciliation rewrites older ones. */
  form: number;
  summary: StoredSummary;
  latest: { generation: number; baseGeneration?: number } | null;
}

const keyword: estypes.MappingProperty = { type: 'keyword' };

/**
 * The documents' shape: raised when a field is added, so start-up reconciliation rewrites the
 * documents written before (the mapping takes new fields in place; search/catalog-index.ts).
 */
export const CATALOG_DOCUMENT_FORM = 2;

export const CATALOG_FIELDS: Record<keyof CatalogDocument, estypes.MappingProperty> = {
  key: keyword,
  id: keyword,
  idLower: keyword,
  private: { type: 'boolean' },
  teamId: keyword,
  source: keyword,
  trustScore: { type: 'double' },
  quality: { type: 'double' },
  built: { type: 'boolean' },
  changedAt: { type: 'long' },
  normals: keyword,
  cores: keyword,
  words: keyword,
  grams: keyword,
  deletes: keyword,
  ownerNormal: keyword,
  ownerCore: keyword,
  nameLength: { type: 'integer' },
  form: { type: 'integer' },
  // Returned, never searched.
  summary: { type: 'object', enabled: false },
  latest: { type: 'object', enabled: false },
};

export const CATALOG_MAPPINGS: estypes.MappingTypeMapping = { dynamic: 'strict', properties: CATALOG_FIELDS };

/** Trigrams of a word (the word itself when shorter). */
export function trigrams(word: string): string[] {
  if (word.length <= 3) return word === '' ? [] : [word];
  const out: string[] = [];
  for (let i = 0; i + 3 <= word.length; i++) out.push(word.slice(i, i + 3));
  return out;
}

/**
 * A name's typo keys (symmetric deletion, as SymSpell): the name and every string one letter
 * deletion from it, and two from names of 8 letters or more. Two names within the typos
 * search/catalog.ts `allowedTypos` allows (1 from 4 letters, 2 from 8; substitutions,
 * insertions, deletions and adjacent transpositions) always share a key, so a `terms` query on
 * keys finds them without a Levenshtein automaton (Node then checks the exact distance).
 * Names under 4 letters have none.
 */
export function typoKeys(name: string): string[] {
  if (name.length < 4) return [];
  const keys = new Set([name]);
  const once = deletions(name);
  for (const d of once) keys.add(d);
  if (name.length >= 8) for (const d of once) for (const dd of deletions(d)) keys.add(dd);
  return [...keys];
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** The names a library is matched by, as search/catalog.ts `nameMatchScore` reads them. */
export function libraryNames(summary: Pick<LibrarySummary, 'id' | 'title' | 'aliases'>): string[] {
  const repo = summary.id.split('/').filter((s) => s !== '')[1] ?? '';
  return [summary.title, repo, ...(summary.aliases ?? [])].filter((n) => n.trim() !== '');
}

const unique = (values: string[]) => [...new Set(values.filter((v) => v !== ''))];

/** The catalogue document of an entry (pure). */
export function catalogDocument(entry: CatalogEntry): CatalogDocument {
  const { summary } = entry;
  const forms = libraryNames(summary).map(formsOf);
  const owner = formsOf(summary.id.split('/').filter((s) => s !== '')[0] ?? '');
  const cores = unique(forms.map((f) => f.core));
  const normals = unique(forms.map((f) => f.normal));
  return {
    key: entry.key,
    id: summary.id,
    idLower: summary.id.toLowerCase(),
    private: entry.private,
    teamId: entry.teamId,
    source: entry.source,
    trustScore: summary.trustScore ?? 0,
    quality: qualityScore(summary),
    built: entry.built,
    changedAt: entry.changedAt,
    normals,
    cores,
    words: unique(forms.flatMap((f) => f.words)),
    grams: unique(cores.flatMap(trigrams)),
    deletes: unique(cores.flatMap(typoKeys)),
    ownerNormal: owner.normal,
    ownerCore: owner.core,
    nameLength: normals.length > 0 ? Math.min(...normals.map((n) => n.length)) : 0,
    form: CATALOG_DOCUMENT_FORM,
    summary: { ...summary, lastUpdateDate: new Date(summary.lastUpdateDate).toISOString() },
    latest: entry.latest,
  };
}

/** A stored summary as the API presents it. */
export function summaryOf(doc: Pick<CatalogDocument, 'summary'>): LibrarySummary {
  return { ...doc.summary, lastUpdateDate: new Date(doc.summary.lastUpdateDate) };
}
