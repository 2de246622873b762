/**
 * Replicas of Shelfmark's indices, as `SHELFMARK_INDEX_REPLICAS` says: applied at start-up to
 * indices that exist (a dynamic setting, so a single node's indices gain replicas when nodes
 * join, and lose them again), new ones are created with it. Shards are fixed at creation
 * (`SHELFMARK_INDEX_SHARDS`); an index made with another count keeps it (changing it needs a
 * reindex), which start-up reports.
 */
import type { EsClient } from './client';

export interface IndexLayout {
  shards: number;
  replicas: number;
}

/** Sets the replica count of `indices` where it differs; returns the indices whose shard count differs from the layout's. */
export async function applyIndexLayout(es: EsClient, indices: readonly string[], layout: IndexLayout): Promise<{ changed: string[]; otherShards: string[] }> {
  const settings = await es.indices.getSettings({
    index: [...indices],
    name: ['index.number_of_replicas', 'index.number_of_shards'],
    flat_settings: true,
    ignore_unavailable: true,
  });
  const changed: string[] = [];
  const otherShards: string[] = [];
  for (const [index, value] of Object.entries(settings)) {
    const flat = (value.settings ?? {}) as Record<string, string>;
    if (Number(flat['index.number_of_replicas']) !== layout.replicas) changed.push(index);
    if (Number(flat['index.number_of_shards']) !== layout.shards) otherShards.push(index);
  }
  if (changed.length > 0) await es.indices.putSettings({ index: changed, settings: { number_of_replicas: layout.replicas } });
  return { changed, otherShards };
}
