/**
 * The catalogue index (`<prefix>-libraries-v1` behind the alias `<prefix>-libraries`): one
 * document per library copy (catalog-document.ts), written whenever a library record changes
 * (catalog/catalog-sync.ts) and searched by library search (queries/catalog.ts), so a lookup
 * never lists the catalogue. MongoDB stays the record of truth: the index can be rebuilt from
 * it at any time (`reconcile` at start-up).
 *
 * Writes carry the record's last change time as an external version (`external_gte`), so a
 * slower writer holding an older record cannot replace a newer document.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { EsClient, HotHit, HotSearch } from './client';
import { CATALOG_DOCUMENT_FORM, CATALOG_MAPPINGS, type CatalogDocument } from './catalog-document';
import { BACKGROUND } from './snippet-writes';

export const CATALOG_MAPPING_VERSION = 1;

/** What reconciliation compares: a document's key, version and shape. */
export interface CatalogStamp {
  key: string;
  changedAt: number;
  /** `CATALOG_DOCUMENT_FORM` when written; absent in documents older than the field. */
  form?: number;
}

/** Whether a document holds every field this code writes (else reconciliation rewrites it). */
export function currentForm(stamp: Pick<CatalogStamp, 'form'>): boolean {
  return stamp.form === CATALOG_DOCUMENT_FORM;
}

const BULK_DOCS = 500;
/**
 * A record's write waits for its catalogue document: briefly, and without retries, so a
 * write made while Elasticsearch is down is not held up (catalog-sync.ts retries it later).
 */
const WRITE = { requestTimeout: 10_000, maxRetries: 0 };

export class CatalogIndex {
  readonly alias: string;
  readonly physical: string;
  /**
   * Writes this process made visible (puts, removes, refreshes): what library search's
   * remembered answers are keyed by besides the catalogue's generation, which a record write
   * moves before its document is written.
   */
  private changes = 0;

  constructor(
    private readonly es: EsClient,
    private readonly hot: HotSearch,
    prefix: string,
    private readonly layout: { shards: number; replicas: number } = { shards: 1, replicas: 0 },
  ) {
    this.alias = `${prefix}-libraries`;
    this.physical = `${prefix}-libraries-v${CATALOG_MAPPING_VERSION}`;
  }

  /**
   * Creates the index and its alias when missing (idempotent, safe to race); true when it was
   * created. An existing index takes the fields added since it was made (new fields only, so
   * in place); reconciliation then rewrites the documents of an older form.
   */
  async ensureIndex(): Promise<boolean> {
    if (await this.es.indices.exists({ index: this.physical })) {
      await this.es.indices.putMapping({ index: this.physical, ...CATALOG_MAPPINGS }, { requestTimeout: 35_000 });
      return false;
    }
    try {
      await this.es.indices.create(
        {
          index: this.physical,
          settings: { number_of_shards: this.layout.shards, number_of_replicas: this.layout.replicas },
          mappings: CATALOG_MAPPINGS,
          aliases: { [this.alias]: { is_write_index: true } },
        },
        { requestTimeout: 35_000 },
      );
    } catch (error) {
      if (!String((error as Error).message).includes('resource_already_exists_exception')) throw error;
      return false;
    }
    await this.es.cluster.health({ index: this.physical, wait_for_status: 'yellow', timeout: '30s' }, { requestTimeout: 35_000 });
    return true;
  }

  /**
   * Writes documents (in bulks of 500) and makes them searchable before it returns, unless
   * `refresh` is false (a bulk load refreshes once at the end). A conflict means a newer
   * document is there already, which is what we want.
   */
  async put(docs: readonly CatalogDocument[], options: { refresh?: boolean } = {}): Promise<void> {
    for (let i = 0; i < docs.length; i += BULK_DOCS) {
      const operations = docs
        .slice(i, i + BULK_DOCS)
        .flatMap((doc) => [{ index: { _index: this.alias, _id: doc.key, version: doc.changedAt, version_type: 'external_gte' as const } }, doc]);
      const res = await this.es.bulk({ operations }, docs.length > BULK_DOCS ? BACKGROUND : WRITE);
      if (res.errors) throwFirst(res.items, 'index');
    }
    if (docs.length > 0 && options.refresh !== false) await this.refresh();
    this.changes++;
  }

  /** Deletes the documents of removed libraries (a missing one is fine). */
  async remove(keys: readonly string[], options: { refresh?: boolean } = {}): Promise<void> {
    for (let i = 0; i < keys.length; i += BULK_DOCS) {
      const operations = keys.slice(i, i + BULK_DOCS).map((key) => ({ delete: { _index: this.physical, _id: key } }));
      const res = await this.es.bulk({ operations }, keys.length > BULK_DOCS ? BACKGROUND : WRITE);
      if (res.errors) throwFirst(res.items, 'delete');
    }
    if (keys.length > 0 && options.refresh !== false) await this.refresh();
    this.changes++;
  }

  async refresh(): Promise<void> {
    await this.es.indices.refresh({ index: this.alias }, WRITE);
    this.changes++;
  }

  /** How many writes this process has made visible so far (it only grows). */
  get changeCount(): number {
    return this.changes;
  }

  /** The hot-path search (library search). */
  search<T = Partial<CatalogDocument>>(body: estypes.SearchRequest): Promise<Array<HotHit<T>>> {
    return this.hot.search<T>(this.alias, body);
  }

  /** Every document's key and version, in key order (reconciliation). */
  async *stamps(pageSize = 5000): AsyncGenerator<CatalogStamp[]> {
    let after: estypes.SortResults | undefined;
    for (;;) {
      const res = await this.es.search<CatalogStamp>(
        {
          index: this.alias,
          size: pageSize,
          _source: ['key', 'changedAt', 'form'],
          sort: [{ key: 'asc' }],
          query: { match_all: {} },
          ...(after ? { search_after: after } : {}),
        },
        BACKGROUND,
      );
      const hits = res.hits.hits;
      const page = hits.flatMap((h) => (h._source ? [h._source] : []));
      if (page.length > 0) yield page;
      if (hits.length < pageSize) return;
      after = hits[hits.length - 1].sort;
    }
  }

  /** How many library copies the index holds. */
  async count(): Promise<number> {
    return (await this.es.count({ index: this.alias }, BACKGROUND)).count;
  }
}

function throwFirst(items: Array<Partial<Record<estypes.BulkOperationType, estypes.BulkResponseItem>>>, kind: 'index' | 'delete'): void {
  for (const item of items) {
    const result = item[kind];
    // 409: a newer version is indexed (index), 404: already gone (delete).
    if (!result?.error || result.status === 409 || result.status === 404) continue;
    throw new Error(`Elasticsearch refused a catalogue ${kind}: ${result.error.type}: ${result.error.reason ?? 'unknown'}`);
  }
}
