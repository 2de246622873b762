/**
 * The main thread's side of the monitor's probe thread (health/probe-thread.ts): one
 * `StoreProbe` per store whose reads run in that thread. The thread is started on first use,
 * started again if it dies, and never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';
import { entryPoint } from '../entry-points';
import type { StoreName, StoreProbe } from './monitor';
import type { ProbeReply, ProbeRequest, ProbeThreadData } from './probe-thread';

export class ThreadProbes {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(ms: number): void; reject(e: Error): void; timer: NodeJS.Timeout }>();

  constructor(private readonly data: ProbeThreadData) {}

  /** The probes of both stores. */
  probes(): StoreProbe[] {
    return (['mongodb', 'elasticsearch'] as const).map((name) => ({ name, read: (timeoutMs: number) => this.read(name, timeoutMs) }));
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(entryPoint('probe-thread', 'health/probe-boot.mjs'), { workerData: this.data });
    worker.unref();
    worker.on('message', (reply: ProbeReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      clearTimeout(waiting.timer);
      if (reply.error !== undefined || reply.latencyMs === undefined) waiting.reject(new Error(reply.error ?? 'no answer'));
      else waiting.resolve(reply.latencyMs);
    });
    const gone = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const [id, waiting] of this.pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error(`the probe thread stopped (${why})`));
        this.pending.delete(id);
      }
    };
    worker.on('error', (error) => gone(error.message));
    worker.on('exit', (code) => gone(`exit ${code}`));
    this.worker = worker;
    return worker;
  }

  private read(store: StoreName, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      // The thread bounds the read itself; this only catches a thread that does not answer at
      // all, with room for a main thread that was busy when the answer came.
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the probe thread did not answer in ${timeoutMs + 10_000} ms`));
      }, timeoutMs + 10_000);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      this.thread().postMessage({ id, store, timeoutMs } satisfies ProbeRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    await worker.terminate().catch(() => undefined);
  }
}
