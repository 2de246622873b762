/**
 * The composition root: connects the stores and builds every service once. HTTP, MCP, the
 * worker and the CLI scripts all receive this object, so they share the same use cases.
 */
import type { Connection } from 'mongoose';
import type { Config } from './config';
import type { Logger } from './logger';
import { connectMongo, isMongoUnavailable } from './store/mongo';
import { checkElasticsearch, createEsClient, createIndexingEsClient, HotSearch, isEsUnavailable, type EsClient, type NodeInfo } from './search/client';
import { ThreadProbes } from './health/thread-probes';
import { StoreGate, StoreMonitor, type StoreName, type StoreReading } from './health/monitor';
import { StoreUnavailableError } from './errors';
import { libraryModel, type LibraryModel } from './store/models/library';
import { jobModel, type JobModel } from './store/models/job';
import { manifestModel, type ManifestModel } from './store/models/manifest';
import { ManifestStore } from './store/manifests';
import { projectModel, type ProjectModel } from './store/models/project';
import { ProjectStore } from './store/projects';
import { LibraryRepository } from './store/libraries';
import { CatalogGeneration } from './store/library-cache';
import { CatalogIndex } from './search/catalog-index';
import { CatalogSync } from './catalog/catalog-sync';
import { SnippetStore } from './search/snippet-store';
import { snippetIndexDefinition } from './search/mappings';
import type { SnippetDocument } from './search/types';
import { JobQueue } from './store/jobs';
import { LockStore, lockModel, type LockModel } from './store/locks';
import { Worker, type JobHandler } from './indexing/jobs/worker';
import { ProcessJobRunner } from './indexing/jobs/process-runner';
import { createJobHandler, versionEnqueuer } from './indexing/pipeline/handler';
import type { IndexingDeps } from './indexing/pipeline/deps';
import { BUILD_SOURCES, CRAWL_SOURCES } from './domain/job-params';
import { decryptSecret } from './auth/crypto';
import { createAuthServices, type AuthServices } from './auth/compose';
import { bootstrapAuth } from './auth/bootstrap';
import { RefreshScheduler } from './catalog/scheduler';
import { createEmbeddings, type Embeddings } from './embedding/service';
import { VectorStore, VECTORS_MAPPING_VERSION } from './search/vector-store';
import { applyIndexLayout } from './search/index-layout';

export interface Models {
  Library: LibraryModel;
  Job: JobModel;
  Manifest: ManifestModel;
  Lock: LockModel;
  Project: ProjectModel;
}

export interface Services extends AuthServices {
  config: Readonly<Config>;
  log: Logger;
  mongo: Connection;
  es: EsClient;
  esInfo: NodeInfo;
  models: Models;
  libraries: LibraryRepository;
  /** The catalogue index library search reads (search/catalog-index.ts), and what keeps it in step with the records. */
  catalogIndex: CatalogIndex;
  catalogSync: CatalogSync;
  /** What each built version was made of (bundle export, library deletion). */
  manifests: ManifestStore;
  /** Projects: lockfiles and the library versions they pin (projects/). */
  projects: ProjectStore;
  /** Locks under a unique id: what must happen once (store/locks.ts). */
  locks: LockStore;
  snippets: SnippetStore;
  jobs: JobQueue;
  /** Scheduled refreshes (catalog/scheduler.ts); `main` starts its timer. */
  scheduler: RefreshScheduler;
  /** The local embedding model and vector cache (undefined: lexical search only). */
  embeddings?: Embeddings;
  /** The in-process indexing worker (undefined when WORKER_MODE=off). */
  worker?: Worker;
  /** What publishing a generation needs (bundle import shares it with builds). */
  publishDeps(): { store: SnippetStore; libraries: LibraryRepository; manifests: ManifestStore };
  /** What a build needs (the worker's jobs and the builds that run without one: OpenAPI uploads). */
  buildDeps(): IndexingDeps;
  /** Starts the in-process worker (main and tests call it; scripts may not). */
  startWorker(): Worker;
  /** Real reads of each store, now (bounded; never throws). */
  health(): Promise<Record<StoreName, StoreReading>>;
  /** The stores as the background probes see them; requests fail fast while one is down. */
  monitor: StoreMonitor;
  close(): Promise<void>;
}

export async function createServices(config: Readonly<Config>, log: Logger): Promise<Services> {
  const gate = new StoreGate();
  const mongo = await connectMongo({ uri: config.mongodbUri, dbName: config.mongodbDb, timeoutMs: config.storeTimeoutMs, isDown: () => gate.isDown('mongodb') }, log);
  const es = createEsClient(config.elasticsearchNodes, config.storeTimeoutMs);
  let esInfo: NodeInfo;
  try {
    esInfo = await checkElasticsearch(es);
  } catch (error) {
    await mongo.close();
    await es.close();
    throw new Error(`Elasticsearch at ${config.elasticsearchNodes.join(', ')} is not usable: ${(error as Error).message}`, { cause: error });
  }
  const models: Models = { Library: libraryModel(mongo), Job: jobModel(mongo), Manifest: manifestModel(mongo), Lock: lockModel(mongo), Project: projectModel(mongo) };
  await Promise.all(Object.values(models).map((m) => m.createIndexes()));
  const locks = new LockStore(models.Lock);
  const hotSearch = new HotSearch(config.elasticsearchNodes, config.storeTimeoutMs, () => gate.isDown('elasticsearch'));
  const indexingEs = createIndexingEsClient(config.elasticsearchNodes);
  const catalogIndex = new CatalogIndex(indexingEs, hotSearch, config.indexPrefix, config.indexLayout);
  await catalogIndex.ensureIndex();
  const catalogSync = new CatalogSync(catalogIndex, log, () => gate.isDown('elasticsearch'));
  const libraries = new LibraryRepository(models.Library, locks, new CatalogGeneration(mongo), { observer: catalogSync });
  catalogSync.attach(libraries);
  const snippets = new SnippetStore(es, config.indexPrefix, snippetIndexDefinition({ esMajor: esInfo.major, shards: config.indexLayout.shards }), {
    hot: hotSearch,
    esMajor: esInfo.major,
    indexing: indexingEs,
    onBackgroundError: (what, error) => log.warn({ err: (error as Error).message }, `${what} failed`),
  });
  let embeddings: Embeddings | undefined;
  try {
    embeddings = await createEmbeddings(config, new VectorStore(indexingEs, config.indexPrefix), log);
  } catch (error) {
    await Promise.allSettled([mongo.close(), es.close(), hotSearch.close(), snippets.close()]);
    throw error;
  }
  // A migration copies from `_source`, which holds no vectors since mapping version 4: the cache restores them.
  const vectorSource = embeddings;
  const restoreVectors = vectorSource && ((docs: SnippetDocument[]) => vectorSource.attach(docs));
  const ensured = await snippets.ensureIndex({ restoreVectors });
  if (ensured.migrated) log.info({ from: ensured.migrated.from, to: snippets.physical, snippets: ensured.migrated.snippets }, 'snippets index moved to the current mapping version');
  const layout = await applyIndexLayout(indexingEs, [snippets.physical, catalogIndex.physical, `${config.indexPrefix}-vectors-v${VECTORS_MAPPING_VERSION}`], config.indexLayout);
  if (layout.changed.length > 0) log.info({ indices: layout.changed, replicas: config.indexLayout.replicas }, 'index replicas set');
  // The vector cache has one shard by design (a cache, read by id).
  const otherShards = layout.otherShards.filter((i) => !i.includes('-vectors-'));
  if (otherShards.length > 0) log.warn({ indices: otherShards, shards: config.indexLayout.shards }, 'these indices were created with another shard count; it changes only when they are made again');
  const jobs = new JobQueue(models.Job, locks, { maxAttempts: config.jobMaxAttempts });
  const authServices = await createAuthServices({ mongo, config, log });
  log.info({ elasticsearch: esInfo.version }, 'stores connected');

  const reads = new ThreadProbes({ mongodbUri: config.mongodbUri, mongodbDb: config.mongodbDb, elasticsearchNodes: config.elasticsearchNodes, alias: snippets.alias });
  const monitor = new StoreMonitor({
    probes: reads.probes(),
    gate,
    log,
    timeoutMs: Math.min(config.storeTimeoutMs, 2000),
  });
  monitor.start();
  let jobProcesses: ProcessJobRunner | undefined;
  const manifests = new ManifestStore(models.Manifest);
  const services: Services = {
    config,
    log,
    mongo,
    es,
    esInfo,
    models,
    libraries,
    catalogIndex,
    catalogSync,
    manifests,
    projects: new ProjectStore(models.Project),
    locks,
    snippets,
    jobs,
    embeddings,
    monitor,
    ...authServices,
    worker: undefined,
    // Reads `services` only when it ticks, after this object exists.
    scheduler: new RefreshScheduler(() => services),
    publishDeps: () => ({ store: snippets, libraries, manifests }),
    buildDeps: () => ({
      config,
      log,
      store: snippets,
      libraries,
      manifests,
      decryptToken: (blob) => decryptSecret(blob, config.secret),
      enqueueVersions: versionEnqueuer(jobs, () => services.worker?.poke()),
      embeddings,
    }),
    startWorker() {
      if (services.worker) return services.worker;
      const poke = () => services.worker?.poke();
      let handler: JobHandler;
      if (config.jobIsolation === 'process') {
        // Each job in a process of its own (off this event loop); it changes libraries
        // behind this process's cache, which forgets them when the job ends.
        const runner = new ProcessJobRunner({ config, log, poke });
        jobProcesses = runner;
        handler = (ctx) => runner.handler(ctx).finally(() => libraries.forget(ctx.job.libraryId).catch((error: Error) => log.warn({ err: error.message }, 'could not re-read a library after its job')));
      } else {
        handler = createJobHandler(services.buildDeps());
      }
      services.worker = new Worker({
        queue: jobs,
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
      services.worker.start();
      return services.worker;
    },
    health: () => monitor.check(),
    async close() {
      monitor.stop();
      catalogSync.stop();
      await services.scheduler.stop();
      await services.worker?.stop();
      await jobProcesses?.close();
      await services.authHousekeeping.stop();
      await snippets.close();
      await Promise.allSettled([mongo.close(), es.close(), indexingEs.close(), hotSearch.close(), reads.close(), embeddings?.close()]);
    },
  };
  await bootstrapAuth(services);
  return services;
}

/** What a job's own process builds with (indexing/jobs/job-process.ts). */
export interface IndexingServices {
  deps: IndexingDeps;
  close(): Promise<void>;
}

/**
 * The part of the composition a job needs, for a process that runs jobs for a worker: the
 * stores a build reads and writes (the server already made their indices and the snippets
 * alias), the queue to add version jobs to, and the embedding model. `poke` wakes the
 * worker after jobs were added.
 */
export async function createIndexingServices(config: Readonly<Config>, log: Logger, poke: () => void): Promise<IndexingServices> {
  const mongo = await connectMongo({ uri: config.mongodbUri, dbName: config.mongodbDb, timeoutMs: config.storeTimeoutMs }, log);
  const es = createEsClient(config.elasticsearchNodes, config.storeTimeoutMs);
  const hotSearch = new HotSearch(config.elasticsearchNodes, config.storeTimeoutMs);
  const indexingEs = createIndexingEsClient(config.elasticsearchNodes);
  const closeAll = () => Promise.allSettled([mongo.close(), es.close(), hotSearch.close(), indexingEs.close()]);
  try {
    const esInfo = await checkElasticsearch(es);
    const locks = new LockStore(lockModel(mongo));
    // Writes here bump the catalogue generation; the server's worker writes the catalogue index
    // from the record when the job ends (LibraryRepository.forget).
    const libraries = new LibraryRepository(libraryModel(mongo), locks, new CatalogGeneration(mongo));
    const jobs = new JobQueue(jobModel(mongo), locks, { maxAttempts: config.jobMaxAttempts });
    const snippets = new SnippetStore(es, config.indexPrefix, snippetIndexDefinition({ esMajor: esInfo.major, shards: config.indexLayout.shards }), {
      hot: hotSearch,
      esMajor: esInfo.major,
      indexing: indexingEs,
      onBackgroundError: (what, error) => log.warn({ err: (error as Error).message }, `${what} failed`),
    });
    const embeddings = await createEmbeddings(config, new VectorStore(indexingEs, config.indexPrefix), log);
    const deps: IndexingDeps = {
      config,
      log,
      store: snippets,
      libraries,
      manifests: new ManifestStore(manifestModel(mongo)),
      decryptToken: (blob) => decryptSecret(blob, config.secret),
      enqueueVersions: versionEnqueuer(jobs, poke),
      embeddings,
    };
    return {
      deps,
      async close() {
        await snippets.close();
        await Promise.allSettled([closeAll(), embeddings?.close()]);
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
