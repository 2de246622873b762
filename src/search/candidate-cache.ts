/**
 * Context candidates without their sources on the hot path. Elasticsearch spends as much CPU
 * fetching and filtering the `_source` of a context query's ~40 hits as on the query itself
 * (measured on the corpus, the 80 dev questions sequentially: 5.8–7.7 ms of Elasticsearch CPU
 * per lexical query with sources, 3.4–4.0 ms without), and the server parses all of it
 * again. A snippet document never changes under its `_id` except through an update, which
 * moves its sequence number, so each process keeps the context fields of recently served
 * snippets by (`_id`, `_seq_no`, `_primary_term`): a search asks only for ids, scores and
 * sequence numbers, and the documents it has not seen are read in one `ids` search.
 * A document deleted between the two reads is left out, as if the search had not found it.
 * The search loads no stored field at all: a hit's `_id` (snippet id and generation,
 * snippet-writes.ts `docId`) is rebuilt from doc values, as are its sequence numbers (on the
 * corpus, dev questions sequentially: 3.4–3.5 ms per lexical search against 3.9–4.1 ms with
 * `_id` read from stored fields).
 */
import type { HotHit, HotSearch } from './client';
import { Lru } from '../util/lru';
import { docId } from './snippet-writes';
import { CONTEXT_SOURCE_FIELDS, EVIDENCE_FIELDS, type CandidateEvidence, type ContextSnippet, type ScoredCandidate } from './types';

/**
 * Snippets kept per process with their evidence (~4–6 kB each in memory: content, analysed
 * text and a 384-dimension vector; the corpus's hot set, not all of it).
 */
export const CANDIDATE_CACHE_SIZE = 10_000;

/** A cached candidate: its context fields and what re-scoring reads of it. */
export interface CachedCandidate {
  doc: ContextSnippet;
  evidence: CandidateEvidence;
  /**
   * Whether it was read with its vector asked for: one read without (a section's earlier
   * parts, embeddings off) does not answer a search that needs vectors, or that snippet would
   * be ranked without its cosine for as long as it stays cached.
   */
  withVectors?: boolean;
}

/**
 * How a candidate's vector is read back: not at all (embeddings off), from `_source` (8.x keeps
 * it there), or rebuilt into `_source` on request (9.x leaves vectors out of it: mappings.ts).
 */
export type VectorRead = 'none' | 'source' | 'rebuild';

/** The key of one stored version of a document: any write gives a new one. */
export function versionKey(hit: Pick<HotHit<unknown>, '_id' | '_seq_no' | '_primary_term'>): string | undefined {
  if (hit._id === undefined || hit._seq_no === undefined || hit._primary_term === undefined) return undefined;
  return `${hit._id}@${hit._seq_no}.${hit._primary_term}`;
}

/** The snippets a process keeps (least recently used first out). */
export class SnippetLru extends Lru<CachedCandidate> {
  constructor(capacity: number = CANDIDATE_CACHE_SIZE) {
    super(capacity);
  }
}

type SourceRead = ContextSnippet & CandidateEvidence['text'] & { embedding?: number[] };

/** The doc values a hit's `_id` is made of. */
const ID_FIELDS = ['id', 'generation'];

/** Gives a hit read without stored fields its `_id` again, from its snippet id and generation (in place: the hit was just parsed). */
function withIdFromDocValues(hit: HotHit<never>): HotHit<never> {
  const id = hit.fields?.id?.[0];
  const generation = hit.fields?.generation?.[0];
  if (typeof id === 'string' && typeof generation === 'number') hit._id = docId({ id, generation });
  return hit;
}

/** The `_source` part of the request that reads candidates with their evidence. */
export function candidateSource(vectors: VectorRead): object {
  const includes = [...CONTEXT_SOURCE_FIELDS, ...EVIDENCE_FIELDS, ...(vectors === 'none' ? [] : ['embedding'])];
  return vectors === 'rebuild' ? { includes, exclude_vectors: false } : includes;
}

/** Splits a read `_source` into the context fields and the evidence. */
function cachedFrom(source: SourceRead): CachedCandidate {
  const { embedding, searchTitle, searchBreadcrumb, searchBody, searchCode, searchPath, searchIdentifiers, ...doc } = source;
  const text = {
    searchTitle: searchTitle ?? '',
    searchBreadcrumb: searchBreadcrumb ?? '',
    searchBody: searchBody ?? '',
    searchCode: searchCode ?? '',
    searchPath: searchPath ?? '',
    searchIdentifiers: searchIdentifiers ?? '',
  };
  return { doc, evidence: Array.isArray(embedding) ? { text, vector: Float32Array.from(embedding) } : { text } };
}

/**
 * Runs a candidate search (a context or kNN request body) for ids, scores and sequence
 * numbers only, then takes each snippet with its evidence from `cache` or, for those it
 * lacks, from one `ids` search of the same index. Candidates come back in the search's order.
 */
export async function searchCandidates(
  hot: Pick<HotSearch, 'search'>,
  index: string,
  body: object,
  cache: SnippetLru,
  vectors: VectorRead = 'none',
): Promise<ScoredCandidate[]> {
  const hits = (
    await hot.search<never>(index, { ...body, _source: false, stored_fields: '_none_', docvalue_fields: ID_FIELDS, seq_no_primary_term: true })
  ).map(withIdFromDocValues);
  // Each hit's snippet from the cache, looked up once; the ones it lacks are read by id.
  const docs = hits.map((h) => {
    const key = versionKey(h);
    const entry = key !== undefined ? cache.get(key) : undefined;
    return entry && (vectors === 'none' || entry.withVectors) ? entry : undefined;
  });
  const missing = hits.flatMap((h, i) => (docs[i] === undefined && h._id !== undefined ? [h._id] : []));
  if (missing.length > 0) {
    const read = await hot.search<SourceRead>(index, {
      size: missing.length,
      track_total_hits: false,
      _source: candidateSource(vectors),
      seq_no_primary_term: true,
      query: { ids: { values: missing } },
    });
    const byId = new Map<string, CachedCandidate>();
    for (const d of read) {
      if (!d._source || d._id === undefined) continue;
      const entry = { ...cachedFrom(d._source), withVectors: vectors !== 'none' };
      byId.set(d._id, entry);
      const key = versionKey(d);
      if (key !== undefined) cache.set(key, entry);
    }
    hits.forEach((h, i) => {
      if (docs[i] === undefined && h._id !== undefined) docs[i] = byId.get(h._id);
    });
  }
  const out: ScoredCandidate[] = [];
  hits.forEach((h, i) => {
    const entry = docs[i];
    if (entry) out.push({ doc: entry.doc, score: h._score ?? 0, evidence: entry.evidence });
  });
  return out;
}
