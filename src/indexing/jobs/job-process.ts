/**
 * A process a worker runs jobs in (forked by process-runner.ts), so crawling, parsing and
 * embedding never hold the server's event loop and a job that exhausts its heap or crashes
 * takes only this process down. It connects to the stores itself (`createIndexingServices`)
 * and runs one job at a time with the generic handler; everything about the job's lease —
 * state, progress, log, cancellation, the commit — goes back to the worker over IPC.
 *
 * It lives only for its worker: it ignores SIGINT/SIGTERM (a terminal's Ctrl-C reaches the
 * whole process group; the worker decides when it ends) and exits when the IPC channel
 * closes (the worker's process died).
 */
import { createLogger } from '../../logger';
import { createIndexingServices, type IndexingServices } from '../../services';
import { StoreUnavailableError } from '../../errors';
import { isEsUnavailable } from '../../search/client';
import { isMongoUnavailable } from '../../store/mongo';
import type { JobRecord } from '../../store/models/job';
import { createJobHandler } from '../pipeline/handler';
import type { JobContext } from './worker';
import { fromWire, toWire, type ContextMethod, type FromJobProcess, type ToJobProcess } from './job-ipc';

const send = (message: FromJobProcess) => process.send?.(message);
const storeOf = (error: unknown) =>
  error instanceof StoreUnavailableError ? error.store : isEsUnavailable(error) ? 'elasticsearch' : isMongoUnavailable(error) ? 'mongodb' : undefined;

let services: IndexingServices | undefined;
const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
let nextCall = 1;
let abort: AbortController | undefined;

function call(method: ContextMethod, ...args: unknown[]): Promise<void> {
  const id = nextCall++;
  return new Promise<void>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    send({ t: 'call', id, method, args });
  });
}

async function run(job: JobRecord): Promise<void> {
  if (!services) throw new Error('the job process was not initialised');
  abort = new AbortController();
  const ctx: JobContext = {
    job,
    signal: abort.signal,
    setState: (state) => call('setState', state),
    progress: (p) => call('progress', p),
    report: (crawl) => call('report', crawl),
    log: (level, message) => void send({ t: 'log', level, message }),
    checkpoint: async () => {
      // Let timers and IPC messages (an abort) in between synchronous stretches.
      await new Promise((r) => setImmediate(r));
      if (abort?.signal.aborted) throw abort.signal.reason;
      await call('checkpoint');
    },
    commit: () => call('commit'),
  };
  try {
    await createJobHandler(services.deps)(ctx);
    send({ t: 'done', rss: process.memoryUsage().rss });
  } catch (error) {
    send({ t: 'failed', error: toWire(error, storeOf), rss: process.memoryUsage().rss });
  } finally {
    abort = undefined;
  }
}

process.on('message', (message: ToJobProcess) => {
  switch (message.t) {
    case 'init': {
      const log = createLogger(message.config.logLevel).child({ jobProcess: process.pid });
      createIndexingServices(message.config, log, () => send({ t: 'poke' })).then(
        (made) => {
          services = made;
          send({ t: 'ready' });
        },
        (error: unknown) => send({ t: 'init-failed', message: (error as Error).message }),
      );
      return;
    }
    case 'run':
      void run(message.job);
      return;
    case 'reply': {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.ok) waiting?.resolve();
      else waiting?.reject(fromWire(message.error));
      return;
    }
    case 'abort':
      abort?.abort(fromWire(message.error));
      return;
  }
});

process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('disconnect', () => {
  // The worker is gone: nothing may be written for the job any more (its lease lapses).
  void services?.close().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
});
