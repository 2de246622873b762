/**
 * The job queue and worker against the red-team findings of issue 32, on the real store: a
 * job that keeps killing its worker is failed after JOB_MAX_ATTEMPTS instead of claimed
 * forever; crawls have a lane of their own, so a long crawl never holds the slot a Git or
 * archive build needs; within a lane, a requester with a job running goes after the others
 * and never holds every slot; a cancel reaches a handler that is waiting (ctx.signal), not
 * only at its next checkpoint.
 */
import test from 'ava';
import type { Connection } from 'mongoose';
import { connectMongo } from '../../src/store/mongo';
import { jobModel, type JobModel } from '../../src/store/models/job';
import { JobQueue } from '../../src/store/jobs';
import { LockStore, lockModel } from '../../src/store/locks';
import { Worker, type JobContext } from '../../src/indexing/jobs/worker';
import type { WebsiteJobParams } from '../../src/domain/job-params';
import { createLogger } from '../../src/logger';
import { testConfig } from '../harness';
import { testJobParams } from '../helpers';
import { dropTestStores } from '../drop-stores';

let conn: Connection;
let Job: JobModel;
let locks: LockStore;
const log = createLogger('silent');

test.before(async () => {
  const config = testConfig();
  conn = await connectMongo({ uri: config.mongodbUri, dbName: config.mongodbDb, timeoutMs: 2000 }, log);
  Job = jobModel(conn);
  await Job.createIndexes();
  locks = new LockStore(lockModel(conn));
});
test.after.always(async () => {
  await dropTestStores({ mongo: conn });
  await conn?.close();
});
test.afterEach.always(async () => {
  await Job.deleteMany({});
});

const website = (n: number): WebsiteJobParams => ({
  source: 'website',
  url: `https://docs${n}.test/`,
  scope: 'subpages',
  maxPages: 10,
  maxDepth: 2,
  include: [],
  exclude: [],
});
const until = async (check: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};
const lanes = (crawls: number) => [
  { name: 'builds', sources: ['git', 'archive'] as const, concurrency: 1 },
  { name: 'crawls', sources: ['website', 'llmstxt'] as const, concurrency: crawls },
];

test.serial('a job whose worker died JOB_MAX_ATTEMPTS times is failed with the reason, not claimed again', async (t) => {
  const queue = new JobQueue(Job, locks, { maxAttempts: 3 });
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/a/dies', version: 'latest', params: testJobParams() });
  // Three workers claim it and die (no renewal, no end): each lease lapses.
  for (let i = 1; i <= 3; i++) {
    const claimed = await queue.claim(`dying-${i}`, 150);
    t.is(claimed?._id, job._id, `attempt ${i}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  t.is(await queue.claim('next', 150), null, 'the fourth claim does not run it');
  const after = await queue.get(job._id);
  t.is(after?.state, 'failed');
  t.regex(after?.error ?? '', /started 3 times and each time its worker stopped/);
  t.is(after?.errorCode, 'internal_error');
  t.regex(after?.log.at(-1)?.message ?? '', /^failed: /);
});

test.serial('store-outage retries are not counted as deaths', async (t) => {
  const queue = new JobQueue(Job, locks, { maxAttempts: 2 });
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/a/retried', version: 'latest', params: testJobParams() });
  for (let i = 1; i <= 3; i++) {
    const claimed = await queue.claim(`w${i}`, 60_000);
    t.truthy(claimed, `attempt ${i}`);
    await queue.release(job._id, `w${i}`, new Date(Date.now() - 1), { retries: i });
  }
  t.truthy(await queue.claim('w4', 60_000), 'three outages and no death: still claimed');
});

test.serial('a crawl in its own lane never holds the slot a Git build needs', async (t) => {
  const queue = new JobQueue(Job, locks);
  let releaseCrawl: () => void = () => undefined;
  const crawlHeld = new Promise<void>((r) => (releaseCrawl = r));
  const worker = new Worker({
    queue,
    log,
    leaseMs: 10_000,
    concurrency: 1,
    pollMs: 50,
    lanes: lanes(1).map((l) => ({ ...l, sources: [...l.sources] })),
    handler: async (ctx: JobContext) => {
      if (ctx.job.params.source === 'website') await crawlHeld;
    },
  });
  const crawlJob = await queue.enqueue({ kind: 'add-website', libraryId: '/websites/a', version: 'latest', params: website(1), teamId: 'team_a' });
  worker.start();
  t.teardown(() => worker.stop());
  t.true(await until(async () => (await queue.get(crawlJob._id))?.lease.owner === worker.id));
  const gitJob = await queue.enqueue({ kind: 'add-repo', libraryId: '/b/repo', version: 'latest', params: testJobParams(), teamId: 'team_b' });
  worker.poke();
  const done = await queue.waitFor(gitJob._id, 8000);
  t.is(done?.state, 'finalized', 'the Git add finished while the crawl still ran');
  t.is((await queue.get(crawlJob._id))?.state, 'queued');
  releaseCrawl();
  t.is((await queue.waitFor(crawlJob._id, 8000))?.state, 'finalized');
});

test.serial('in a lane of two, a requester running a job goes after the others and never holds both slots', async (t) => {
  const queue = new JobQueue(Job, locks);
  const running = new Set<string>();
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const worker = new Worker({
    queue,
    log,
    leaseMs: 10_000,
    concurrency: 1,
    pollMs: 50,
    lanes: lanes(2).map((l) => ({ ...l, sources: [...l.sources] })),
    handler: async (ctx: JobContext) => {
      running.add(ctx.job.libraryId);
      await held;
    },
  });
  await queue.enqueue({ kind: 'add-website', libraryId: '/websites/a1', version: 'latest', params: website(1), teamId: 'team_a' });
  await queue.enqueue({ kind: 'add-website', libraryId: '/websites/a2', version: 'latest', params: website(2), teamId: 'team_a' });
  await queue.enqueue({ kind: 'add-website', libraryId: '/websites/b1', version: 'latest', params: website(3), teamId: 'team_b' });
  // Claims answered so far: the worker's polls, each a chance to start a third crawl.
  let claims = 0;
  const claim = queue.claim.bind(queue);
  queue.claim = async (...args: Parameters<JobQueue['claim']>) => {
    const job = await claim(...args);
    claims++;
    return job;
  };
  worker.start();
  t.teardown(() => worker.stop());
  t.true(await until(() => running.size === 2));
  const polled = claims;
  t.true(await until(() => claims >= polled + 3), 'the worker polled three more times');
  t.deepEqual([...running].sort(), ['/websites/a1', '/websites/b1']);
  release();
  t.true(await until(() => running.has('/websites/a2')), "team A's second crawl runs once a slot frees");
});

test.serial('a cancel reaches a handler that only waits (ctx.signal), within seconds', async (t) => {
  const queue = new JobQueue(Job, locks);
  let aborted = 0;
  const worker = new Worker({
    queue,
    log,
    leaseMs: 60_000, // renewals every 20 s would be too late
    concurrency: 1,
    pollMs: 50,
    cancelPollMs: 200,
    handler: (ctx: JobContext) =>
      new Promise<void>((_resolve, reject) => {
        if (!ctx.signal) return reject(new Error('no signal'));
        ctx.signal.addEventListener('abort', () => {
          aborted = Date.now();
          reject(ctx.signal?.reason);
        });
      }),
  });
  const job = await queue.enqueue({ kind: 'add-website', libraryId: '/websites/slow', version: 'latest', params: website(9) });
  worker.start();
  t.teardown(() => worker.stop());
  t.true(await until(async () => (await queue.get(job._id))?.lease.owner === worker.id));
  const cancelledAt = Date.now();
  t.deepEqual(await queue.cancel(job._id, 'someone'), { cancelled: true });
  t.true(await until(() => aborted > 0, 5000), 'the handler saw the cancel');
  t.true(aborted - cancelledAt < 3000, `${aborted - cancelledAt} ms`);
  t.is((await queue.waitFor(job._id, 5000))?.state, 'cancelled');
});
