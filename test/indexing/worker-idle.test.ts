/**
 * Waiting work is woken, not polled, where the process can know (the real job queue): an idle
 * worker's polls slow down, an enqueue in the same process wakes it at once, and an add waiting
 * on its job is told the moment the in-process worker ends it.
 */
import test from 'ava';
import type { Connection } from 'mongoose';
import { connectMongo } from '../../src/store/mongo';
import { jobModel } from '../../src/store/models/job';
import { JobQueue } from '../../src/store/jobs';
import { LockStore, lockModel } from '../../src/store/locks';
import { Worker } from '../../src/indexing/jobs/worker';
import { createLogger } from '../../src/logger';
import { testConfig } from '../harness';
import { testJobParams } from '../helpers';
import { dropTestStores } from '../drop-stores';

let conn: Connection;
let queue: JobQueue;
const log = createLogger('silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test.before(async () => {
  const config = testConfig();
  conn = await connectMongo({ uri: config.mongodbUri, dbName: config.mongodbDb, timeoutMs: 2000 }, log);
  const Job = jobModel(conn);
  await Job.createIndexes();
  queue = new JobQueue(Job, new LockStore(lockModel(conn)));
});
test.after.always(async () => {
  await dropTestStores({ mongo: conn });
  await conn?.close();
});

/** The queue with its claims counted. */
function counted(): { queue: JobQueue; claims: () => number; claimedAt: number[] } {
  const claimedAt: number[] = [];
  const wrapped = Object.create(queue) as JobQueue;
  wrapped.claim = (owner: string, leaseMs: number) => {
    claimedAt.push(Date.now());
    return queue.claim(owner, leaseMs);
  };
  return { queue: wrapped, claims: () => claimedAt.length, claimedAt };
}

test.serial('an idle worker polls less and less; an in-process enqueue wakes it at once', async (t) => {
  const { queue: q, claims, claimedAt } = counted();
  let ran = 0;
  const slowest = 1280;
  const worker = new Worker({ queue: q, log, leaseMs: 5000, concurrency: 1, pollMs: 20, maxPollMs: slowest, handler: async () => void ran++ });
  worker.start();
  try {
    await sleep(3000);
    // At a fixed 20 ms that is ~150 polls; doubling up to 1,280 ms it is about 8.
    t.true(claims() <= 12, `${claims()} polls in 3 s`);
    const before = claims();
    await sleep(2 * slowest);
    t.true(claims() - before <= 3, 'at the longest interval now');
    // Poke right after a slow poll: the next one is ~1.28 s away, so a claim within half of
    // that is the poke's doing, however loaded the machine is.
    const seen = claims();
    while (claims() === seen) await sleep(5);
    const job = await q.enqueue({ kind: 'refresh', libraryId: '/idle/a', version: 'latest', params: testJobParams() });
    const poked = Date.now();
    worker.poke();
    const done = await q.waitFor(job._id, 5000);
    t.is(done?.state, 'finalized');
    const first = claimedAt.find((at) => at >= poked) ?? Infinity;
    t.true(first - poked < slowest / 2, `claimed ${first - poked} ms after the poke, not at the next slow poll`);
    t.is(ran, 1);
  } finally {
    await worker.stop();
  }
});

test.serial('an add waiting on its job is woken when the in-process worker ends it, not at its next poll', async (t) => {
  let finishedAt = 0;
  // The moment the worker's end of the job is written (what wakes the waiter).
  const watched = Object.create(queue) as JobQueue;
  watched.finish = async (...args: Parameters<JobQueue['finish']>) => {
    const state = await queue.finish(...args);
    finishedAt = Date.now();
    return state;
  };
  const worker = new Worker({
    queue: watched,
    log,
    leaseMs: 5000,
    concurrency: 1,
    pollMs: 20,
    handler: async () => {
      await sleep(6000); // the waiter's polls have slowed to one every 2 s by then
    },
  });
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/idle/b', version: 'latest', params: testJobParams() });
  worker.start();
  try {
    const done = await queue.waitFor(job._id, 20_000);
    const woken = Date.now();
    t.is(done?.state, 'finalized');
    t.true(woken - finishedAt < 400, `the waiter saw the end ${woken - finishedAt} ms after it was written (its next poll was up to 2 s away)`);
  } finally {
    await worker.stop();
  }
});
