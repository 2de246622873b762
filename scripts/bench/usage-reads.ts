/**
 * `npx tsx scripts/bench/usage-reads.ts [--docs 13000] [--months 13] [--runs 5]`
 *
 * What the dashboard's usage reads cost as query counters accumulate: writes `--docs` query
 * counters spread over `--months` months into a scratch database of the local store, once in
 * one collection (how earlier releases kept them) and once in the months' collections
 * (store/usage-store.ts), then times a 30-day and a 90-day read of one library's counters and
 * of the questions that found nothing, each the median of `--runs`. FerretDB reads a whole
 * collection for any filter but one `_id`, so a read costs what its collections hold.
 */
import { parseArgs } from 'node:util';
import mongoose from 'mongoose';
import { loadConfig } from '../../src/config';
import { insertDocuments, type BoundedCollection, type IdDocument } from '../../src/store/bulk';
import { queryPartition, UsageStore } from '../../src/store/usage-store';
import { usageDailyModel, usageQueryModel } from '../../src/store/models/usage';

const { values } = parseArgs({
  options: { docs: { type: 'string', default: '13000' }, months: { type: 'string', default: '13' }, runs: { type: 'string', default: '5' } },
});
const docs = Number(values.docs);
const months = Number(values.months);
const runs = Number(values.runs);

const config = loadConfig(process.env);
const conn = await mongoose.createConnection(config.mongodbUri, { dbName: `bench_usage_${process.pid}` }).asPromise();
const day = (i: number) => new Date(Date.UTC(2026, 10, 28) - Math.floor((i / docs) * months * 30.4) * 86_400_000).toISOString().slice(0, 10);
const rows = Array.from({ length: docs }, (_, i) => {
  const date = day(i);
  const libraryId = `/lib/${i % 20}`;
  return {
    _id: `${libraryId}|${date}|question ${i}|w`,
    libraryId,
    date,
    query: `question ${i}`,
    count: 1 + (i % 7),
    zero: i % 11 === 0 ? 1 : 0,
    scoreSum: 0,
    scored: 0,
    writer: 'w',
  };
});

const raw = (name: string) => conn.db!.collection<IdDocument>(name) as BoundedCollection;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

try {
  const store = new UsageStore(usageDailyModel(conn), usageQueryModel(conn));
  const reads = async (label: string) => {
    const out: string[] = [];
    for (const from of ['2026-10-29', '2026-08-30']) {
      out.push(`library ${from} ${(await timed(() => store.queries('/lib/3', from))).toFixed(1)} ms`);
      out.push(`nothing found ${from} ${(await timed(() => store.zeroResultQueries(from))).toFixed(1)} ms`);
    }
    console.log(`${label.padEnd(28)} ${out.join(' | ')}`);
  };
  // Earlier releases: one collection.
  await insertDocuments(raw('usage_queries'), rows);
  await reads(`one collection (${docs})`);
  await raw('usage_queries').drop();
  // This release: the months' collections.
  const byMonth = new Map<string, typeof rows>();
  for (const r of rows) byMonth.set(queryPartition(r.date), [...(byMonth.get(queryPartition(r.date)) ?? []), r]);
  for (const [name, list] of byMonth) await insertDocuments(raw(name), list);
  await reads(`${byMonth.size} months' collections`);
} finally {
  await conn.db!.dropDatabase();
  await conn.close();
}
