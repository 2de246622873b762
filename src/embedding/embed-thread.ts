/**
 * The document-embedding thread (threaded.ts): loads the model folder's document graph and
 * embeds the batches the main thread sends, so inference (synchronous in onnxruntime-node)
 * never holds the server's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadEmbedder, type EmbedderOptions } from './embedder';

export interface EmbedThreadData {
  dir: string;
  options: EmbedderOptions;
}
export interface EmbedRequest {
  id: number;
  texts: string[];
}
export interface EmbedReply {
  id: number;
  vectors?: Float32Array[];
  error?: string;
}

const data = workerData as EmbedThreadData;
const embedder = loadEmbedder(data.dir, data.options);

parentPort?.on('message', (request: EmbedRequest | 'close') => {
  if (request === 'close') {
    void embedder.then((e) => e.close()).finally(() => process.exit(0));
    return;
  }
  embedder
    .then((e) => e.embed(request.texts))
    .then(
      (vectors) =>
        parentPort?.postMessage(
          { id: request.id, vectors } satisfies EmbedReply,
          vectors.map((v) => v.buffer as ArrayBuffer),
        ),
      (error: unknown) => parentPort?.postMessage({ id: request.id, error: (error as Error).message ?? String(error) } satisfies EmbedReply),
    );
});
