/**
 * The indexing worker: claims jobs, runs them with a renewed lease, and records the
 * outcome. Runs in-process by default, or alone (`npm run worker`) for scale-out.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../../logger';
import type { JobLogEntry, JobRecord, JobState } from '../../store/models/job';
import { appendLog, type JobQueue } from './queue';
import { JobFailure } from './failure';

/** What a job handler gets: progress and log reporting bound to its lease. */
export interface JobContext {
  job: JobRecord;
  setState(state: JobState): Promise<void>;
  progress(p: Partial<JobRecord['progress']>): Promise<void>;
  log(level: JobLogEntry['level'], message: string): void;
  /** Throws JobCancelledError when the job was cancelled or taken over. */
  checkpoint(): Promise<void>;
}

export type JobHandler = (ctx: JobContext) => Promise<void>;

export class JobCancelledError extends Error {}

export interface WorkerOptions {
  queue: JobQueue;
  handler: JobHandler;
  log: Logger;
  leaseMs: number;
  concurrency: number;
  pollMs?: number;
}

export class Worker {
  readonly id = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private running = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: WorkerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Wakes the worker now (after enqueueing) instead of at the next poll. */
  poke(): void {
    if (!this.stopped) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      while (this.running < this.options.concurrency && !this.stopped) {
        const job = await this.options.queue.claim(this.id, this.options.leaseMs);
        if (!job) break;
        this.running++;
        const p = this.run(job).finally(() => {
          this.running--;
          this.inFlight.delete(p);
          this.poke();
        });
        this.inFlight.add(p);
      }
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'worker could not claim jobs');
    }
    if (!this.stopped) this.schedule(this.options.pollMs ?? 1000);
  }

  private async run(job: JobRecord): Promise<void> {
    const { queue, leaseMs, log } = this.options;
    let entries = job.log ?? [];
    let progress = { ...job.progress };
    let lost = false;
    const owner = this.id;
    if (job.attempts > 1) entries = appendLog(entries, 'warn', `resumed by ${owner} (attempt ${job.attempts}) after the previous worker stopped`);
    const renew = setInterval(() => {
      queue.renew(job._id, owner, leaseMs).then((ok) => (lost ||= !ok), () => undefined);
    }, Math.max(1000, Math.floor(leaseMs / 3)));
    let lastFlush = 0;
    const flush = async (force = false) => {
      if (!force && Date.now() - lastFlush < 500) return;
      lastFlush = Date.now();
      await queue.update(job._id, owner, { log: entries, progress });
    };
    const ctx: JobContext = {
      job,
      async setState(state) {
        entries = appendLog(entries, 'info', `state: ${state}`);
        await queue.update(job._id, owner, { state, log: entries, progress });
      },
      async progress(p) {
        progress = { ...progress, ...p };
        await flush();
      },
      log(level, message) {
        entries = appendLog(entries, level, message);
        if (level !== 'info') log[level]({ jobId: job._id }, message);
      },
      async checkpoint() {
        if (lost) throw new JobCancelledError('the job was cancelled or taken over by another worker');
      },
    };
    try {
      await this.options.handler(ctx);
      await queue.update(job._id, owner, { state: 'finalized', progress, log: appendLog(entries, 'info', 'finalized'), finishedAt: new Date(), error: null, errorCode: null });
    } catch (error) {
      const cancelled = error instanceof JobCancelledError;
      const message = (error as Error).message;
      if (!cancelled) log.warn({ jobId: job._id, err: message }, 'job failed');
      await queue
        .update(job._id, owner, {
          state: cancelled ? 'cancelled' : 'failed',
          progress,
          error: message,
          errorCode: error instanceof JobFailure ? error.code : cancelled ? null : 'internal_error',
          log: appendLog(entries, 'error', cancelled ? `stopped: ${message}` : `failed: ${message}`),
          finishedAt: new Date(),
        })
        .catch(() => undefined);
    } finally {
      clearInterval(renew);
    }
  }
}
