/**
 * The indexing worker: claims jobs, runs them with a renewed lease, and records the
 * outcome. Runs in-process by default, or alone (`npm run worker`) for scale-out.
 *
 * A job's writes from its worker go one at a time (progress, log, lease renewals): on
 * FerretDB each update rewrites the whole document, so two in flight could undo each other.
 * A store outage does not fail a job: it goes back to the queue and is tried again later,
 * with backoff, up to {@link MAX_RETRIES} times.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../../logger';
import type { CrawlReport, JobLogEntry, JobRecord, JobState } from '../../store/models/job';
import type { JobQueue } from '../../store/jobs';
import type { BuildSource } from '../../domain/job-params';
import { BUILD_SOURCES } from '../../domain/job-params';
import { appendLog } from '../../domain/job-log';
import { JobFailure } from './failure';

/** What a job handler gets: progress and log reporting bound to its lease. */
export interface JobContext {
  job: JobRecord;
  /**
   * Aborted (with a JobCancelledError) as soon as the job must stop — cancelled, or taken
   * over — so a step that waits (a crawl seeding from sitemaps, a politeness pause) stops
   * too, not only at its next checkpoint.
   */
  signal?: AbortSignal;
  setState(state: JobState): Promise<void>;
  progress(p: Partial<JobRecord['progress']>): Promise<void>;
  /** Records what a crawl or an archive left out and why (the job's `crawl` report). */
  report(crawl: CrawlReport): Promise<void>;
  log(level: JobLogEntry['level'], message: string): void;
  /** Throws JobCancelledError when the job was cancelled or taken over. */
  checkpoint(): Promise<void>;
  /**
   * Call right before making the build visible (publishing). Throws JobCancelledError when
   * a cancel came first; after it, a cancel is refused and the job will be completed.
   */
  commit(): Promise<void>;
}

export type JobHandler = (ctx: JobContext) => Promise<void>;

/** The job must stop: it was cancelled, or it is no longer this worker's (`lost`). */
export class JobCancelledError extends Error {
  constructor(
    message: string,
    readonly reason: 'cancelled' | 'lost' = 'cancelled',
  ) {
    super(message);
  }
}

/** Store outages a job survives by being tried again later. */
export const MAX_RETRIES = 10;
const RETRY_BASE_MS = 5000;
const RETRY_MAX_MS = 120_000;

/**
 * Jobs of some sources with slots of their own, so one kind cannot starve another: a crawl
 * paced by a site's politeness never holds the slot a Git or archive build needs.
 */
export interface WorkerLane {
  name: string;
  sources: readonly BuildSource[];
  concurrency: number;
}

export interface WorkerOptions {
  queue: JobQueue;
  handler: JobHandler;
  log: Logger;
  leaseMs: number;
  /** Jobs run at once when no `lanes` are given (one lane of every source). */
  concurrency: number;
  lanes?: readonly WorkerLane[];
  /** Poll interval after work (default 1 s); it doubles while nothing is claimed, up to `maxPollMs`. */
  pollMs?: number;
  /** The longest wait between polls when idle (default 10 × pollMs: 10 s); an in-process enqueue wakes the worker at once. */
  maxPollMs?: number;
  /** How often a running job's cancellation is looked for (default 2 s; renewals also see it). */
  cancelPollMs?: number;
  /** Whether an error means a store was unavailable (the job is retried, not failed). */
  isTransient?: (error: unknown) => boolean;
  /** Delay before the n-th retry (default: 5 s doubling, at most 2 min). */
  retryDelayMs?: (retry: number) => number;
}

export class Worker {
  readonly id = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private readonly lanes: Array<WorkerLane & { running: number }>;
  /** Whether claims are per lane (lanes given); else any job, as one lane of `concurrency`. */
  private readonly laned: boolean;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  /** The poll under way: a claim it is awaiting may still hand it a job. */
  private ticking: Promise<void> | undefined;
  /** When the last claim failed because the store was unreachable (logged once per outage). */
  private claimFailing = false;
  /** The wait before the next poll: it grows while polls find nothing (an idle queue costs the store little). */
  private idleMs = 0;

  constructor(private readonly options: WorkerOptions) {
    const lanes = options.lanes ?? [{ name: 'jobs', sources: BUILD_SOURCES, concurrency: options.concurrency }];
    this.lanes = lanes.map((l) => ({ ...l, running: 0 }));
    this.laned = options.lanes !== undefined;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Wakes the worker now (after enqueueing) instead of at the next poll. */
  poke(): void {
    this.idleMs = 0;
    if (!this.stopped) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // A claim already sent may still win a job: wait for the poll, so that job runs (and is
    // waited for below) before stop() returns, never after it.
    await this.ticking;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Jobs this worker is running now. */
  get busy(): number {
    return this.lanes.reduce((n, l) => n + l.running, 0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const tick = this.tick();
      this.ticking = tick;
      void tick.finally(() => {
        if (this.ticking === tick) this.ticking = undefined;
      });
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      let looked = false;
      let claimed = false;
      for (const lane of this.lanes) {
        while (lane.running < lane.concurrency && !this.stopped) {
          looked = true;
          const job = await this.options.queue.claim(
            this.id,
            this.options.leaseMs,
            this.laned ? { sources: lane.sources, slots: lane.concurrency } : undefined,
          );
          if (this.claimFailing) this.options.log.info('worker claims jobs again');
          this.claimFailing = false;
          if (!job) break;
          claimed = true;
          lane.running++;
          const p = this.run(job).finally(() => {
            lane.running--;
            this.inFlight.delete(p);
            this.poke();
          });
          this.inFlight.add(p);
        }
      }
      if (claimed) this.idleMs = 0;
      else if (looked) {
        // Nothing to do: wait longer next time (other instances' jobs are found within maxPollMs).
        const base = this.options.pollMs ?? 1000;
        this.idleMs = Math.min(this.idleMs === 0 ? base : this.idleMs * 2, this.options.maxPollMs ?? base * 10);
      }
    } catch (error) {
      if (!this.claimFailing) this.options.log.warn({ err: (error as Error).message }, 'worker could not claim jobs; retrying every poll');
      this.claimFailing = true;
    }
    if (!this.stopped) this.schedule(this.idleMs || (this.options.pollMs ?? 1000));
  }

  private async run(job: JobRecord): Promise<void> {
    const { queue, leaseMs, log } = this.options;
    const owner = this.id;
    let entries = job.log ?? [];
    let progress = { ...job.progress };
    /** Why the job must stop (taken over or cancelled), once known; `halted` tells the handler at once. */
    let stop: JobCancelledError | null = null;
    const halted = new AbortController();
    const halt = (reason: JobCancelledError) => {
      stop ??= reason;
      if (!halted.signal.aborted) halted.abort(stop);
    };
    let renewedAt = Date.now();
    let committed = false;
    if (job.attempts > 1)
      entries = appendLog(
        entries,
        'warn',
        `resumed by ${owner} (attempt ${job.attempts}) ${job.retries > 0 ? `after ${job.retries} store outage(s)` : 'after the previous worker stopped'}`,
      );

    // One write at a time for this job.
    let writes: Promise<unknown> = Promise.resolve();
    const serial = <T>(fn: () => Promise<T>): Promise<T> => {
      const next = writes.then(fn, fn);
      writes = next.catch(() => undefined);
      return next;
    };
    /** Extends the lease; the owner check in the store decides whether the job is still ours. */
    const renewLease = async () => {
      const r = await serial(() => queue.renew(job._id, owner, leaseMs, job.attempts)).catch(() => 'unreachable' as const);
      if (r === 'ok') renewedAt = Date.now();
      else if (r !== 'unreachable')
        halt(r === 'cancelled' ? new JobCancelledError('the job was cancelled') : new JobCancelledError('the job was taken over by another worker', 'lost'));
    };
    const renew = setInterval(() => void renewLease(), Math.max(1000, Math.floor(leaseMs / 3)));
    // A cancel is seen within seconds, not only at the next renewal (a third of the lease).
    const watchCancel = setInterval(() => {
      if (stop || committed) return;
      queue.outcome(job._id).then(
        (o) => o === 'cancelled' && !committed && halt(new JobCancelledError('the job was cancelled')),
        () => undefined,
      );
    }, this.options.cancelPollMs ?? 2000);
    /**
     * Between steps: a lease that has not been renewed for a whole lease (the timer could not
     * run while a step kept the thread busy, or the store did not answer) is renewed now. The
     * job is still ours when nobody claimed it meanwhile; a worker that cannot tell stops.
     */
    const check = async () => {
      if (!stop && Date.now() - renewedAt > leaseMs) await renewLease();
      if (!stop && Date.now() - renewedAt > leaseMs) halt(new JobCancelledError('the lease could not be renewed in time (store unreachable)', 'lost'));
      if (stop) throw stop;
    };
    let lastFlush = 0;
    const flush = async (force = false) => {
      if (!force && Date.now() - lastFlush < 500) return;
      lastFlush = Date.now();
      await serial(() => queue.update(job._id, owner, { log: entries, progress }));
    };
    const ctx: JobContext = {
      job,
      signal: halted.signal,
      async setState(state) {
        entries = appendLog(entries, 'info', `state: ${state}`);
        await serial(() => queue.update(job._id, owner, { state, log: entries, progress }));
      },
      async progress(p) {
        progress = { ...progress, ...p };
        await flush();
      },
      async report(crawl) {
        await serial(() => queue.update(job._id, owner, { crawl }));
      },
      log(level, message) {
        entries = appendLog(entries, level, message);
        if (level !== 'info') log[level]({ jobId: job._id }, message);
      },
      async checkpoint() {
        // Let the renewal timer and other callbacks run between synchronous stretches.
        await new Promise((r) => setImmediate(r));
        await check();
      },
      async commit() {
        // Only the lease's owner commits: renewing now proves it, and no other worker can
        // claim the job for a lease's length after.
        if (!committed && !stop) await renewLease();
        await check();
        if (!committed && !(await serial(() => queue.commit(job._id, owner)))) {
          halt(new JobCancelledError('the job was cancelled'));
          await check();
        }
        committed = true;
      },
    };
    try {
      await this.options.handler(ctx);
      await ctx.commit();
      await serial(() => queue.finish(job._id, owner, 'finalized', { progress, log: appendLog(entries, 'info', 'finalized'), error: null, errorCode: null }));
    } catch (error) {
      await this.ended(job, error, { entries, progress, committed }, serial).catch((e: unknown) => {
        log.warn({ jobId: job._id, err: (e as Error).message }, 'could not record the end of a job; its lease will lapse and it will be claimed again');
      });
    } finally {
      clearInterval(renew);
      clearInterval(watchCancel);
    }
  }

  /** Records a failed, cancelled or (store outage) released job. */
  private async ended(
    job: JobRecord,
    error: unknown,
    at: { entries: JobLogEntry[]; progress: JobRecord['progress']; committed: boolean },
    serial: <T>(fn: () => Promise<T>) => Promise<T>,
  ): Promise<void> {
    const { queue, log } = this.options;
    const message = (error as Error).message;
    if (error instanceof JobCancelledError && error.reason === 'lost') {
      // Not ours any more: whoever claims it next runs it; nothing is written here.
      log.warn({ jobId: job._id, err: message }, 'job given up by this worker');
      return;
    }
    if (error instanceof JobCancelledError) {
      await serial(() =>
        queue.finish(job._id, this.id, 'cancelled', {
          progress: at.progress,
          error: message,
          errorCode: null,
          log: appendLog(at.entries, 'warn', `stopped: ${message}`),
        }),
      );
      return;
    }
    const retries = job.retries ?? 0;
    if (this.options.isTransient?.(error) && retries < MAX_RETRIES) {
      const delay = this.options.retryDelayMs?.(retries + 1) ?? Math.min(RETRY_BASE_MS * 2 ** retries, RETRY_MAX_MS);
      log.warn({ jobId: job._id, err: message, retryInMs: delay }, 'job interrupted by a store outage; it will be tried again');
      const entries = appendLog(at.entries, 'warn', `a store was unavailable (${message}); trying again in ${Math.round(delay / 1000)} s`);
      // MongoDB itself may be the store that is down: keep trying to put the job back for
      // half a lease (after that the lease lapses and the job is claimed again anyway).
      const giveUpAt = Date.now() + this.options.leaseMs / 2;
      for (;;) {
        try {
          await serial(() => queue.release(job._id, this.id, new Date(Date.now() + delay), { progress: at.progress, log: entries, retries: retries + 1 }));
          return;
        } catch (releaseError) {
          if (Date.now() >= giveUpAt) throw releaseError;
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    }
    log.warn({ jobId: job._id, err: message }, 'job failed');
    const final = await serial(() =>
      queue.finish(job._id, this.id, 'failed', {
        progress: at.progress,
        error: message,
        errorCode: error instanceof JobFailure ? error.code : 'internal_error',
        errorDetails: error instanceof JobFailure ? { ...error.details } : null,
        log: appendLog(at.entries, 'error', `failed: ${message}`),
      }),
    );
    if (final === 'cancelled') log.info({ jobId: job._id }, 'the job failed after it was cancelled; recorded as cancelled');
  }
}
