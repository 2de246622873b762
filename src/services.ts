/**
 * The composition root: connects the stores and builds every store and service once, as
 * `{ stores, useCases, lifecycle }` (ports.ts). Use cases and routes take Picks of the first
 * two; the entry points (main.ts, the test harness, the scripts) own the lifecycle.
 */
import type { Connection } from 'mongoose';
import type { Config } from './config';
import type { Logger } from './logger';
import { connectMongo } from './store/mongo';
import { checkElasticsearch, createEsClient, createIndexingEsClient, HotSearch, type EsClient, type NodeInfo } from './search/client';
import { ThreadProbes } from './health/thread-probes';
import { StoreGate, StoreMonitor, type StoreName, type StoreReading } from './health/monitor';
import { libraryModel, type LibraryModel } from './store/models/library';
import { jobModel, type JobModel } from './store/models/job';
import { manifestModel, type ManifestModel } from './store/models/manifest';
import { authModels, type AuthModels } from './store/models/auth';
import { ManifestStore } from './store/manifests';
import { projectModel, type ProjectModel } from './store/models/project';
import { ProjectStore } from './store/projects';
import { LibraryRepository } from './store/libraries';
import { CatalogGeneration } from './store/library-cache';
import { CatalogIndex } from './search/catalog-index';
import { findCaches } from './search/query-cache';
import { CatalogSync } from './catalog/catalog-sync';
import { SnippetStore } from './search/snippet-store';
import { snippetIndexDefinition } from './search/mappings';
import type { SnippetDocument } from './search/types';
import { JobQueue } from './store/jobs';
import { LockStore, lockModel, type LockModel } from './store/locks';
import type { Worker } from './indexing/jobs/worker';
import { startWorker, type RunningWorker } from './indexing/jobs/start-worker';
import { versionEnqueuer } from './indexing/pipeline/handler';
import type { IndexingDeps } from './indexing/pipeline/deps';
import { decryptSecret } from './auth/crypto';
import { createAuthServices } from './auth/compose';
import { bootstrapAuth } from './auth/bootstrap';
import { RefreshScheduler } from './catalog/scheduler';
import { createEmbeddings, type Embeddings } from './embedding/service';
import { VectorStore, VECTORS_MAPPING_VERSION } from './search/vector-store';
import { applyIndexLayout } from './search/index-layout';
import type { Ports, Stores, UseCaseContext } from './ports';

export interface Models {
  Library: LibraryModel;
  Job: JobModel;
  Manifest: ManifestModel;
  Lock: LockModel;
  Project: ProjectModel;
}

/**
 * The raw connections and models. Only this file, the stores and whoever opened them (the
 * test harness, operations scripts) hold them; the composition's parts never expose them.
 */
export interface StoreHandles {
  mongo: Connection;
  es: EsClient;
  esInfo: NodeInfo;
  models: Models;
  auth: AuthModels;
  /** Requests fail fast while the monitor reads a store as down. */
  gate: StoreGate;
  close(): Promise<void>;
}

/** What starts and stops: the entry points start the worker and the scheduler, and close. */
export interface Lifecycle {
  /** This process's indexing worker, once `startWorker` ran (WORKER_MODE=in-process, `main worker`). */
  readonly worker: Worker | undefined;
  startWorker(): Worker;
  /** Scheduled refreshes (catalog/scheduler.ts); the entry points start its timer. */
  scheduler: RefreshScheduler;
  /** Keeps the catalogue index in step with the records; `main` reconciles it at start. */
  catalogSync: CatalogSync;
  /** The stores as the background probes see them; requests fail fast while one is down. */
  monitor: StoreMonitor;
  /** Real reads of each store, now (bounded; never throws). */
  health(): Promise<Record<StoreName, StoreReading>>;
  close(): Promise<void>;
}

export interface Composition {
  stores: Stores;
  useCases: UseCaseContext;
  lifecycle: Lifecycle;
}

/** The stores and the use-case context as one object, to hand out Picks of. */
export function portsOf(composition: Pick<Composition, 'stores' | 'useCases'>): Ports {
  return { ...composition.stores, ...composition.useCases };
}

/** Connects MongoDB and Elasticsearch and makes the models' indexes. */
export async function openStores(config: Readonly<Config>, log: Logger): Promise<StoreHandles> {
  const gate = new StoreGate();
  const mongo = await connectMongo(
    { uri: config.mongodbUri, dbName: config.mongodbDb, timeoutMs: config.storeTimeoutMs, isDown: () => gate.isDown('mongodb') },
    log,
  );
  const es = createEsClient(config.elasticsearchNodes, config.storeTimeoutMs);
  let esInfo: NodeInfo;
  try {
    esInfo = await checkElasticsearch(es);
  } catch (error) {
    await mongo.close();
    await es.close();
    throw new Error(`Elasticsearch at ${config.elasticsearchNodes.join(', ')} is not usable: ${(error as Error).message}`, { cause: error });
  }
  const models: Models = {
    Library: libraryModel(mongo),
    Job: jobModel(mongo),
    Manifest: manifestModel(mongo),
    Lock: lockModel(mongo),
    Project: projectModel(mongo),
  };
  await Promise.all(Object.values(models).map((m) => m.createIndexes()));
  return { mongo, es, esInfo, models, auth: authModels(mongo), gate, close: async () => void (await Promise.allSettled([mongo.close(), es.close()])) };
}

/** The snippets index at the current mapping version (migrated, vectors restored) and the indices' replicas. */
async function ensureIndices(
  config: Readonly<Config>,
  log: Logger,
  snippets: SnippetStore,
  catalogIndex: CatalogIndex,
  indexingEs: EsClient,
  embeddings: Embeddings | undefined,
): Promise<void> {
  // A migration copies from `_source`, which holds no vectors since mapping version 4: the cache restores them.
  const restoreVectors = embeddings && ((docs: SnippetDocument[]) => embeddings.attach(docs));
  const ensured = await snippets.ensureIndex({ restoreVectors });
  if (ensured.migrated)
    log.info(
      { from: ensured.migrated.from, to: snippets.physical, snippets: ensured.migrated.snippets },
      'snippets index moved to the current mapping version',
    );
  const layout = await applyIndexLayout(
    indexingEs,
    [snippets.physical, catalogIndex.physical, `${config.indexPrefix}-vectors-v${VECTORS_MAPPING_VERSION}`],
    config.indexLayout,
  );
  if (layout.changed.length > 0) log.info({ indices: layout.changed, replicas: config.indexLayout.replicas }, 'index replicas set');
  // The vector cache has one shard by design (a cache, read by id).
  const otherShards = layout.otherShards.filter((i) => !i.includes('-vectors-'));
  if (otherShards.length > 0)
    log.warn(
      { indices: otherShards, shards: config.indexLayout.shards },
      'these indices were created with another shard count; it changes only when they are made again',
    );
}

/** The background reads of each store (in a thread of their own), which open and close the gate. */
function startStoreMonitor(config: Readonly<Config>, log: Logger, gate: StoreGate, alias: string): { monitor: StoreMonitor; reads: ThreadProbes } {
  const reads = new ThreadProbes({ mongodbUri: config.mongodbUri, mongodbDb: config.mongodbDb, elasticsearchNodes: config.elasticsearchNodes, alias });
  const monitor = new StoreMonitor({ probes: reads.probes(), gate, log, timeoutMs: Math.min(config.storeTimeoutMs, 2000) });
  monitor.start();
  return { monitor, reads };
}

/**
 * Builds every store and service once, on `handles` (opened here when not given; either way
 * `lifecycle.close` closes them). Nothing starts: the entry points start the worker and the
 * scheduler (the store monitor and auth housekeeping run from here, as the requests need them).
 */
export async function createServices(config: Readonly<Config>, log: Logger, given?: StoreHandles): Promise<Composition> {
  const handles = given ?? (await openStores(config, log));
  const { mongo, es, esInfo, models, gate } = handles;
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
    await Promise.allSettled([handles.close(), hotSearch.close(), snippets.close()]);
    throw error;
  }
  await ensureIndices(config, log, snippets, catalogIndex, indexingEs, embeddings);
  const jobs = new JobQueue(models.Job, locks, { maxAttempts: config.jobMaxAttempts });
  const { authHousekeeping, authenticator, accounts, rateLimiter, trustedProxy, ...authStores } = await createAuthServices({ mongo, config, log });
  log.info({ elasticsearch: esInfo.version }, 'stores connected');

  const { monitor, reads } = startStoreMonitor(config, log, gate, snippets.alias);
  const manifests = new ManifestStore(models.Manifest);
  const stores: Stores = {
    libraries,
    catalogIndex,
    findCaches: findCaches(config.librarySearchCacheEntries),
    manifests,
    projects: new ProjectStore(models.Project),
    locks,
    snippets,
    jobs,
    embeddings,
    ...authStores,
  };
  let running: RunningWorker | undefined;
  const pokeWorker = () => running?.worker.poke();
  const useCases: UseCaseContext = {
    config,
    log,
    authenticator,
    accounts,
    rateLimiter,
    trustedProxy,
    pokeWorker,
    publishDeps: () => ({ store: snippets, libraries, manifests }),
    buildDeps: () => ({
      config,
      log,
      store: snippets,
      libraries,
      manifests,
      decryptToken: (blob) => decryptSecret(blob, config.secret),
      enqueueVersions: versionEnqueuer(jobs, pokeWorker),
      embeddings,
    }),
  };
  const scheduler = new RefreshScheduler({ config, log, libraries, jobs, locks, pokeWorker });
  const lifecycle: Lifecycle = {
    get worker() {
      return running?.worker;
    },
    startWorker() {
      running ??= startWorker({ config, log, jobs, libraries, buildDeps: useCases.buildDeps }, pokeWorker);
      return running.worker;
    },
    scheduler,
    catalogSync,
    monitor,
    health: () => monitor.check(),
    async close() {
      monitor.stop();
      catalogSync.stop();
      await scheduler.stop();
      await running?.stop();
      await authHousekeeping.stop();
      await snippets.close();
      await Promise.allSettled([handles.close(), indexingEs.close(), hotSearch.close(), reads.close(), embeddings?.close()]);
    },
  };
  await bootstrapAuth({ ...stores, ...useCases });
  return { stores, useCases, lifecycle };
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
