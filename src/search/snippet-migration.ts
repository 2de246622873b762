/**
 * Moving the snippets index to a new mapping version (`SnippetStore.ensureIndex`): finding
 * the indices of older versions behind the alias, and copying their documents into the new
 * one (vectors restored from the vector cache where `_source` lacks them).
 */
import type { estypes } from '@elastic/elasticsearch';
import type { EsClient } from './client';
import type { SnippetDocument } from './types';
import { BACKGROUND, BULK_CHUNK } from './snippet-writes';

/**
 * Gives documents read back from `_source` their vectors again (from the vector cache):
 * since mapping version 4 `_source` does not hold them, so a copy without it would index
 * snippets the kNN leg cannot find.
 */
export type RestoreVectors = (docs: SnippetDocument[]) => Promise<SnippetDocument[]>;

/** Indices of earlier mapping versions that the alias still points at. */
export async function olderIndices(es: EsClient, alias: string, physical: string, prefix: string): Promise<string[]> {
  if (!(await es.indices.existsAlias({ name: alias }))) return [];
  const aliases = await es.indices.getAlias({ name: alias });
  return Object.keys(aliases).filter((index) => index !== physical && index.startsWith(`${prefix}-snippets-v`));
}

/**
 * Copies every snippet of `from` into `to`; returns how many. Documents whose `_source`
 * lacks the vector (an index of version 4 or later) get it back from `restoreVectors`; an
 * older index's `_source` still carries it.
 */
export async function copyIndex(client: EsClient, from: string, to: string, restoreVectors?: RestoreVectors): Promise<number> {
  let after: estypes.SortResults | undefined;
  let copied = 0;
  for (;;) {
    const res = await client.search<SnippetDocument>(
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
    const operations = hits.flatMap((h, i) => [{ index: { _index: to, _id: h._id } }, docs[i]]);
    const bulk = await client.bulk({ operations, refresh: false }, BACKGROUND);
    if (bulk.errors) {
      const first = bulk.items.find((it) => it.index?.error)?.index?.error;
      throw new Error(`Copying snippets from ${from} failed: ${first?.type ?? 'error'}: ${first?.reason ?? 'unknown'}`);
    }
    copied += hits.length;
    after = hits[hits.length - 1].sort;
  }
  await client.indices.refresh({ index: to }, BACKGROUND);
  return copied;
}
