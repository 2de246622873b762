/**
 * The snippets index. One physical index per mapping version (`<prefix>-snippets-v3`)
 * behind an alias (`<prefix>-snippets`); at start-up an index of an older mapping version is
 * copied into the current one and the alias moved (`ensureIndex`). Within it, each library
 * version is written as a new *generation*; readers filter on the generation MongoDB says is
 * current, so a new build replaces the old one in one step and old generations are deleted
 * afterwards.
 *
 * Query cost: a context query's clauses look up every query term in every field of every
 * segment (for scoring statistics) before any matching, so the number of segments matters
 * as much as the number of documents. The index is sorted by library, version and
 * generation (one library version's snippets are contiguous, so the filter skips the rest
 * in large strides), and after builds and deletions it is merged back to one segment
 * (`scheduleCompaction`). Measured on the corpus (28k snippets, 8 clients): 3.7 ms of
 * Elasticsearch CPU per context query on the unsorted 6-segment index, 2.5 ms sorted and
 * merged.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { EsClient, HotHit, HotSearch } from './client';
import type { SnippetDocument } from '../indexing/types';

/** 3: the `embedding` dense_vector field. 4: vectors left out of `_source` (mappings.ts). */
export const SNIPPETS_MAPPING_VERSION = 4;

/**
 * Gives documents read back from `_source` their vectors again (from the vector cache):
 * since mapping version 4 `_source` does not hold them, so a copy without it would index
 * snippets the kNN leg cannot find.
 */
export type RestoreVectors = (docs: SnippetDocument[]) => Promise<SnippetDocument[]>;
const BULK_CHUNK = 1000;
/**
 * Transport options of the indexing side (bulk writes, refreshes, scans, deletions). The
 * client's short store timeout makes API requests fail fast when the cluster is down; a
 * job waits longer, so a busy cluster (a merge, another build) slows a build instead of
 * failing it.
 */
const BACKGROUND = { requestTimeout: 120_000 };
/** Compaction waits this long after the last write, so a batch of builds merges once. */
const COMPACT_DELAY_MS = 10_000;
/** Larger indices are left to Elasticsearch's merge policy (a forced merge rewrites it all). */
const MAX_COMPACT_BYTES = 4 * 1024 ** 3;

export interface SnippetStoreOptions {
  /** The connection of the hot-path searches (`searchHits`). */
  hot: HotSearch;
  compactDelayMs?: number;
  /**
   * The client of the indexing side (calls with BACKGROUND's longer timeout: writes,
   * refreshes, scans, deletions, merges); see `createIndexingEsClient`. Defaults to `es`.
   */
  indexing?: EsClient;
  /** Told about background work that failed (compaction); it never throws to a caller. */
  onBackgroundError?: (what: string, error: unknown) => void;
}

export interface IndexDefinition {
  settings: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
}

export class SnippetStore {
  readonly alias: string;
  readonly physical: string;

  private readonly prefix: string;
  private compactTimer: NodeJS.Timeout | undefined;
  private compacting: Promise<unknown> | undefined;
  private readonly indexing: EsClient;

  constructor(
    private readonly es: EsClient,
    prefix: string,
    private readonly definition: IndexDefinition,
    private readonly options: SnippetStoreOptions,
  ) {
    this.prefix = prefix;
    this.alias = `${prefix}-snippets`;
    this.physical = `${prefix}-snippets-v${SNIPPETS_MAPPING_VERSION}`;
    this.indexing = options.indexing ?? es;
  }

  /**
   * Creates the physical index and alias when missing (idempotent, safe to race). When the
   * alias still points at an index of an older mapping version, its snippets are copied into
   * the new index, the alias is moved in one step and the old index deleted. Run it with no
   * other instance writing (stop them for an upgrade): a snippet written to the old index
   * during the copy would be lost.
   */
  async ensureIndex(options: { restoreVectors?: RestoreVectors } = {}): Promise<{ migrated?: { from: string; snippets: number } }> {
    const old = await this.olderIndices();
    const exists = await this.es.indices.exists({ index: this.physical });
    if (!exists) {
      try {
        await this.indexing.indices.create(
          {
            index: this.physical,
            settings: this.definition.settings,
            mappings: this.definition.mappings,
            // While an older index still serves, the alias moves only once the copy is done.
            ...(old.length === 0 ? { aliases: { [this.alias]: { is_write_index: true } } } : {}),
          },
          // Creating an index on a busy or just-started node can take seconds.
          { requestTimeout: 35_000 },
        );
      } catch (error) {
        if (!String((error as Error).message).includes('resource_already_exists_exception')) throw error;
      }
    }
    await this.indexing.cluster.health({ index: this.physical, wait_for_status: 'yellow', timeout: '30s' }, { requestTimeout: 35_000 });
    let migrated: { from: string; snippets: number } | undefined;
    for (const from of old) {
      const snippets = await this.copyFrom(from, options.restoreVectors);
      await this.es.indices.updateAliases({
        actions: [
          { remove: { index: from, alias: this.alias, must_exist: false } },
          { add: { index: this.physical, alias: this.alias, is_write_index: true } },
        ],
      });
      await this.es.indices.delete({ index: from, ignore_unavailable: true });
      migrated = { from, snippets };
    }
    const hasAlias = await this.es.indices.existsAlias({ name: this.alias, index: this.physical });
    if (!hasAlias) await this.es.indices.putAlias({ index: this.physical, name: this.alias, is_write_index: true });
    if (migrated) this.scheduleCompaction(); // in the background: a large index takes a while
    return migrated ? { migrated } : {};
  }

  /** Indices of earlier mapping versions that the alias still points at. */
  private async olderIndices(): Promise<string[]> {
    if (!(await this.es.indices.existsAlias({ name: this.alias }))) return [];
    const aliases = await this.es.indices.getAlias({ name: this.alias });
    return Object.keys(aliases).filter((index) => index !== this.physical && index.startsWith(`${this.prefix}-snippets-v`));
  }

  /**
   * Copies every snippet of `from` into the current physical index; returns how many.
   * Documents whose `_source` lacks the vector (an index of version 4 or later) get it back
   * from `restoreVectors`; an older index's `_source` still carries it.
   */
  private async copyFrom(from: string, restoreVectors?: RestoreVectors): Promise<number> {
    let after: estypes.SortResults | undefined;
    let copied = 0;
    for (;;) {
      const res = await this.indexing.search<SnippetDocument>(
        {
          index: from,
          size: BULK_CHUNK,
          query: { match_all: {} },
          sort: [{ id: 'asc' }, { generation: 'asc' }],
          ...(after ? { search_after: after } : {}),
        },
        BACKGROUND,
      );
      const hits = res.hits.hits;
      if (hits.length === 0) break;
      let docs = hits.map((h) => h._source as SnippetDocument);
      if (restoreVectors && docs.some((d) => d.embedding === undefined)) {
        const restored = await restoreVectors(docs.filter((d) => d.embedding === undefined));
        let next = 0;
        docs = docs.map((d) => (d.embedding === undefined ? restored[next++] : d));
      }
      const operations = hits.flatMap((h, i) => [{ index: { _index: this.physical, _id: h._id } }, docs[i]]);
      const bulk = await this.indexing.bulk({ operations, refresh: false }, BACKGROUND);
      if (bulk.errors) {
        const first = bulk.items.find((it) => it.index?.error)?.index?.error;
        throw new Error(`Copying snippets from ${from} failed: ${first?.type ?? 'error'}: ${first?.reason ?? 'unknown'}`);
      }
      copied += hits.length;
      after = hits[hits.length - 1].sort;
    }
    await this.indexing.indices.refresh({ index: this.physical }, BACKGROUND);
    return copied;
  }

  /**
   * Merges the index back to one segment, COMPACT_DELAY_MS after the last call (builds and
   * deletions call it), in the background. Never throws; failures go to onBackgroundError.
   */
  scheduleCompaction(): void {
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = setTimeout(() => {
      this.compactTimer = undefined;
      this.compact().catch((error: unknown) => this.options.onBackgroundError?.('compacting the snippets index', error));
    }, this.options.compactDelayMs ?? COMPACT_DELAY_MS);
    this.compactTimer.unref();
  }

  /** Merges the index to one segment now, unless it already is or is too large; one at a time. */
  async compact(): Promise<{ segmentsBefore: number; merged: boolean }> {
    while (this.compacting) await this.compacting.catch(() => undefined);
    const run = (async () => {
      const stats = await this.indexing.indices.stats({ index: this.physical, metric: ['segments', 'store'] }, BACKGROUND);
      const primaries = stats.indices?.[this.physical]?.primaries;
      const segmentsBefore = primaries?.segments?.count ?? 0;
      const bytes = primaries?.store?.size_in_bytes ?? 0;
      if (segmentsBefore <= 1 || bytes > MAX_COMPACT_BYTES) return { segmentsBefore, merged: false };
      // A merge of a few hundred MB can outlast the client's request timeout.
      await this.indexing.indices.forcemerge({ index: this.physical, max_num_segments: 1 }, { requestTimeout: 15 * 60_000 });
      return { segmentsBefore, merged: true };
    })();
    this.compacting = run;
    try {
      return await run;
    } finally {
      this.compacting = undefined;
    }
  }

  /** Cancels a scheduled compaction and waits for a running one (at shutdown). */
  async close(): Promise<void> {
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = undefined;
    await this.compacting?.catch(() => undefined);
  }

  /** Writes snippets of one generation; they stay invisible until that generation is switched in. */
  async write(docs: SnippetDocument[], onProgress?: (written: number) => void): Promise<void> {
    for (let i = 0; i < docs.length; i += BULK_CHUNK) {
      const chunk = docs.slice(i, i + BULK_CHUNK);
      const operations = chunk.flatMap((d) => [{ index: { _index: this.alias, _id: docId(d) } }, d]);
      const res = await this.indexing.bulk({ operations, refresh: false }, BACKGROUND);
      if (res.errors) {
        const first = res.items.find((it) => it.index?.error)?.index?.error;
        throw new Error(`Elasticsearch rejected snippets: ${first?.type ?? 'error'}: ${first?.reason ?? 'unknown'}`);
      }
      onProgress?.(Math.min(i + BULK_CHUNK, docs.length));
    }
    await this.indexing.indices.refresh({ index: this.alias }, BACKGROUND);
  }

  /** Reads every snippet of a generation, optionally only of some files (for refresh reuse). */
  async read(filter: { libraryId: string; version: string; generation: number; paths?: string[] }): Promise<SnippetDocument[]> {
    const out: SnippetDocument[] = [];
    const must: estypes.QueryDslQueryContainer[] = [
      { term: { libraryId: filter.libraryId } },
      { term: { version: filter.version } },
      { term: { generation: filter.generation } },
    ];
    const pathChunks = filter.paths ? chunked(filter.paths, 1000) : [undefined];
    for (const paths of pathChunks) {
      if (paths && paths.length === 0) continue;
      let after: estypes.SortResults | undefined;
      for (;;) {
        const res = await this.indexing.search<SnippetDocument>(
          {
            index: this.alias,
            size: 2000,
            query: { bool: { filter: paths ? [...must, { terms: { path: paths } }] : must } },
            sort: [{ id: 'asc' }],
            ...(after ? { search_after: after } : {}),
          },
          BACKGROUND,
        );
        const hits = res.hits.hits;
        for (const h of hits) if (h._source) out.push(h._source);
        if (hits.length < 2000) break;
        after = hits[hits.length - 1].sort;
      }
    }
    return out;
  }

  /** How many documents a generation holds (backup checks). */
  async count(filter: { libraryId: string; version: string; generation: number }): Promise<number> {
    const res = await this.indexing.count(
      { index: this.alias, query: { bool: { filter: [{ term: { libraryId: filter.libraryId } }, { term: { version: filter.version } }, { term: { generation: filter.generation } }] } } },
      BACKGROUND,
    );
    return res.count;
  }

  /**
   * Every stored document of a generation, in pages of `pageSize`, exactly as stored
   * (`_source`, fields other engineers add included), in the index's own order: bundles
   * export them without holding a library in memory, and an importer that writes them in
   * this order gets the same tie-breaks between equal scores (they follow index order).
   * Read through a point in time, so merges during the scan neither skip nor repeat one.
   */
  async *scan(filter: { libraryId: string; version: string; generation: number }, pageSize = 2000): AsyncGenerator<Array<Record<string, unknown>>> {
    const pit = await this.indexing.openPointInTime({ index: this.alias, keep_alive: '2m' }, BACKGROUND);
    try {
      let after: estypes.SortResults | undefined;
      for (;;) {
        const res = await this.indexing.search<Record<string, unknown>>(
          {
            pit: { id: pit.id, keep_alive: '2m' },
            size: pageSize,
            query: { bool: { filter: [{ term: { libraryId: filter.libraryId } }, { term: { version: filter.version } }, { term: { generation: filter.generation } }] } },
            sort: [{ _shard_doc: 'asc' }],
            ...(after ? { search_after: after } : {}),
          },
          BACKGROUND,
        );
        const hits = res.hits.hits;
        const docs = hits.flatMap((h) => (h._source ? [h._source] : []));
        if (docs.length > 0) yield docs;
        if (hits.length < pageSize) return;
        after = hits[hits.length - 1].sort;
      }
    } finally {
      await this.indexing.closePointInTime({ id: pit.id }, BACKGROUND).catch(() => undefined);
    }
  }

  /** Deletes every generation of a library version except `keep` (or all when undefined). */
  async deleteGenerations(filter: { libraryId: string; version?: string; keep?: number; below?: number; only?: number }): Promise<number> {
    // No _delete_by_query on the server-core distribution: find ids, then bulk delete.
    const must: estypes.QueryDslQueryContainer[] = [{ term: { libraryId: filter.libraryId } }];
    if (filter.version !== undefined) must.push({ term: { version: filter.version } });
    if (filter.below !== undefined) must.push({ range: { generation: { lt: filter.below } } });
    if (filter.only !== undefined) must.push({ term: { generation: filter.only } });
    const mustNot: estypes.QueryDslQueryContainer[] = filter.keep !== undefined ? [{ term: { generation: filter.keep } }] : [];
    let deleted = 0;
    for (;;) {
      const res = await this.indexing.search(
        {
          index: this.alias,
          size: 5000,
          _source: false,
          query: { bool: { filter: must, must_not: mustNot } },
        },
        BACKGROUND,
      );
      const hits = res.hits.hits;
      if (hits.length === 0) break;
      const operations = hits.map((h) => ({ delete: { _index: h._index, _id: h._id } }));
      await this.indexing.bulk({ operations, refresh: true }, BACKGROUND);
      deleted += hits.length;
    }
    // Every build and every deletion ends here: merge the segments they left behind.
    this.scheduleCompaction();
    return deleted;
  }

  async search<T = SnippetDocument>(body: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return this.es.search<T>({ ...body, index: this.alias });
  }

  /**
   * The hot-path search: only each hit's `_source` and `_score` come back (`filter_path`),
   * so Elasticsearch serialises and Node parses no envelope per hit.
   */
  async searchHits<T = SnippetDocument>(body: estypes.SearchRequest): Promise<Array<HotHit<T>>> {
    return this.options.hot.search<T>(this.alias, body);
  }

}

function docId(d: SnippetDocument): string {
  return `${d.id}:${d.generation}`;
}

function chunked<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
