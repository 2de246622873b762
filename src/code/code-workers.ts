/**
 * The threads that run code searches and parses (code-thread.ts), a small pool shared by
 * every request of the process. Each task carries its deadline: the thread stops between
 * files when it passes, and a thread still busy a second later (a regular expression that
 * backtracks without end inside one file) is terminated and replaced, and the request
 * answered 504 `timeout`. Threads are unref'd: an idle pool never keeps a process alive.
 */
import { Worker } from 'node:worker_threads';
import { TimeoutError, ValidationError } from '../errors';
import type { ThreadReply, ThreadRequest } from './code-thread';
import { entryPoint } from '../entry-points';

type Task = { message: DistributiveOmit<ThreadRequest, 'id'>; deadline: number; resolve(reply: ThreadReply): void; reject(error: Error): void };
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** How long past its deadline a thread may stay busy before it is terminated. */
const GRACE_MS = 1000;

export class CodeThreads {
  private idle: Worker[] = [];
  private busy = 0;
  private queue: Task[] = [];
  private nextId = 1;

  constructor(private readonly size = 2) {}

  run(message: DistributiveOmit<ThreadRequest, 'id'>, deadline: number): Promise<ThreadReply> {
    return new Promise((resolve, reject) => {
      this.queue.push({ message, deadline, resolve, reject });
      this.dispatch();
    });
  }

  private readiness = new WeakMap<Worker, Promise<boolean>>();

  private spawn(): Worker {
    const w = new Worker(entryPoint('code-thread', 'code/code-boot.mjs'));
    w.unref();
    this.readiness.set(
      w,
      new Promise<boolean>((resolve) => {
        w.once('message', (m) => resolve(m === 'ready'));
        w.once('error', () => resolve(false));
        w.once('exit', () => resolve(false));
      }),
    );
    return w;
  }

  private dispatch(): void {
    while (this.queue.length > 0 && (this.idle.length > 0 || this.busy < this.size)) {
      const task = this.queue.shift() as Task;
      if (Date.now() > task.deadline) {
        task.reject(new TimeoutError('The code tools are busy: the request waited past its deadline. Try again, or narrow it with path.'));
        continue;
      }
      const worker = this.idle.pop() ?? this.spawn();
      this.busy++;
      void this.execute(worker, task);
    }
  }

  private async execute(worker: Worker, task: Task): Promise<void> {
    // A new thread takes a moment to load (TypeScript through tsx): not the request's time.
    const waiting = Date.now();
    if (!(await this.readiness.get(worker))) {
      this.busy--;
      void worker.terminate();
      task.reject(new Error('a code-tools thread failed to start'));
      this.dispatch();
      return;
    }
    const boot = Date.now() - waiting;
    if (boot > 0) {
      task.deadline += boot;
      if (task.message.op === 'scan') task.message = { ...task.message, request: { ...task.message.request, deadline: task.message.request.deadline + boot } };
      else task.message = { ...task.message, deadline: task.message.deadline + boot };
    }
    const id = this.nextId++;
    let done = false;
    const finish = (reuse: boolean) => {
      done = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      this.busy--;
      if (reuse) this.idle.push(worker);
      else void worker.terminate();
      this.dispatch();
    };
    const onMessage = (reply: ThreadReply) => {
      if (reply.id !== id || done) return;
      finish(true);
      if ('error' in reply)
        task.reject(reply.syntax ? new ValidationError(`query is not a valid regular expression: ${reply.error}`, 'query') : new Error(reply.error));
      else task.resolve(reply);
    };
    const onError = (error: Error) => {
      if (done) return;
      finish(false);
      task.reject(error);
    };
    const timer = setTimeout(
      () => {
        if (done) return;
        finish(false);
        task.reject(
          new TimeoutError('The search did not finish in time (a regular expression that backtracks heavily?). Simplify the pattern or narrow it with path.'),
        );
      },
      Math.max(0, task.deadline - Date.now()) + GRACE_MS,
    );
    timer.unref();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.postMessage({ ...task.message, id });
  }

  async close(): Promise<void> {
    const all = this.idle.splice(0);
    await Promise.all(all.map((w) => w.terminate()));
  }
}

let shared: CodeThreads | undefined;

/** The process's pool. */
export function codeThreads(): CodeThreads {
  shared ??= new CodeThreads();
  return shared;
}
