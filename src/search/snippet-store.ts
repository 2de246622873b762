/**
 * The snippets index. One physical index per mapping version (`<prefix>-snippets-v3`)
 * behind an alias (`<prefix>-snippets`); at start-up an index of an older mapping version is
 * copied into the current one and the alias moved (`ensureIndex`). Within it, each library
 * version's build is written as a new *generation*: a full build writes every snippet, a
 * refresh only those of changed files and marks the ones they replace (`retired`); readers
 * filter on the generation MongoDB says is served (served.ts), so a build becomes visible in
 * one step and what it replaced is deleted afterwards. The bulk mechanics of writes, marks and
 * deletions are in snippet-writes.ts, the copy into a new mapping version in snippet-migration.ts.
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
import type { ScoredCandidate, SnippetDocument } from './types';
import { SnippetLru, searchCandidates, type VectorRead } from './candidate-cache';
import { TermStatsCache, type TermStats } from './term-stats';
import { buildSectionPartsQuery, type SectionPartsInput } from './queries/section-parts';
import { baseOf, versionFilter, type ServedGeneration, type SourceScope } from './served';
import { BACKGROUND, deleteUnseen, deleteWhere, updateWhere, writeAndUpdate, type WriteTarget } from './snippet-writes';
import { copyIndex, olderIndices, type RestoreVectors } from './snippet-migration';

/**
 * One library version at the generation it serves (or would serve). `baseGeneration` must be
 * named (undefined for a record from before incremental builds): reading a refreshed version
 * by its generation alone would miss every snippet its refresh kept.
 */
export type VersionScope = { libraryId: string; version: string; generation: number; baseGeneration: number | undefined; also?: readonly SourceScope[] };

/**
 * 3: the `embedding` dense_vector field. 4: `retired` (incremental builds, search/served.ts),
 * and vectors left out of `_source` (mappings.ts). 5: `pageKind`, `pageVersion` and `part`
 * (section snippets and page kinds).
 */
export const SNIPPETS_MAPPING_VERSION = 5;

/** Compaction waits this long after the last write, so a batch of builds merges once. */
const COMPACT_DELAY_MS = 10_000;
/**
 * What a refresh retired is deleted this long after its switch: a reader holding the library
 * record from before the switch (cached up to 6 s, see "Generations") still gets the whole
 * previous version meanwhile, instead of it without the replaced snippets. Whatever a
 * process exit leaves behind is deleted by the version's next build (`repair`).
 */
const COLLECT_DELAY_MS = 15_000;
/** Larger indices are left to Elasticsearch's merge policy (a forced merge rewrites it all). */
const MAX_COMPACT_BYTES = 4 * 1024 ** 3;

export interface SnippetStoreOptions {
  /** The connection of the hot-path searches (`searchHits`). */
  hot: HotSearch;
  /** The cluster's major version (how vectors are read back; 9 when unknown). */
  esMajor?: number;
  compactDelayMs?: number;
  /** See COLLECT_DELAY_MS. */
  collectDelayMs?: number;
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
  private readonly collectTimers = new Set<NodeJS.Timeout>();
  private readonly target: WriteTarget;
  private readonly candidates = new SnippetLru();
  private readonly terms = new TermStatsCache(async (body) => {
    const answer = await this.options.hot.aggregate<{ df?: { buckets?: Record<string, { doc_count?: number }> } }>(this.alias, body);
    const df: Record<string, number> = {};
    for (const [term, bucket] of Object.entries(answer.aggregations?.df?.buckets ?? {})) df[term] = bucket.doc_count ?? 0;
    return { total: answer.total, df };
  });

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
    this.target = { client: this.indexing, alias: this.alias };
  }

  /**
   * Creates the physical index and alias when missing (idempotent, safe to race). When the
   * alias still points at an index of an older mapping version, its snippets are copied into
   * the new index, the alias is moved in one step and the old index deleted. Run it with no
   * other instance writing (stop them for an upgrade): a snippet written to the old index
   * during the copy would be lost.
   */
  async ensureIndex(options: { restoreVectors?: RestoreVectors } = {}): Promise<{ migrated?: { from: string; snippets: number } }> {
    const old = await olderIndices(this.es, this.alias, this.physical, this.prefix);
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
      const snippets = await copyIndex(this.indexing, from, this.physical, options.restoreVectors);
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
    while (this.compacting !== undefined) await this.compacting.catch(() => undefined);
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

  /** Cancels a scheduled compaction and collections and waits for a running compaction (at shutdown). */
  async close(): Promise<void> {
    for (const timer of this.collectTimers) clearTimeout(timer);
    this.collectTimers.clear();
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = undefined;
    await this.compacting?.catch(() => undefined);
  }

  /** Writes snippets of one generation; they stay invisible until that generation is switched in. */
  async write(docs: SnippetDocument[], onProgress?: (written: number) => void): Promise<void> {
    await writeAndUpdate(this.target, docs, undefined, onProgress);
  }

  /**
   * Reads every snippet a version serves at `generation` (see served.ts), optionally only of
   * some files, optionally only some fields (`fields`: totals and quality checks of a build
   * that wrote only what changed).
   */
  async read(filter: VersionScope & { paths?: string[]; fields?: readonly (keyof SnippetDocument)[] }): Promise<SnippetDocument[]> {
    const out: SnippetDocument[] = [];
    const must = versionFilter(filter);
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
            // Never the vectors: ES 9 keeps them out of `_source`, and on 8.x (where `_source`
            // still holds them) they are left out here, so readers see the same documents.
            _source: filter.fields ? [...filter.fields] : { excludes: ['embedding'] },
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

  /** How many documents a version serves at a generation (backup checks). */
  async count(filter: VersionScope): Promise<number> {
    const res = await this.indexing.count({ index: this.alias, query: { bool: { filter: versionFilter(filter) } } }, BACKGROUND);
    return res.count;
  }

  /**
   * Every stored document a version serves at a generation, in pages of `pageSize`, exactly
   * as stored (`_source`, fields other engineers add included), in the index's own order:
   * bundles export them without holding a library in memory, and an importer that writes
   * them in this order gets the same tie-breaks between equal scores (they follow index
   * order). Read through a point in time, so merges during the scan neither skip nor repeat one.
   */
  async *scan(filter: VersionScope, pageSize = 2000): AsyncGenerator<Array<Record<string, unknown>>> {
    const pit = await this.indexing.openPointInTime({ index: this.alias, keep_alive: '2m' }, BACKGROUND);
    try {
      let after: estypes.SortResults | undefined;
      for (;;) {
        const res = await this.indexing.search<Record<string, unknown>>(
          {
            pit: { id: pit.id, keep_alive: '2m' },
            size: pageSize,
            query: { bool: { filter: versionFilter(filter) } },
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

  /**
   * Writes a refresh's snippets (`docs`, of `generation`) and marks `retired: generation` on
   * every snippet the version serves at `served` whose file is not in `keep` (files changed,
   * removed or left out by this build): the marks are partial updates by id in the same bulk
   * requests as the writes, behind one refresh. Readers of `served` still see the marked ones
   * (retired > served) until the version switches to `generation`. Returns how many were marked.
   */
  async writeRetiring(
    docs: SnippetDocument[],
    scope: { libraryId: string; version: string; served: ServedGeneration; keep: readonly string[] },
    generation: number,
    onProgress?: (written: number) => void,
  ): Promise<number> {
    const query: estypes.QueryDslQueryContainer = {
      bool: {
        filter: versionFilter({ libraryId: scope.libraryId, version: scope.version, ...scope.served }),
        must_not: scope.keep.length > 0 ? [{ terms: { path: [...scope.keep] } }] : [],
      },
    };
    return writeAndUpdate(this.target, docs, { query, fields: { retired: generation } }, onProgress);
  }

  /**
   * Undoes what an unpublished build of `generation` did: its documents deleted, its marks
   * removed (a build that failed or was refused after writing).
   */
  async undoBuild(scope: { libraryId: string; version: string; generation: number }): Promise<void> {
    const base = [{ term: { libraryId: scope.libraryId } }, { term: { version: scope.version } }];
    await deleteWhere(this.target, { bool: { filter: [...base, { term: { generation: scope.generation } }] } });
    await updateWhere(this.target, { bool: { filter: [...base, { term: { retired: scope.generation } }] } }, { retired: null });
  }

  /**
   * Before a build of a version (its build slot held, so no other build of it runs): whatever
   * an earlier build left above the served generation — documents written and marks set by a
   * build that crashed before publishing — is undone, and what the served generation no
   * longer shows is deleted. Returns the documents deleted and the marks undone.
   */
  async repair(scope: { libraryId: string; version: string; served: ServedGeneration }): Promise<{ deleted: number; unmarked: number }> {
    const base = [{ term: { libraryId: scope.libraryId } }, { term: { version: scope.version } }];
    const g = scope.served.generation;
    const deleted = await deleteWhere(this.target, { bool: { filter: [...base, { range: { generation: { gt: g } } }] } });
    const unmarked = await updateWhere(this.target, { bool: { filter: [...base, { range: { retired: { gt: g } } }] } }, { retired: null });
    return { deleted: deleted + (await this.collect(scope)), unmarked };
  }

  /**
   * Deletes the documents a version no longer serves at `served` and never will again: those
   * of builds before its last full rebuild and those retired at or below it. Documents of a
   * newer build being written are not touched.
   */
  async collect(scope: { libraryId: string; version: string; served: ServedGeneration }): Promise<number> {
    const g = scope.served.generation;
    const deleted = await deleteWhere(this.target, {
      bool: {
        filter: [{ term: { libraryId: scope.libraryId } }, { term: { version: scope.version } }],
        should: [{ range: { generation: { lt: baseOf(scope.served) } } }, { range: { retired: { lte: g } } }],
        minimum_should_match: 1,
      },
    });
    this.scheduleCompaction();
    return deleted;
  }

  /** `collect` COLLECT_DELAY_MS from now, in the background (after a refresh's switch). Never throws. */
  collectLater(scope: { libraryId: string; version: string; served: ServedGeneration }): void {
    const timer = setTimeout(() => {
      this.collectTimers.delete(timer);
      this.collect(scope).catch((error: unknown) => this.options.onBackgroundError?.('deleting retired snippets', error));
    }, this.options.collectDelayMs ?? COLLECT_DELAY_MS);
    timer.unref();
    this.collectTimers.add(timer);
  }

  /** Deletes every generation of a library version except `keep` (or all when undefined). */
  async deleteGenerations(filter: { libraryId: string; version?: string; keep?: number; below?: number; only?: number }): Promise<number> {
    const must: estypes.QueryDslQueryContainer[] = [{ term: { libraryId: filter.libraryId } }];
    if (filter.version !== undefined) must.push({ term: { version: filter.version } });
    if (filter.below !== undefined) must.push({ range: { generation: { lt: filter.below } } });
    if (filter.only !== undefined) must.push({ term: { generation: filter.only } });
    const mustNot: estypes.QueryDslQueryContainer[] = filter.keep !== undefined ? [{ term: { generation: filter.keep } }] : [];
    const deleted = await deleteWhere(this.target, { bool: { filter: must, must_not: mustNot } });
    // Every build and every deletion ends here: merge the segments they left behind.
    this.scheduleCompaction();
    return deleted;
  }

  /**
   * Deletes every document of a library whose record is gone (so no reader serves them),
   * in work proportional to its documents: no refresh (they are invisible already) and no
   * compaction (the merge policy reclaims deleted documents with the segments' next merges).
   */
  async deleteLibrary(libraryId: string): Promise<number> {
    return deleteUnseen(this.target, { term: { libraryId } });
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

  /** The candidates of a context or kNN query, their snippets from this process's cache where it has them (candidate-cache.ts). */
  /** Earlier parts of long sections (queries/section-parts.ts), through the candidates' cache. */
  sectionParts(input: SectionPartsInput): Promise<ScoredCandidate[]> {
    return searchCandidates(this.options.hot, this.alias, buildSectionPartsQuery(input), this.candidates, 'none');
  }

  /** How many snippets of a library version hold each term, and how many it has (cached per served generation). */
  termStats(scope: VersionScope, terms: readonly string[]): Promise<TermStats> {
    return this.terms.stats(scope, terms);
  }

  /** Context candidates with their evidence (analysed text, and their vectors when asked). */
  searchCandidates(body: estypes.SearchRequest, options: { vectors?: boolean } = {}): Promise<ScoredCandidate[]> {
    // 9.x leaves vectors out of `_source` and rebuilds them on request; 8.x keeps them there.
    const vectors: VectorRead = !options.vectors ? 'none' : (this.options.esMajor ?? 9) >= 9 ? 'rebuild' : 'source';
    return searchCandidates(this.options.hot, this.alias, body, this.candidates, vectors);
  }
}

function chunked<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
