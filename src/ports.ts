/**
 * The ports of the use cases and adapters: what the composition root (services.ts) hands
 * them, split as it builds them. Each use case and route takes a `Pick<Ports, …>` of what it
 * calls, never the whole; nothing here is a raw store handle (mongoose model, Elasticsearch
 * client) or starts and stops anything (that is the composition's `lifecycle`).
 */
import type { Config } from './config';
import type { Logger } from './logger';
import type { LibraryRepository } from './store/libraries';
import type { ManifestStore } from './store/manifests';
import type { ProjectStore } from './store/projects';
import type { LockStore } from './store/locks';
import type { JobQueue } from './store/jobs';
import type { CatalogIndex } from './search/catalog-index';
import type { FindCaches } from './search/query-cache';
import type { SnippetStore } from './search/snippet-store';
import type { Embeddings } from './embedding/service';
import type { IndexingDeps } from './indexing/pipeline/deps';
import type { PublishDeps } from './indexing/pipeline/publish';
import type { AuthServices } from './auth/compose';

/** The repositories and indices, each behind its own class (store/, search/, auth/). */
export interface Stores extends Pick<AuthServices, 'users' | 'teams' | 'keys' | 'sessions' | 'settings' | 'policies' | 'usage' | 'credentials'> {
  libraries: LibraryRepository;
  /** The catalogue index library search reads (search/catalog-index.ts). */
  catalogIndex: CatalogIndex;
  /** Library search's remembered answers (catalog/find.ts). */
  findCaches: FindCaches;
  /** What each built version was made of (bundle export, library deletion). */
  manifests: ManifestStore;
  /** Projects: lockfiles and the library versions they pin (projects/). */
  projects: ProjectStore;
  /** Locks under a unique id: what must happen once (store/locks.ts). */
  locks: LockStore;
  snippets: SnippetStore;
  jobs: JobQueue;
  /** The local embedding model and vector cache (undefined: lexical search only). */
  embeddings?: Embeddings;
}

/** What the use cases run with beyond the stores. */
export interface UseCaseContext extends Pick<AuthServices, 'authenticator' | 'accounts' | 'rateLimiter' | 'trustedProxy'> {
  config: Readonly<Config>;
  log: Logger;
  /** Wakes this process's worker after jobs were queued (nothing when it runs none). */
  pokeWorker(): void;
  /** What publishing a generation needs (bundle import shares it with builds). */
  publishDeps(): PublishDeps;
  /** What a build needs (the worker's jobs and the builds that run without one: OpenAPI uploads). */
  buildDeps(): IndexingDeps;
}

/** Everything a use case or a route may be handed; each takes a Pick of it. */
export type Ports = Stores & UseCaseContext;
