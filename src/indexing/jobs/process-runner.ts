/**
 * Runs each job in a process of its own (job-process.ts), the worker's default
 * (JOB_ISOLATION=process): crawling, parsing and embedding then never stall the server's
 * event loop (`/livez` answers while a job parses megabytes of HTML), and a job that runs
 * out of heap (JOB_MAX_HEAP_MB) or crashes ends that process, not the server. The job is
 * then failed with the reason at once instead of being claimed again.
 *
 * The worker keeps the job's context: the lease is renewed here, and the process calls
 * setState, progress, report, checkpoint and commit over IPC. A cancel aborts the job's
 * signal in the process; if it has not ended a few seconds later (a synchronous stretch,
 * a stuck request) it is killed — nothing it built is published, since publishing needs a
 * commit the worker refuses after a cancel.
 *
 * Processes are reused: one that ended its job well waits for the next (starting one costs
 * ~2 s of module loading and store connections), unless another already waits, it grew
 * past JOB_PROCESS_RECYCLE_MB, or it idled for IDLE_MS.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config';
import { COMPILED, entryPoint } from '../../entry-points';
import type { Logger } from '../../logger';
import { JobFailure } from './failure';
import { fromWire, toWire, type FromJobProcess, type ToJobProcess } from './job-ipc';
import { JobCancelledError, type JobContext, type JobHandler } from './worker';

const ENTRY = fileURLToPath(entryPoint('job-process', 'indexing/jobs/job-process.ts'));
/** How long a cancelled job's process may take to stop by itself before it is killed. */
const STOP_GRACE_MS = 5000;
/** An idle process exits after this long without a job. */
const IDLE_MS = 10 * 60_000;
/** A process larger than this after its job is not reused. */
const RECYCLE_BYTES = 768 * 1024 * 1024;

export interface ProcessRunnerOptions {
  config: Readonly<Config>;
  log: Logger;
  /** The worker's poke (the process added jobs: versions of a repository). */
  poke(): void;
}

interface JobProcess {
  child: ChildProcess;
  ready: Promise<void>;
  idleTimer?: NodeJS.Timeout;
}

export class ProcessJobRunner {
  private idle: JobProcess | undefined;
  private readonly all = new Set<JobProcess>();
  private closed = false;

  constructor(private readonly options: ProcessRunnerOptions) {}

  /** The worker's handler: the job runs in a process. */
  readonly handler: JobHandler = (ctx) => this.run(ctx);

  /** Ends every process (after the worker stopped: no job is running). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((p) => this.end(p)));
  }

  private async run(ctx: JobContext): Promise<void> {
    const proc = this.take();
    try {
      await proc.ready;
    } catch (error) {
      this.discard(proc);
      throw error;
    }
    const outcome = await this.runIn(proc, ctx);
    if (outcome.keep && !this.closed && !this.idle) this.park(proc);
    else void this.end(proc);
    if (outcome.error) throw outcome.error;
  }

  /** Keeps a process for the next job, for a while. */
  private park(proc: JobProcess): void {
    this.idle = proc;
    proc.idleTimer = setTimeout(() => {
      if (this.idle === proc) this.idle = undefined;
      void this.end(proc);
    }, IDLE_MS);
    proc.idleTimer.unref();
  }

  /** Runs the job in `proc`: whether the process may be reused, and the job's error if it failed. */
  private runIn(proc: JobProcess, ctx: JobContext): Promise<{ keep: boolean; error?: Error }> {
    const { child } = proc;
    return new Promise((resolve) => {
      let killTimer: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (outcome: { keep: boolean; error?: Error }) => {
        if (settled) return;
        settled = true;
        clearTimeout(killTimer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        ctx.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const reply = (message: ToJobProcess) => {
        if (child.connected) child.send(message);
      };
      const onAbort = () => {
        const reason = ctx.signal?.reason instanceof JobCancelledError ? ctx.signal.reason : new JobCancelledError('the job was cancelled');
        reply({ t: 'abort', error: toWire(reason, () => undefined) });
        killTimer = setTimeout(() => {
          this.options.log.warn(
            { jobId: ctx.job._id, pid: child.pid },
            `the job did not stop within ${STOP_GRACE_MS / 1000} s of its cancel: its process is killed`,
          );
          child.kill('SIGKILL');
          finish({ keep: false, error: reason });
        }, STOP_GRACE_MS);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        this.discard(proc);
        finish({ keep: false, error: this.exitFailure(ctx, code, signal) });
      };
      const onMessage = (message: FromJobProcess) => {
        switch (message.t) {
          case 'call': {
            const method = ctx[message.method] as (...args: unknown[]) => Promise<void>;
            Reflect.apply(method, ctx, message.args).then(
              () => reply({ t: 'reply', id: message.id, ok: true }),
              (error: unknown) => reply({ t: 'reply', id: message.id, ok: false, error: toWire(error, () => undefined) }),
            );
            return;
          }
          case 'log':
            ctx.log(message.level, message.message);
            return;
          case 'poke':
            this.options.poke();
            return;
          case 'done':
            return finish({ keep: message.rss < RECYCLE_BYTES });
          case 'failed':
            return finish({ keep: message.rss < RECYCLE_BYTES, error: fromWire(message.error) });
          default:
            return;
        }
      };
      if (!child.connected || child.exitCode !== null || child.signalCode !== null) {
        return finish({ keep: false, error: new Error("The job's process ended before the job could start in it; add or refresh the library again.") });
      }
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (ctx.signal?.aborted) onAbort();
      else ctx.signal?.addEventListener('abort', onAbort, { once: true });
      reply({ t: 'run', job: ctx.job });
    });
  }

  private exitFailure(ctx: JobContext, code: number | null, signal: NodeJS.Signals | null): Error {
    if (ctx.signal?.aborted && ctx.signal.reason instanceof JobCancelledError) return ctx.signal.reason;
    const heap = this.options.config.jobMaxHeapMb;
    // V8 aborts on an exhausted heap (SIGABRT, or exit code 134 through a shell); the kernel's OOM killer sends SIGKILL.
    if (signal === 'SIGABRT' || code === 134 || signal === 'SIGKILL') {
      return new JobFailure(
        'payload_too_large',
        `The job ran out of memory (its process was stopped by ${signal ?? `exit code ${code}`}; a job may use ${heap} MB of heap, JOB_MAX_HEAP_MB). The source is too large to index in one job: lower maxPages, or add a narrower part of it.`,
      );
    }
    return new JobFailure(
      'internal_error',
      `The job's process exited unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); see the server log.`,
    );
  }

  private take(): JobProcess {
    const idle = this.idle;
    this.idle = undefined;
    if (idle) clearTimeout(idle.idleTimer);
    if (idle && idle.child.connected && idle.child.exitCode === null && idle.child.signalCode === null) return idle;
    return this.spawn();
  }

  private spawn(): JobProcess {
    const { config, log } = this.options;
    const child = fork(ENTRY, [], {
      execArgv: jobProcessArgs(process.execArgv, config.jobMaxHeapMb),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromJobProcess) => {
        if (message.t === 'ready') resolve();
        else if (message.t === 'init-failed') reject(new Error(`The job process could not start: ${message.message}`));
        else return;
        child.off('message', onMessage);
      };
      child.on('message', onMessage);
      child.once('exit', (code, signal) => reject(new Error(`The job process exited while starting (${signal ?? `exit code ${code}`}).`)));
    });
    ready.catch(() => undefined);
    const proc: JobProcess = { child, ready };
    this.all.add(proc);
    child.once('exit', () => {
      this.all.delete(proc);
      // An idle process that died (killed, crashed) is not handed the next job.
      if (this.idle === proc) this.idle = undefined;
      clearTimeout(proc.idleTimer);
    });
    child.send({ t: 'init', config } satisfies ToJobProcess);
    log.debug({ pid: child.pid }, 'job process started');
    return proc;
  }

  private discard(proc: JobProcess): void {
    if (this.idle === proc) this.idle = undefined;
    clearTimeout(proc.idleTimer);
    void this.end(proc);
  }

  private end(proc: JobProcess): Promise<void> {
    clearTimeout(proc.idleTimer);
    const { child } = proc;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      // Closing the channel makes it close its connections and exit.
      if (child.connected) child.disconnect();
      else child.kill('SIGKILL');
    });
  }
}

/**
 * The job process's Node options: the server's own (the tsx loader among them when it runs
 * as TypeScript), without a heap size or an inspector port of its own, and with the job's
 * heap limit. Built, the process runs dist/job-process.js and needs no loader.
 */
export function jobProcessArgs(execArgv: readonly string[], heapMb: number, compiled = COMPILED): string[] {
  const args = execArgv.filter((a) => !/^--(max-old-space-size|inspect|inspect-brk|inspect-port)(=|$)/.test(a));
  if (!compiled && !args.some((a) => a.includes('tsx'))) args.push('--import', 'tsx');
  return [...args, `--max-old-space-size=${heapMb}`];
}
