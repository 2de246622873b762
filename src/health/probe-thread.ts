/**
 * The store monitor's reads, in a thread of their own: a read timed on the server's main
 * thread also measures whatever blocks that thread (parsing a large document, a burst of
 * requests), which would both inflate store latency and, past the timeout, mark a healthy
 * store down. Here the reads wait only for the stores.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { mongoReadProbe, type ReadProbe } from '../store/mongo-probe';
import { elasticsearchReadProbe } from '../search/read-probe';

export interface ProbeThreadData {
  mongodbUri: string;
  mongodbDb: string;
  elasticsearchNodes: string[];
  alias: string;
}
export interface ProbeRequest {
  id: number;
  store: 'mongodb' | 'elasticsearch';
  timeoutMs: number;
}
export interface ProbeReply {
  id: number;
  latencyMs?: number;
  error?: string;
}

const data = workerData as ProbeThreadData;
const probes: Record<ProbeRequest['store'], ReadProbe> = {
  mongodb: mongoReadProbe(data.mongodbUri, data.mongodbDb),
  elasticsearch: elasticsearchReadProbe(data.elasticsearchNodes, data.alias),
};

parentPort?.on('message', (request: ProbeRequest | 'close') => {
  if (request === 'close') {
    void Promise.all(Object.values(probes).map((p) => p.close())).finally(() => process.exit(0));
    return;
  }
  probes[request.store].read(request.timeoutMs).then(
    (latencyMs) => parentPort?.postMessage({ id: request.id, latencyMs } satisfies ProbeReply),
    (error: unknown) => parentPort?.postMessage({ id: request.id, error: (error as Error).message || String(error) } satisfies ProbeReply),
  );
});
