/**
 * The snippets index. One physical index per mapping version (`<prefix>-snippets-v1`)
 * behind an alias (`<prefix>-snippets`), so a mapping change can be rolled out by building
 * `-v2` and moving the alias. Within it, each library version is written as a new
 * *generation*; readers filter on the generation MongoDB says is current, so a new build
 * replaces the old one in one step and old generations are deleted afterwards.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { EsClient } from './client';
import type { SnippetDocument } from '../indexing/types';

export const SNIPPETS_MAPPING_VERSION = 1;
const BULK_CHUNK = 1000;

export interface IndexDefinition {
  settings: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
}

export class SnippetStore {
  readonly alias: string;
  readonly physical: string;

  constructor(
    private readonly es: EsClient,
    prefix: string,
    private readonly definition: IndexDefinition,
  ) {
    this.alias = `${prefix}-snippets`;
    this.physical = `${prefix}-snippets-v${SNIPPETS_MAPPING_VERSION}`;
  }

  /** Creates the physical index and alias when missing (idempotent, safe to race). */
  async ensureIndex(): Promise<void> {
    const exists = await this.es.indices.exists({ index: this.physical });
    if (!exists) {
      try {
        await this.es.indices.create({
          index: this.physical,
          settings: this.definition.settings,
          mappings: this.definition.mappings,
          aliases: { [this.alias]: { is_write_index: true } },
        });
      } catch (error) {
        if (!String((error as Error).message).includes('resource_already_exists_exception')) throw error;
      }
    }
    const hasAlias = await this.es.indices.existsAlias({ name: this.alias, index: this.physical });
    if (!hasAlias) await this.es.indices.putAlias({ index: this.physical, name: this.alias });
    await this.es.cluster.health({ index: this.physical, wait_for_status: 'yellow', timeout: '30s' });
  }

  /** Writes snippets of one generation; they stay invisible until that generation is switched in. */
  async write(docs: SnippetDocument[], onProgress?: (written: number) => void): Promise<void> {
    for (let i = 0; i < docs.length; i += BULK_CHUNK) {
      const chunk = docs.slice(i, i + BULK_CHUNK);
      const operations = chunk.flatMap((d) => [{ index: { _index: this.alias, _id: docId(d) } }, d]);
      const res = await this.es.bulk({ operations, refresh: false });
      if (res.errors) {
        const first = res.items.find((it) => it.index?.error)?.index?.error;
        throw new Error(`Elasticsearch rejected snippets: ${first?.type ?? 'error'}: ${first?.reason ?? 'unknown'}`);
      }
      onProgress?.(Math.min(i + BULK_CHUNK, docs.length));
    }
    await this.es.indices.refresh({ index: this.alias });
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
        const res = await this.es.search<SnippetDocument>({
          index: this.alias,
          size: 2000,
          query: { bool: { filter: paths ? [...must, { terms: { path: paths } }] : must } },
          sort: [{ id: 'asc' }],
          ...(after ? { search_after: after } : {}),
        });
        const hits = res.hits.hits;
        for (const h of hits) if (h._source) out.push(h._source);
        if (hits.length < 2000) break;
        after = hits[hits.length - 1].sort;
      }
    }
    return out;
  }

  /** Deletes every generation of a library version except `keep` (or all when undefined). */
  async deleteGenerations(filter: { libraryId: string; version?: string; keep?: number }): Promise<number> {
    // No _delete_by_query on the server-core distribution: find ids, then bulk delete.
    const must: estypes.QueryDslQueryContainer[] = [{ term: { libraryId: filter.libraryId } }];
    if (filter.version !== undefined) must.push({ term: { version: filter.version } });
    const mustNot: estypes.QueryDslQueryContainer[] = filter.keep !== undefined ? [{ term: { generation: filter.keep } }] : [];
    let deleted = 0;
    for (;;) {
      const res = await this.es.search({
        index: this.alias,
        size: 5000,
        _source: false,
        query: { bool: { filter: must, must_not: mustNot } },
      });
      const hits = res.hits.hits;
      if (hits.length === 0) break;
      const operations = hits.map((h) => ({ delete: { _index: h._index, _id: h._id } }));
      await this.es.bulk({ operations, refresh: true });
      deleted += hits.length;
    }
    return deleted;
  }

  async search<T = SnippetDocument>(body: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return this.es.search<T>({ ...body, index: this.alias });
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
