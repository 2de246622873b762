import test from 'ava';
import type { Connection } from 'mongoose';
import { connectMongo } from '../../src/store/mongo';
import { jobLogModel, jobModel } from '../../src/store/models/job';
import { JobQueue } from '../../src/store/jobs';
import { LockStore, lockModel } from '../../src/store/locks';
import { JobCancelledError, Worker, type JobContext } from '../../src/indexing/jobs/worker';
import { JobFailure } from '../../src/indexing/jobs/failure';
import { createLogger } from '../../src/logger';
import { testConfig } from '../harness';
import { testJobParams } from '../helpers';
import { dropTestStores } from '../drop-stores';

let conn: Connection;
let queue: JobQueue;
const log = createLogger('silent');

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

const until = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};

test.serial('a job runs through its states to finalized with progress and a log', async (t) => {
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/a/b', version: 'latest', params: testJobParams() });
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

test.serial("an ended job's log is kept apart from it, read with it (listed too, unless a list view asks without), removed with it", async (t) => {
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/a/apart', version: 'latest', params: testJobParams() });
  const worker = new Worker({ queue, log, leaseMs: 5000, concurrency: 1, pollMs: 50, handler: async (ctx: JobContext) => ctx.log('info', 'kept apart') });
  worker.start();
  const done = await queue.waitFor(job._id, 10_000);
  await worker.stop();
  t.is(done?.state, 'finalized');
  t.true(done?.log.some((l) => l.message === 'kept apart'));
  // The job's own document no longer carries it (what every scan of the jobs reads on FerretDB).
  const stored = await jobModel(conn).findById(job._id).lean();
  t.is(stored?.log, undefined);
  t.true(stored?.logApart);
  t.true((await jobLogModel(conn).findById(job._id).lean())?.log.some((l) => l.message === 'kept apart'));
  const listed = (await queue.list({ libraryId: '/a/apart' })).find((j) => j._id === job._id);
  t.true(listed?.log.some((l) => l.message === 'kept apart'));
  t.deepEqual((await queue.list({ libraryId: '/a/apart', logs: false })).find((j) => j._id === job._id)?.log, []);
  t.true(await queue.remove(job._id));
  t.is(await jobLogModel(conn).findById(job._id).lean(), null);
});

test.serial('jobs that ended with their logs in them (before logs were kept apart) give them up to the scheduler', async (t) => {
  const Job = jobModel(conn);
  const at = new Date();
  await Job.create({
    _id: 'job_oldstyle',
    kind: 'refresh',
    libraryId: '/a/old',
    version: 'latest',
    state: 'failed',
    log: [{ at, level: 'error', message: 'failed: old' }],
  });
  t.true((await queue.setLogsApart()) >= 1);
  t.is((await Job.findById('job_oldstyle').lean())?.log, undefined);
  t.deepEqual(
    (await queue.get('job_oldstyle'))?.log.map((l) => l.message),
    ['failed: old'],
  );
  t.is(await queue.setLogsApart(), 0, 'nothing left to move');
});

test.serial('a failure keeps its API error code; others are internal', async (t) => {
  const a = await queue.enqueue({ kind: 'refresh', libraryId: '/a/c', version: 'latest', params: testJobParams() });
  const b = await queue.enqueue({ kind: 'refresh', libraryId: '/a/d', version: 'latest', params: testJobParams() });
  const worker = new Worker({
    queue,
    log,
    leaseMs: 5000,
    concurrency: 1,
    pollMs: 50,
    handler: async (ctx) => {
      if (ctx.job.libraryId === '/a/c') throw new JobFailure('no_snippets_found', 'nothing here');
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
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/a/e', version: 'latest', params: testJobParams() });
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
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/a/f', version: 'latest', params: testJobParams() });
  let atCheckpoint: unknown = 'not reached';
  let pastCheckpoint = false;
  const worker = new Worker({
    queue,
    log,
    leaseMs: 30_000,
    concurrency: 1,
    pollMs: 50,
    cancelPollMs: 50,
    handler: async (ctx) => {
      await queue.cancel(ctx.job._id, 'tester');
      // Until the worker has seen the cancel (its poll aborts the job's signal), with a deadline.
      const signal = ctx.signal;
      if (!signal) throw new Error('the worker gave the handler no signal');
      await new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error('the worker did not see the cancel within 10 s')), 10_000);
        const seen = () => (clearTimeout(deadline), resolve());
        if (signal.aborted) seen();
        else signal.addEventListener('abort', seen, { once: true });
      });
      atCheckpoint = await ctx.checkpoint().then(
        () => undefined,
        (error: unknown) => error,
      );
      if (atCheckpoint) throw atCheckpoint;
      pastCheckpoint = true;
    },
  });
  worker.start();
  t.true(await until(async () => (await queue.get(job._id))?.log.some((l) => l.message.startsWith('stopped:')) ?? false));
  await worker.stop();
  t.true(atCheckpoint instanceof JobCancelledError, `the checkpoint gave ${String(atCheckpoint)}`);
  t.is((atCheckpoint as JobCancelledError).reason, 'cancelled');
  t.false(pastCheckpoint, 'the handler went on past the checkpoint');
  const stopped = await queue.get(job._id);
  t.is(stopped?.state, 'cancelled');
  t.true(stopped?.log.some((l) => l.message === 'stopped: the job was cancelled'));
});

test.serial('two workers on two connections racing over many jobs: every job runs exactly once', async (t) => {
  // A second connection stands for a second process: FerretDB does not isolate writes
  // across connections, which is where a conditional-update claim lets two workers win.
  const config = testConfig();
  const other = await connectMongo({ uri: config.mongodbUri, dbName: conn.name, timeoutMs: 2000 }, log);
  const queue2 = new JobQueue(jobModel(other), new LockStore(lockModel(other)));
  const runs = conn.collection('executions');
  const jobs = await Promise.all(
    Array.from({ length: 60 }, (_, i) => queue.enqueue({ kind: 'refresh', libraryId: `/race/lib${i}`, version: 'latest', params: testJobParams() })),
  );
  const handler = (name: string) => async (ctx: JobContext) => {
    await runs.insertOne({ jobId: ctx.job._id, worker: name, at: new Date() } as never);
    await ctx.setState('parsing');
    await ctx.commit();
  };
  const workers = [
    new Worker({ queue, log, leaseMs: 10_000, concurrency: 3, pollMs: 5, handler: handler('a') }),
    new Worker({ queue: queue2, log, leaseMs: 10_000, concurrency: 3, pollMs: 5, handler: handler('b') }),
  ];
  for (const w of workers) w.start();
  const done = await Promise.all(jobs.map((j) => queue.waitFor(j._id, 60_000)));
  await Promise.all(workers.map((w) => w.stop()));
  await other.close();
  t.true(
    done.every((j) => j?.state === 'finalized'),
    JSON.stringify(done.filter((j) => j?.state !== 'finalized').map((j) => [j?._id, j?.state])),
  );
  const executions = await runs.find({}).toArray();
  const perJob = new Map<string, number>();
  for (const e of executions) perJob.set(String(e.jobId), (perJob.get(String(e.jobId)) ?? 0) + 1);
  t.is(perJob.size, 60);
  const twice = [...perJob].filter(([, n]) => n !== 1).map(([id]) => id);
  if (twice.length) console.log(JSON.stringify({ ex: executions.filter((e) => e.jobId === twice[0]), job: done.find((j) => j?._id === twice[0]) }, null, 1));
  t.deepEqual(
    [...perJob.values()].filter((n) => n !== 1),
    [],
    'no job ran twice',
  );
  t.true(
    done.every((j) => j?.attempts === 1),
    'each job was claimed once',
  );
  const byWorker = new Set(executions.map((e) => e.worker));
  t.is(byWorker.size, 2, 'both workers took jobs');
});

test.serial('a cancel before the commit stops the job with nothing published; after it, the cancel is refused and the job finishes', async (t) => {
  let published = 0;
  const early = await queue.enqueue({ kind: 'refresh', libraryId: '/commit/early', version: 'latest', params: testJobParams() });
  const late = await queue.enqueue({ kind: 'refresh', libraryId: '/commit/late', version: 'latest', params: testJobParams() });
  const results: Record<string, unknown> = {};
  const worker = new Worker({
    queue,
    log,
    leaseMs: 5000,
    concurrency: 1,
    pollMs: 20,
    handler: async (ctx) => {
      if (ctx.job._id === early._id) results.early = await queue.cancel(ctx.job._id, 'tester');
      await ctx.commit();
      if (ctx.job._id === late._id) results.late = await queue.cancel(ctx.job._id, 'tester');
      published++;
    },
  });
  worker.start();
  const [a, b] = await Promise.all([queue.waitFor(early._id, 10_000), queue.waitFor(late._id, 10_000)]);
  await worker.stop();
  t.deepEqual(results.early, { cancelled: true });
  t.is(a?.state, 'cancelled');
  t.deepEqual(results.late, { cancelled: false, state: 'committing' });
  t.is(b?.state, 'finalized');
  t.is(published, 1, 'only the job whose commit won published');
  t.deepEqual(await queue.cancel(early._id, 'tester'), { cancelled: true }, 'cancelling twice is idempotent');
  t.deepEqual(await queue.cancel(late._id, 'tester'), { cancelled: false, state: 'finalized' });
});

test.serial('a store outage puts the job back for another attempt instead of failing it', async (t) => {
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/outage/lib', version: 'latest', params: testJobParams() });
  class Outage extends Error {}
  let calls = 0;
  const worker = new Worker({
    queue,
    log,
    leaseMs: 5000,
    concurrency: 1,
    pollMs: 20,
    isTransient: (e) => e instanceof Outage,
    retryDelayMs: () => 200,
    handler: async (ctx) => {
      calls++;
      if (calls === 1) throw new Outage('Elasticsearch is unavailable');
      await ctx.commit();
    },
  });
  worker.start();
  t.true(await until(async () => (await queue.get(job._id))?.state === 'finalized'));
  await worker.stop();
  const done = await queue.get(job._id);
  t.is(calls, 2);
  t.is(done?.retries, 1);
  t.is(done?.attempts, 2);
  t.true(done?.log.some((l) => /store was unavailable/.test(l.message)));
});

test.serial('a claim whose winner died before recording it is broken after a lease, so the job is not stuck', async (t) => {
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/ghost/lib', version: 'latest', params: testJobParams() });
  const locks = new LockStore(lockModel(conn));
  t.true(await locks.acquire(`job:${job._id}:claim:1`, 'ghost'));
  let ran = 0;
  const worker = new Worker({ queue, log, leaseMs: 400, concurrency: 1, pollMs: 50, handler: async () => void ran++ });
  worker.start();
  t.true(await until(async () => (await queue.get(job._id))?.state === 'finalized'));
  await worker.stop();
  t.is(ran, 1);
  t.is((await queue.get(job._id))?.attempts, 1);
});

const blockThread = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};

test.serial('a step that keeps the thread busy longer than a lease does not lose the job when nobody claimed it', async (t) => {
  // The renewal timer cannot run while a step computes (parsing thousands of files on a
  // loaded machine); the next checkpoint renews, and the store says the job is still ours.
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/busy/lib', version: 'latest', params: testJobParams() });
  let ran = 0;
  const worker = new Worker({
    queue,
    log,
    leaseMs: 400,
    concurrency: 1,
    pollMs: 20,
    handler: async (ctx) => {
      if (ctx.job._id !== job._id) return; // jobs earlier tests left
      ran++;
      blockThread(1200);
      await ctx.checkpoint();
      blockThread(1200);
      await ctx.commit();
    },
  });
  worker.start();
  const done = await queue.waitFor(job._id, 15_000);
  await worker.stop();
  t.is(done?.state, 'finalized', JSON.stringify(done?.log));
  t.is(ran, 1);
  t.is(done?.attempts, 1);
});

test.serial('a worker whose lease another worker took while its thread was busy does not publish', async (t) => {
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/busy/taken', version: 'latest', params: testJobParams() });
  let published = 0;
  let stopped: string | undefined;
  const worker = new Worker({
    queue,
    log,
    leaseMs: 400,
    concurrency: 1,
    pollMs: 20,
    handler: async (ctx) => {
      if (ctx.job._id !== job._id || ctx.job.attempts > 1) return; // jobs earlier tests left
      blockThread(1000);
      // What another worker's claim wrote while this thread was busy (the lease had lapsed):
      // its claim lock for the next attempt, then the job. On FerretDB the second write can
      // be overwritten by this worker's renewal racing it; the lock cannot.
      t.true(await new LockStore(lockModel(conn)).acquire(`job:${job._id}:claim:2`, 'intruder'));
      await jobModel(conn).updateOne({ _id: job._id }, { $set: { 'lease.owner': 'intruder', 'lease.until': new Date(Date.now() + 60_000), attempts: 2 } });
      try {
        await ctx.commit();
        published++;
      } catch (error) {
        stopped = (error as Error).message;
        throw error;
      }
    },
  });
  worker.start();
  const ended = await until(async () => stopped !== undefined || published > 0);
  await worker.stop();
  t.true(ended, JSON.stringify(await queue.get(job._id)));
  t.regex(stopped ?? '', /taken over/);
  t.is(published, 0);
  t.not((await queue.get(job._id))?.state, 'finalized');
});

test.serial('stop() waits for a claim already sent: a job it wins runs before stop() returns, never after', async (t) => {
  const job = await queue.enqueue({ kind: 'refresh', libraryId: '/stop/claim', version: 'latest', params: testJobParams() });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let claimSent!: () => void;
  const sent = new Promise<void>((r) => (claimSent = r));
  // The real queue, its claim held back until the test lets it go (a slow store).
  const slow = Object.create(queue) as JobQueue;
  let claimed: Promise<unknown> = Promise.resolve();
  slow.claim = async (owner: string, leaseMs: number) => {
    claimSent();
    await gate;
    const answer = queue.claim(owner, leaseMs);
    claimed = answer;
    return answer;
  };
  let stoppedAt = 0;
  const ran: number[] = [];
  const worker = new Worker({ queue: slow, log, leaseMs: 5000, concurrency: 1, pollMs: 20, handler: async () => void ran.push(Date.now()) });
  worker.start();
  await sent;
  const stopping = worker.stop().then(() => (stoppedAt = Date.now()));
  await new Promise((r) => setTimeout(r, 50));
  release();
  await stopping;
  // The claim has answered and the worker has had its turn: a run started after stop() shows now.
  await claimed;
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  t.deepEqual(
    ran.filter((at) => at > stoppedAt),
    [],
    'nothing ran after stop() returned',
  );
  const state = (await queue.get(job._id))?.state;
  t.true(state === 'finalized' || state === 'queued', `state ${state}`);
});
