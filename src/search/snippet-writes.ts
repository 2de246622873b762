/**
 * The write side of the snippets index (SnippetStore delegates here): bulk writes of a
 * build's documents, `retired` marks, and updates and deletions by query. The cluster has no
 * scripting, `_update_by_query` or `_delete_by_query`, so every change by query finds the ids
 * first and then sends bulk actions by id.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { EsClient } from './client';
import type { SnippetDocument } from './types';

/** Where the writes go: the indexing client and the index alias. */
export interface WriteTarget {
  client: EsClient;
  alias: string;
}

export const BULK_CHUNK = 1000;
/** Bulk requests of one write in flight at once. */
const BULK_CONCURRENCY = 2;
/**
 * Transport options of the indexing side (bulk writes, refreshes, scans, deletions). The
 * client's short store timeout makes API requests fail fast when the cluster is down; a
 * job waits longer, so a busy cluster (a merge, another build) slows a build instead of
 * failing it.
 */
export const BACKGROUND = { requestTimeout: 120_000 };
const ID_PAGE = 5000;

type Action = { index: { _index: string; _id: string } } | SnippetDocument | { update: { _index: string; _id: string } } | { doc: Partial<SnippetDocument> };

/**
 * Writes `docs` and sets `fields` on every document `retire.query` matches, in the same bulk
 * requests and behind one refresh (a refresh costs more than a few hundred actions). The ids
 * to update are found first, while nothing written yet can match. Returns how many were updated.
 */
export async function writeAndUpdate(
  t: WriteTarget,
  docs: readonly SnippetDocument[],
  retire?: { query: estypes.QueryDslQueryContainer; fields: Partial<SnippetDocument> },
  onProgress?: (written: number) => void,
): Promise<number> {
  const targets = retire ? await findIds(t, retire.query) : [];
  const actions: Action[][] = [
    ...docs.map((d): Action[] => [{ index: { _index: t.alias, _id: docId(d) } }, d]),
    ...targets.map((target): Action[] => [{ update: { _index: target.index, _id: target.id } }, { doc: retire?.fields ?? {} }]),
  ];
  // Two bulk requests in flight: a shard indexes concurrent requests on separate write threads
  // (Lucene's per-thread writers), so a large write uses more than one core of the cluster.
  let next = 0;
  let written = 0;
  let failure: Error | undefined;
  const send = async (): Promise<void> => {
    while (failure === undefined && next < actions.length) {
      const start = next;
      next += BULK_CHUNK;
      const res = await t.client.bulk({ operations: actions.slice(start, start + BULK_CHUNK).flat(), refresh: false }, BACKGROUND);
      if (res.errors) {
        const item = res.items.find((it) => it.index?.error ?? it.update?.error);
        const first = item?.index?.error ?? item?.update?.error;
        failure ??= new Error(`Elasticsearch rejected snippets: ${first?.type ?? 'error'}: ${first?.reason ?? 'unknown'}`);
        return;
      }
      written += Math.min(BULK_CHUNK, actions.length - start);
      onProgress?.(Math.min(written, docs.length));
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(BULK_CONCURRENCY, Math.ceil(actions.length / BULK_CHUNK)) }, send));
  const thrown = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure !== undefined || thrown) {
    // What this request and earlier ones did write must be visible to the clean-up that
    // follows (deletions find ids by search), or it stays behind as orphans.
    await t.client.indices.refresh({ index: t.alias }, BACKGROUND).catch(() => undefined);
    throw failure ?? thrown?.reason;
  }
  if (actions.length > 0) await t.client.indices.refresh({ index: t.alias }, BACKGROUND);
  return targets.length;
}

/** Sets `fields` on every document matching `query` (bulk partial updates by id), then refreshes. */
export async function updateWhere(t: WriteTarget, query: estypes.QueryDslQueryContainer, fields: Partial<SnippetDocument>): Promise<number> {
  return writeAndUpdate(t, [], { query, fields });
}

/** Deletes every document matching `query`, refreshed. */
export async function deleteWhere(t: WriteTarget, query: estypes.QueryDslQueryContainer): Promise<number> {
  let deleted = 0;
  for (;;) {
    const res = await t.client.search({ index: t.alias, size: ID_PAGE, _source: false, query }, BACKGROUND);
    const hits = res.hits.hits;
    if (hits.length === 0) break;
    const operations = hits.map((h) => ({ delete: { _index: h._index, _id: h._id } }));
    await t.client.bulk({ operations, refresh: true }, BACKGROUND);
    deleted += hits.length;
  }
  return deleted;
}

/**
 * Deletes every document matching `query` that no reader can see any more (a deleted
 * library's), without refreshing: the ids are paged through with search_after and deleted in
 * bulks, so the work is proportional to the documents deleted, not to repeated searches of an
 * index refreshed after each bulk. Returns how many were deleted.
 */
export async function deleteUnseen(t: WriteTarget, query: estypes.QueryDslQueryContainer): Promise<number> {
  const targets = await findIds(t, query);
  for (let i = 0; i < targets.length; i += BULK_CHUNK) {
    const operations = targets.slice(i, i + BULK_CHUNK).map((d) => ({ delete: { _index: d.index, _id: d.id } }));
    const res = await t.client.bulk({ operations, refresh: false }, BACKGROUND);
    if (res.errors) {
      const failed = res.items.find((it) => it.delete?.error);
      throw new Error(`Elasticsearch refused a deletion: ${failed?.delete?.error?.type ?? 'error'}: ${failed?.delete?.error?.reason ?? 'unknown'}`);
    }
  }
  return targets.length;
}

/**
 * The ids of every document matching `query`, collected before anything changes (sorted,
 * through search_after), so an update that makes a document stop matching cannot skip others.
 */
async function findIds(t: WriteTarget, query: estypes.QueryDslQueryContainer): Promise<{ index: string; id: string }[]> {
  const targets: { index: string; id: string }[] = [];
  let after: estypes.SortResults | undefined;
  for (;;) {
    const res = await t.client.search(
      { index: t.alias, size: ID_PAGE, _source: false, query, sort: [{ id: 'asc' }, { generation: 'asc' }], ...(after ? { search_after: after } : {}) },
      BACKGROUND,
    );
    const hits = res.hits.hits;
    for (const h of hits) if (h._id) targets.push({ index: h._index, id: h._id });
    if (hits.length < ID_PAGE) break;
    after = hits[hits.length - 1].sort;
  }
  return targets;
}

/** A document's id in the index: the snippet's id under its generation. */
export function docId(d: Pick<SnippetDocument, 'id' | 'generation'>): string {
  return `${d.id}:${d.generation}`;
}
