/**
 * An embedder whose documents are embedded in a worker thread (embed-thread.ts) and whose
 * queries are embedded on the calling thread. onnxruntime-node runs inference synchronously,
 * so a build embedding thousands of snippets in the server's main thread held the event loop
 * for ~0.5 s per batch and every request waited; a query (~3 ms, cached) stays where it is
 * asked. The thread is started on first use, again after it dies, and keeps the process
 * alive only while it has work.
 */
import { Worker } from 'node:worker_threads';
import { entryPoint } from '../entry-points';
import type { Embedder, EmbedderOptions } from './embedder';
import type { EmbedReply, EmbedRequest, EmbedThreadData } from './embed-thread';

export function threadedEmbedder(inner: Embedder, dir: string, options: EmbedderOptions): Embedder {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve(vectors: Float32Array[]): void; reject(error: Error): void }>();

  const settle = (w: Worker) => {
    if (pending.size === 0) w.unref();
    else w.ref();
  };

  function thread(): Worker {
    if (worker) return worker;
    const w = new Worker(entryPoint('embed-thread', 'embedding/embed-boot.mjs'), { workerData: { dir, options } satisfies EmbedThreadData });
    w.on('message', (reply: EmbedReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      settle(w);
      if (reply.vectors) waiting.resolve(reply.vectors);
      else waiting.reject(new Error(`embedding failed: ${reply.error ?? 'no answer'}`));
    });
    const gone = (why: string) => {
      if (worker !== w) return;
      worker = undefined;
      for (const [id, waiting] of pending) {
        waiting.reject(new Error(`the embedding thread stopped (${why})`));
        pending.delete(id);
      }
    };
    w.on('error', (error) => gone(error.message));
    w.on('exit', (code) => gone(`exit ${code}`));
    worker = w;
    return w;
  }

  return {
    get modelId() {
      return inner.modelId;
    },
    get queryModelId() {
      return inner.queryModelId;
    },
    get graphProblem() {
      return inner.graphProblem;
    },
    get dims() {
      return inner.dims;
    },
    maxTokens: inner.maxTokens,
    tokenize: (text) => inner.tokenize(text),
    embedQuery: (text) => inner.embedQuery(text),
    embed(texts) {
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        const w = thread();
        settle(w);
        w.postMessage({ id, texts: [...texts] } satisfies EmbedRequest);
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      if (w) {
        const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
        w.ref(); // until it has exited
        w.postMessage('close');
        // A thread busy with a long batch is not waited for past a few seconds.
        await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 5000).unref())]);
        await w.terminate();
      }
      await inner.close();
    },
  };
}
