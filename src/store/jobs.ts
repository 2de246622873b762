/**
 * Durable jobs in MongoDB: queued → cloning → parsing → indexing → finalized, or
 * failed/cancelled. The only code that touches the Job model.
 *
 * Claims and outcomes hold on FerretDB as on MongoDB because they are decided by locks
 * under a unique `_id` (store/locks.ts), never by a conditional update:
 * - `job:<id>:claim:<n>`: the n-th claim. Whoever inserts it runs attempt n and is the only
 *   writer of the job's progress while its lease (renewed every third of its length) holds.
 *   A lapsed lease (the worker crashed) makes the job claimable as attempt n + 1.
 * - `job:<id>:end`: the outcome, decided once. A cancel inserts `cancelled`; a worker
 *   inserts `committing` before the step that makes its build visible (publishing), or
 *   `failed`. So a cancel that answers "cancelled" guarantees nothing was published, and a
 *   cancel that loses answers that the job is already finishing.
 * - `build:<library key>@<version>`: one build of a library version at a time, held by the
 *   job (or inline upload) building it. Two builds of one version at once would each delete
 *   the other's generation when publishing. A job whose version is being built by another
 *   is not claimed until that build ends; a holder that finished or vanished is broken.
 * A worker that stops renewing (crashed, or cut off from the store for a whole lease)
 * loses the job to the next claim; one that committed and crashed is completed by the next
 * attempt (it finds the `committing` outcome and publishes again). A job whose attempts kept
 * ending that way (`maxAttempts` of them, store-outage retries not counted) is failed with
 * that reason instead of claimed again: a job that kills its worker would kill the next.
 *
 * Fairness: a claim takes the oldest claimable job of the caller's lane (the sources its
 * slots are for), preferring requesters (a private copy's team, else whoever started it)
 * that run nothing now; in a lane of several slots one requester holds all but one at most.
 */
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { JobFields, JobKind, JobLogModel, JobModel, JobRecord, JobState, JobTrigger } from './models/job';
import { storedSpec, type JobSpec } from '../domain/job-params';
import { appendLog } from '../domain/job-log';
import { jobLogModel, TERMINAL_JOB_STATES } from './models/job';
import type { LockStore } from './locks';
import { BuildSlots } from './build-slots';
import { fairOrder, requesterOf, type ClaimLane } from './claim-order';

export { BuildBusyError } from './build-slots';

const ACTIVE_STATES: JobState[] = ['cloning', 'parsing', 'indexing'];
/** Candidates tried per claim (several workers polling at once try different ones). */
const CLAIM_BATCH = 5;
/** Candidates read per claim, to find requesters that run nothing now among them. */
const CLAIM_WINDOW = 50;
/** Job ids per read of `states` (one small query each, however many checks are pending). */
const STATES_CHUNK = 500;
/** Attempts that ended without an outcome (the worker died) before a job is failed instead. */
export const DEFAULT_MAX_ATTEMPTS = 3;

export type NewJob = JobSpec & {
  libraryId: string;
  version: string;
  trigger?: JobTrigger;
  encryptedToken?: string | null;
  encryptedHeaders?: string | null;
  teamId?: string | null;
  createdBy?: string | null;
};

/** What a job's end lock says. */
export type JobOutcome = 'committing' | 'failed' | 'cancelled';

/** The result of a cancel request. */
export type CancelResult = { cancelled: true } | { cancelled: false; state: JobState | JobOutcome };

type WritableFields = Partial<Pick<JobRecord, 'state' | 'progress' | 'log' | 'error' | 'errorCode' | 'errorDetails' | 'version' | 'finishedAt' | 'crawl'>>;

/** A stored job as a typed record (params typed by kind; see domain/job-params.ts). */
function typed(doc: (JobFields & { kind: string; params: unknown }) | null): JobRecord | null {
  return doc ? { ...doc, ...storedSpec(doc.kind, doc.params) } : null;
}

const claimKey = (id: string, n: number) => `job:${id}:claim:${n}`;
const endKey = (id: string) => `job:${id}:end`;

export class JobQueue {
  private readonly slots: BuildSlots;
  /** Jobs this process ended (by id): a waiter in the same process wakes at once instead of at its next poll. */
  private readonly ended = new EventEmitter().setMaxListeners(0);
  /** Ended jobs' logs, one document each under the job's id (in the jobs' database). */
  private readonly Logs: JobLogModel;

  constructor(
    private readonly Job: JobModel,
    private readonly locks: LockStore,
    private readonly options: { maxAttempts?: number } = {},
  ) {
    this.Logs = jobLogModel(Job.db);
    this.slots = new BuildSlots(locks, async (id) => (await this.fieldsOf(id, 'state'))?.state ?? null);
  }

  /**
   * Runs an inline build of a library version (an OpenAPI upload) in the version's build
   * slot, waiting up to `waitMs` for another build of it to end (else BuildBusyError).
   */
  inBuildSlot<T>(libraryKey: string, version: string, waitMs: number, build: () => Promise<T>): Promise<T> {
    return this.slots.run(libraryKey, version, waitMs, build);
  }

  async enqueue(job: NewJob): Promise<JobRecord> {
    const doc = await this.Job.create({
      _id: `job_${crypto.randomBytes(9).toString('base64url')}`,
      kind: job.kind,
      libraryId: job.libraryId,
      version: job.version,
      state: 'queued',
      trigger: job.trigger ?? 'manual',
      params: job.params,
      encryptedToken: job.encryptedToken ?? null,
      encryptedHeaders: job.encryptedHeaders ?? null,
      teamId: job.teamId ?? null,
      createdBy: job.createdBy ?? null,
      log: [{ at: new Date(), level: 'info', message: `queued ${job.kind} of ${job.libraryId} (${job.version}), trigger: ${job.trigger ?? 'manual'}` }],
    });
    const created = typed(doc.toObject());
    if (!created) throw new Error('a job just created could not be read');
    return created;
  }

  /** Records work done inline (an OpenAPI upload) so it shows in the job history. */
  async record(job: {
    kind: Extract<JobKind, 'openapi'>;
    libraryId: string;
    version: string;
    teamId: string | null;
    createdBy: string | null;
    message: string;
    snippets: number;
    snippetsEmbedded?: number;
  }): Promise<void> {
    const now = new Date();
    await this.Job.create({
      _id: `job_${crypto.randomBytes(9).toString('base64url')}`,
      kind: job.kind,
      params: { source: 'openapi' },
      libraryId: job.libraryId,
      version: job.version,
      state: 'finalized',
      progress: { filesTotal: 1, filesParsed: 1, filesSkipped: 0, filesReused: 0, snippets: job.snippets, snippetsEmbedded: job.snippetsEmbedded ?? 0 },
      log: [{ at: now, level: 'info', message: job.message }],
      teamId: job.teamId,
      createdBy: job.createdBy,
      finishedAt: now,
    });
  }

  /**
   * Claims the oldest claimable job (queued and due, or with a lapsed lease) of `lane`'s
   * sources, requesters with nothing running first, or null. Without a lane: the oldest of
   * any source, no requester holding back.
   */
  async claim(owner: string, leaseMs: number, lane?: ClaimLane): Promise<JobRecord | null> {
    const now = new Date();
    const query = lane ? { $and: [claimable(now), { 'params.source': { $in: [...lane.sources] } }] } : claimable(now);
    // Without their logs and reports: a window of candidates is read on every poll.
    const found = (await this.Job.find(query).select({ log: 0, crawl: 0 }).sort({ createdAt: 1 }).limit(CLAIM_WINDOW).lean())
      .map(typed)
      .filter((j): j is JobRecord => j !== null);
    if (found.length === 0) return null;
    const candidates = lane ? fairOrder(found, await this.runningByRequester(now, lane), lane) : found;
    for (const job of candidates.slice(0, CLAIM_BATCH)) {
      const claimed = await this.tryClaim(job, owner, leaseMs);
      if (claimed) return claimed;
    }
    return null;
  }

  /** Running jobs (a live lease) per requester, of the lane's sources. */
  private async runningByRequester(now: Date, lane?: ClaimLane): Promise<Map<string, number>> {
    const live: Record<string, unknown> = { state: { $in: ['queued', ...ACTIVE_STATES] }, 'lease.until': { $gt: now } };
    const query = lane ? { $and: [live, { 'params.source': { $in: [...lane.sources] } }] } : live;
    const docs = await this.Job.find(query).select({ teamId: 1, createdBy: 1 }).limit(500).lean<Pick<JobRecord, 'teamId' | 'createdBy'>[]>();
    const counts = new Map<string, number>();
    for (const d of docs) counts.set(requesterOf(d), (counts.get(requesterOf(d)) ?? 0) + 1);
    return counts;
  }

  private async tryClaim(seen: JobRecord, owner: string, leaseMs: number): Promise<JobRecord | null> {
    const n = (seen.attempts ?? 0) + 1;
    const end = await this.outcome(seen._id);
    if (end === 'cancelled' || end === 'failed') {
      await this.settle(seen._id, end);
      return null;
    }
    // Its last attempts all died with their worker (a lapsed lease, not a store-outage retry).
    const died = (seen.attempts ?? 0) - (seen.retries ?? 0);
    const maxAttempts = this.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (seen.lease?.until && end !== 'committing' && died >= maxAttempts) {
      await this.abandon(seen, owner, died);
      return null;
    }
    // Another build of this library version runs: this job waits for it to end.
    if (!(await this.slots.isFree(seen.libraryId, seen.version, `job:${seen._id}`))) return null;
    if (!(await this.locks.acquire(claimKey(seen._id, n), owner))) {
      // Attempt n is someone else's. If its winner died before recording it, the job would
      // wait forever: after a lease's length that claim is broken and attempt n is open again.
      const held = await this.locks.get(claimKey(seen._id, n));
      const now = await this.get(seen._id);
      if (held && now && (now.attempts ?? 0) < n) await this.locks.breakIfStale(held, leaseMs);
      return null;
    }
    // Ours. Check the job is still what we claimed (not finished or claimed by a newer read).
    const current = await this.get(seen._id);
    if (!current || (current.attempts ?? 0) !== n - 1 || !isClaimable(current, new Date())) {
      await this.locks.release(claimKey(seen._id, n));
      return null;
    }
    const lease = { owner, until: new Date(Date.now() + leaseMs) };
    await this.Job.updateOne({ _id: seen._id, attempts: n - 1 }, { $set: { attempts: n, lease, notBefore: null } });
    const claimed = await this.get(seen._id);
    if (!claimed || claimed.lease.owner !== owner) return null;
    // A cancel that landed while we claimed wins (its write may have been overtaken by ours).
    const after = await this.outcome(seen._id);
    if (after === 'cancelled' || after === 'failed') {
      await this.settle(seen._id, after);
      return null;
    }
    if (!(await this.slots.take(claimed.libraryId, claimed.version, `job:${claimed._id}`))) {
      // Another build of the version took the slot meanwhile: give the claim back untouched.
      await this.Job.updateOne({ _id: claimed._id, 'lease.owner': owner }, { $set: { attempts: n - 1, lease: { owner: null, until: null } } });
      await this.locks.release(claimKey(seen._id, n));
      return null;
    }
    return claimed;
  }

  /**
   * Renews the lease of attempt `attempt`. `lost` when another worker holds the job now,
   * `cancelled` when a cancel decided its outcome. The job document alone cannot say it:
   * on FerretDB a renewal racing a claim can overwrite the claim's owner (conditional
   * updates are not atomic across connections), so the next attempt's claim lock, which
   * every claim takes before it writes, is the authority.
   */
  async renew(id: string, owner: string, leaseMs: number, attempt: number): Promise<'ok' | 'lost' | 'cancelled'> {
    if ((await this.outcome(id)) === 'cancelled') return 'cancelled';
    const r = await this.Job.updateOne(
      { _id: id, 'lease.owner': owner, state: { $nin: TERMINAL_JOB_STATES } },
      { $set: { 'lease.until': new Date(Date.now() + leaseMs) } },
    );
    if (r.matchedCount !== 1) return 'lost';
    const next = await this.locks.get(claimKey(id, attempt + 1));
    return next && next.holder !== owner ? 'lost' : 'ok';
  }

  /** Writes progress, log and state of a job this worker holds. */
  async update(id: string, owner: string, fields: WritableFields): Promise<boolean> {
    const r = await this.Job.updateOne({ _id: id, 'lease.owner': owner }, { $set: fields });
    return r.matchedCount === 1;
  }

  /**
   * The point of no return, before a build becomes visible: true when this worker may
   * publish (it decided the outcome, or an earlier attempt did and stopped half-way), false
   * when the job was cancelled first.
   */
  async commit(id: string, owner: string): Promise<boolean> {
    if (await this.locks.acquire(endKey(id), owner, { state: 'committing' })) return true;
    return (await this.outcome(id)) === 'committing';
  }

  /**
   * Ends a job this worker holds. A failure is recorded as `cancelled` when a cancel came
   * first. Returns the state written.
   */
  async finish(id: string, owner: string, state: 'finalized' | 'failed' | 'cancelled', fields: WritableFields): Promise<JobState> {
    let final: JobState = state;
    if (state === 'failed' && !(await this.locks.acquire(endKey(id), owner, { state: 'failed' }))) {
      if ((await this.outcome(id)) === 'cancelled') final = 'cancelled';
    }
    // The stage it was in says where it failed (the dashboard marks it).
    const failedStage = final === 'failed' ? ((await this.fieldsOf(id, 'state'))?.state ?? null) : null;
    const set = { ...fields, state: final, finishedAt: new Date(), lease: { owner: null, until: null }, ...(failedStage ? { failedStage } : {}) };
    // A cancelled job's lease was given up by the cancel: write its end by id.
    await this.Job.updateOne(final === 'cancelled' ? { _id: id } : { _id: id, 'lease.owner': owner }, { $set: set });
    await this.setLogApart(id);
    await this.locks.releaseAll(`job:${id}:claim:`);
    const job = await this.fieldsOf(id, 'libraryId', 'version');
    if (job) await this.slots.free(job.libraryId, job.version, `job:${id}`);
    this.ended.emit(id);
    return final;
  }

  /**
   * Puts a job back in the queue for another attempt not before `retryAt` (a store was
   * unavailable). Its outcome is still open, so a cancel can still stop it.
   */
  async release(id: string, owner: string, retryAt: Date, fields: WritableFields & { retries: number }): Promise<boolean> {
    const r = await this.Job.updateOne(
      { _id: id, 'lease.owner': owner, state: { $nin: TERMINAL_JOB_STATES } },
      { $set: { ...fields, state: 'queued', notBefore: retryAt, lease: { owner: null, until: null } } },
    );
    // Its version's build slot stays with it (re-entrant when it is claimed again).
    return r.matchedCount === 1;
  }

  /**
   * Cancels a job that has not finished. A running job's worker stops at its next renewal
   * or checkpoint; nothing it built is published.
   */
  async cancel(id: string, by: string): Promise<CancelResult> {
    const job = await this.get(id);
    if (!job) return { cancelled: false, state: 'failed' };
    if (TERMINAL_JOB_STATES.includes(job.state)) return job.state === 'cancelled' ? { cancelled: true } : { cancelled: false, state: job.state };
    if (await this.locks.acquire(endKey(id), by, { state: 'cancelled' })) {
      await this.settle(id, 'cancelled');
      return { cancelled: true };
    }
    const end = await this.outcome(id);
    return end === 'cancelled' ? { cancelled: true } : { cancelled: false, state: end ?? job.state };
  }

  /**
   * Removes an ended job's record (a failed add leaves one behind: its library is gone, the
   * job is not). Only terminal jobs are removed: a running one must be cancelled first.
   * Returns whether a record was removed.
   */
  async remove(id: string): Promise<boolean> {
    const r = await this.Job.deleteOne({ _id: id, state: { $in: TERMINAL_JOB_STATES } });
    if (r.deletedCount !== 1) return false;
    await this.Logs.deleteOne({ _id: id });
    await this.locks.releaseAll(`job:${id}:`);
    return true;
  }

  /**
   * Fails a job whose attempts kept dying with their worker (crashed, killed, out of memory),
   * instead of handing it to the next worker to die the same way.
   */
  private async abandon(job: JobRecord, by: string, died: number): Promise<void> {
    if (!(await this.locks.acquire(endKey(job._id), by, { state: 'failed' }))) {
      const end = await this.outcome(job._id);
      if (end === 'cancelled' || end === 'failed') await this.settle(job._id, end);
      return;
    }
    const message = `The job was started ${died} times and each time its worker stopped before it ended (the process crashed, was killed or ran out of memory); it is not tried again. Add the library again with smaller limits, or ask an operator to look at the worker's log.`;
    const log = appendLog((await this.get(job._id))?.log ?? [], 'error', `failed: ${message}`);
    await this.Job.updateOne(
      { _id: job._id, state: { $nin: TERMINAL_JOB_STATES } },
      {
        $set: {
          state: 'failed',
          failedStage: job.state,
          error: message,
          errorCode: 'internal_error',
          errorDetails: null,
          finishedAt: new Date(),
          lease: { owner: null, until: null },
          log,
        },
      },
    );
    await this.locks.releaseAll(`job:${job._id}:claim:`);
    await this.slots.free(job.libraryId, job.version, `job:${job._id}`);
  }

  /** Writes the state an end lock decided (idempotent; repairs a write a claim overtook). */
  private async settle(id: string, outcome: 'cancelled' | 'failed'): Promise<void> {
    await this.Job.updateOne(
      { _id: id, state: { $nin: TERMINAL_JOB_STATES } },
      { $set: { state: outcome, finishedAt: new Date(), lease: { owner: null, until: null } } },
    );
    this.ended.emit(id);
  }

  /** The decided outcome of a job, if any. */
  async outcome(id: string): Promise<JobOutcome | null> {
    const lock = await this.locks.get(endKey(id));
    const state = lock?.data.state;
    return state === 'committing' || state === 'failed' || state === 'cancelled' ? state : null;
  }

  async get(id: string): Promise<JobRecord | null> {
    const job = typed(await this.Job.findById(id).lean());
    if (job && job.log === undefined) job.log = job.logApart ? await this.logOf(id) : [];
    return job;
  }

  /** Some fields of a job, read by id without its log (where it is kept apart, that is a second read `get` makes). */
  private fieldsOf<K extends keyof JobRecord>(id: string, ...keys: K[]): Promise<Pick<JobRecord, K> | null> {
    return this.Job.findById(id)
      .select(Object.fromEntries(keys.map((k) => [k, 1])))
      .lean<Pick<JobRecord, K>>()
      .exec();
  }

  /** An ended job's log kept apart (one read by id). */
  private async logOf(id: string): Promise<JobRecord['log']> {
    return (await this.Logs.findById(id).lean())?.log ?? [];
  }

  /**
   * Moves the logs of up to `limit` ended jobs that still carry theirs (jobs ended before logs
   * were kept apart, or whose move failed) to their own documents; returns how many moved.
   */
  async setLogsApart(limit = 200): Promise<number> {
    const ended = await this.Job.find({ state: { $in: TERMINAL_JOB_STATES }, logApart: { $ne: true }, log: { $exists: true } })
      .select({ _id: 1 })
      .limit(limit)
      .lean<{ _id: string }[]>();
    let moved = 0;
    for (const { _id } of ended) if (await this.setLogApart(_id)) moved++;
    return moved;
  }

  /**
   * An ended job's log moves to a document of its own (written first, then taken out of the
   * job, so a read finds it in one place or the other). FerretDB reads every document whole
   * for the queries that look through jobs (the worker's claim every poll, a library's jobs,
   * open counts): on a thousand ended jobs with their logs a claim cost a second of its CPU,
   * without them about 50 ms. Best effort: a log that did not move stays in its job.
   */
  private async setLogApart(id: string): Promise<boolean> {
    try {
      const job = await this.fieldsOf(id, 'state', 'log');
      if (!job || !TERMINAL_JOB_STATES.includes(job.state) || !Array.isArray(job.log)) return false;
      await this.Logs.updateOne({ _id: id }, { $set: { log: job.log } }, { upsert: true });
      const r = await this.Job.updateOne({ _id: id, state: job.state }, { $unset: { log: '' }, $set: { logApart: true } });
      return r.modifiedCount === 1;
    } catch {
      // The log stays in the job (reads find it there).
      return false;
    }
  }

  /**
   * The states of these jobs in one read per `STATES_CHUNK` ids, without their logs (what the
   * scheduler asks of its pending checks every tick); a job that is gone is absent.
   */
  async states(ids: Iterable<string>): Promise<Map<string, JobState>> {
    const all = [...new Set(ids)];
    const out = new Map<string, JobState>();
    for (let i = 0; i < all.length; i += STATES_CHUNK) {
      const docs = await this.Job.find({ _id: { $in: all.slice(i, i + STATES_CHUNK) } })
        .select({ state: 1 })
        .lean<{ _id: string; state: JobState }[]>();
      for (const doc of docs) out.set(String(doc._id), doc.state);
    }
    return out;
  }

  /** Jobs newest first; `logs: false` leaves ended jobs' logs unread (kept apart: a list view shows none). */
  async list(filter: { libraryId?: string; teamIds?: string[] | null; limit?: number; logs?: boolean }): Promise<JobRecord[]> {
    const q: Record<string, unknown> = {};
    if (filter.libraryId) q.libraryId = filter.libraryId;
    if (filter.teamIds) q.$or = [{ teamId: null }, { teamId: { $in: filter.teamIds } }];
    const docs = await this.Job.find(q)
      .sort({ createdAt: -1 })
      .limit(filter.limit ?? 50)
      .lean();
    const jobs = docs.map(typed).filter((j): j is JobRecord => j !== null);
    for (const job of jobs) if (job.log === undefined) job.log = job.logApart && filter.logs !== false ? await this.logOf(job._id) : [];
    return jobs;
  }

  /**
   * Waits until the job is terminal or `timeoutMs` passes: woken at once when this process ends
   * it (the in-process worker), else by a poll that slows to one every 2 s (another instance's worker).
   */
  async waitFor(id: string, timeoutMs: number): Promise<JobRecord | null> {
    const until = Date.now() + timeoutMs;
    let delay = 50;
    for (;;) {
      const job = await this.get(id);
      if (!job || TERMINAL_JOB_STATES.includes(job.state)) return job;
      if (Date.now() >= until) return job;
      await this.endOf(id, Math.min(delay, Math.max(0, until - Date.now())));
      delay = Math.min(delay * 1.5, 2000);
    }
  }

  /** Resolves when this process ends job `id`, or after `ms`. */
  private endOf(id: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.ended.off(id, done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.ended.once(id, done);
    });
  }

  /** Whether a non-terminal job exists for this library version. */
  async active(libraryId: string, version: string): Promise<JobRecord | null> {
    return typed(await this.Job.findOne({ libraryId, version, state: { $nin: TERMINAL_JOB_STATES } }).lean());
  }

  /**
   * The encrypted token of the library's newest job that carried one: a scheduled or
   * webhook refresh of a private library clones with the token its last build used.
   */
  async lastToken(libraryId: string): Promise<string | null> {
    const job = await this.Job.findOne({ libraryId, encryptedToken: { $ne: null } })
      .sort({ createdAt: -1 })
      .select({ encryptedToken: 1 })
      .lean<Pick<JobRecord, 'encryptedToken'>>();
    return job?.encryptedToken ?? null;
  }

  /**
   * The encrypted request headers of the library's newest finished build that carried some
   * (a website's refresh crawls with them): headers are source settings, which a build that
   * failed does not change.
   */
  async lastHeaders(libraryId: string): Promise<string | null> {
    const job = await this.Job.findOne({ libraryId, encryptedHeaders: { $ne: null }, state: 'finalized' })
      .sort({ createdAt: -1 })
      .select({ encryptedHeaders: 1 })
      .lean();
    return job?.encryptedHeaders ?? null;
  }

  /** Jobs not finished (for the soak's and the dashboard's counts). */
  countOpen(): Promise<number> {
    return this.Job.countDocuments({ state: { $nin: TERMINAL_JOB_STATES } });
  }
}

/**
 * Queued (and due) without a lease, or holding a lapsed lease in any unfinished state: a
 * claimed job keeps the state `queued` until its handler starts, so the lease is what
 * marks it taken.
 */
function claimable(now: Date): Record<string, unknown> {
  return {
    $or: [
      { state: 'queued', 'lease.until': null, notBefore: null },
      { state: 'queued', 'lease.until': null, notBefore: { $lte: now } },
      { state: { $in: ['queued', ...ACTIVE_STATES] }, 'lease.until': { $lt: now } },
    ],
  };
}

function isClaimable(job: JobRecord, now: Date): boolean {
  const until = job.lease?.until ? new Date(job.lease.until) : null;
  if (until) return until < now && (job.state === 'queued' || ACTIVE_STATES.includes(job.state));
  return job.state === 'queued' && (!job.notBefore || new Date(job.notBefore) <= now);
}
