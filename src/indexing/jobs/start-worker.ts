/**
 * Builds and starts the indexing worker of a process (the entry points call it through the
 * composition's lifecycle): jobs run in this event loop or, with JOB_ISOLATION=process, each
 * in a process of its own.
 */
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { JobQueue } from '../../store/jobs';
import type { LibraryRepository } from '../../store/libraries';
import { isMongoUnavailable } from '../../store/mongo';
import { isEsUnavailable } from '../../search/client';
import { StoreUnavailableError } from '../../errors';
import { BUILD_SOURCES, CRAWL_SOURCES } from '../../domain/job-params';
import { Worker, type JobHandler } from './worker';
import { ProcessJobRunner } from './process-runner';
import { createJobHandler } from '../pipeline/handler';
import type { IndexingDeps } from '../pipeline/deps';

export interface WorkerDeps {
  config: Readonly<Config>;
  log: Logger;
  jobs: JobQueue;
  libraries: LibraryRepository;
  buildDeps(): IndexingDeps;
}

/** A started worker and what stops it (the worker, then the job processes). */
export interface RunningWorker {
  worker: Worker;
  stop(): Promise<void>;
}

export function startWorker(deps: WorkerDeps, poke: () => void): RunningWorker {
  const { config, log, libraries } = deps;
  let jobProcesses: ProcessJobRunner | undefined;
  let handler: JobHandler;
  if (config.jobIsolation === 'process') {
    // Each job in a process of its own (off this event loop); it changes libraries
    // behind this process's cache, which forgets them when the job ends.
    const runner = new ProcessJobRunner({ config, log, poke });
    jobProcesses = runner;
    handler = (ctx) =>
      runner
        .handler(ctx)
        .finally(() =>
          libraries.forget(ctx.job.libraryId).catch((error: Error) => log.warn({ err: error.message }, 'could not re-read a library after its job')),
        );
  } else {
    handler = createJobHandler(deps.buildDeps());
  }
  const worker = new Worker({
    queue: deps.jobs,
    handler,
    log,
    leaseMs: config.jobLeaseSeconds * 1000,
    concurrency: config.workerConcurrency,
    lanes: [
      { name: 'builds', sources: BUILD_SOURCES.filter((s) => !CRAWL_SOURCES.includes(s)), concurrency: config.workerConcurrency },
      { name: 'crawls', sources: CRAWL_SOURCES, concurrency: config.workerCrawlConcurrency },
    ],
    isTransient: (error) => error instanceof StoreUnavailableError || isEsUnavailable(error) || isMongoUnavailable(error),
  });
  worker.start();
  return {
    worker,
    async stop() {
      await worker.stop();
      await jobProcesses?.close();
    },
  };
}
