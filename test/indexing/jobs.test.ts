import test from 'ava';
import type { Connection } from 'mongoose';
import { connectMongo } from '../../src/store/mongo';
import { jobModel } from '../../src/store/models/job';
import { JobQueue } from '../../src/indexing/jobs/queue';
import { Worker, type JobContext } from '../../src/indexing/jobs/worker';
import { JobFailure } from '../../src/indexing/jobs/failure';
import { createLogger } from '../../src/logger';
import { testConfig } from '../harness';

let conn: Connection;
let queue: JobQueue;
const log = createLogger('silent');

test.before(async () => {
  const config = testConfig();
  conn = await connectMongo({ uri: config.mongodbUri, dbName: config.mongodbDb, timeoutMs: 2000 }, log);
  const Job = jobModel(conn);
  await Job.createIndexes();
  queue = new JobQueue(Job);
});
test.after.always(async () => {
  await conn?.dropDatabase();
  await conn?.close();
});

const until = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};

test.serial('a job runs through its states to finalized with progress and a log', async (t) => {
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/a/b', version: 'latest', params: {} });
  const worker = new Worker({
    queue,
    log,
    leaseMs: 5000,
    concurrency: 1,
    pollMs: 50,
    handler: async (ctx: JobContext) => {
      await ctx.setState('cloning');
      await ctx.setState('parsing');
      await ctx.progress({ filesTotal: 3, filesParsed: 3 });
      ctx.log('info', 'hello');
      await ctx.setState('indexing');
    },
  });
  worker.start();
  const done = await queue.waitFor(job._id, 10_000);
  await worker.stop();
  t.is(done?.state, 'finalized');
  t.is(done?.progress.filesParsed, 3);
  const states = (done?.log ?? []).map((l) => l.message).filter((m) => m.startsWith('state:'));
  t.deepEqual(states, ['state: cloning', 'state: parsing', 'state: indexing']);
});

test.serial('a failure keeps its API error code; others are internal', async (t) => {
  const a = await queue.enqueue({ kind: 'refresh', libraryId: '/a/c', version: 'latest', params: { fail: 'known' } });
  const b = await queue.enqueue({ kind: 'refresh', libraryId: '/a/d', version: 'latest', params: { fail: 'boom' } });
  const worker = new Worker({
    queue, log, leaseMs: 5000, concurrency: 1, pollMs: 50,
    handler: async (ctx) => {
      if (ctx.job.params.fail === 'known') throw new JobFailure('no_snippets_found', 'nothing here');
      throw new Error('boom');
    },
  });
  worker.start();
  const [da, db] = await Promise.all([queue.waitFor(a._id, 10_000), queue.waitFor(b._id, 10_000)]);
  await worker.stop();
  t.is(da?.state, 'failed');
  t.is(da?.errorCode, 'no_snippets_found');
  t.is(db?.errorCode, 'internal_error');
});

test.serial("a crashed worker's job is taken over when its lease lapses", async (t) => {
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/a/e', version: 'latest', params: {} });
  // A worker that claims the job and dies (never renews, never finishes).
  const claimed = await queue.claim('dead-worker', 300);
  t.is(claimed?._id, job._id);
  await queue.update(job._id, 'dead-worker', { state: 'parsing' });
  let ran = 0;
  const worker = new Worker({ queue, log, leaseMs: 5000, concurrency: 1, pollMs: 50, handler: async () => void ran++ });
  worker.start();
  t.true(await until(async () => (await queue.get(job._id))?.state === 'finalized'));
  await worker.stop();
  const done = await queue.get(job._id);
  t.is(ran, 1);
  t.is(done?.attempts, 2);
  t.true(done?.log.some((l) => /resumed by/.test(l.message)));
});

test.serial('a cancelled job stops at its next checkpoint', async (t) => {
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/a/f', version: 'latest', params: {} });
  const worker = new Worker({
    queue, log, leaseMs: 3000, concurrency: 1, pollMs: 50,
    handler: async (ctx) => {
      await queue.cancel(ctx.job._id);
      await new Promise((r) => setTimeout(r, 1500));
      await ctx.checkpoint();
    },
  });
  worker.start();
  t.true(await until(async () => (await queue.get(job._id))?.state === 'cancelled'));
  await worker.stop();
  t.is((await queue.get(job._id))?.state, 'cancelled');
});
