/**
 * The indexing pipeline's dependencies, narrowed to what builds use: manifests are reached
 * through `ManifestStore` (store/manifests.ts, `deps.manifests`), never the model itself.
 */
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { SnippetStore } from '../../search/snippet-store';
import type { LibraryRepository } from '../../store/libraries';
import type { ManifestStore } from '../../store/manifests';
import type { JobRecord, JobTrigger } from '../../store/models/job';
import type { Embeddings } from '../../embedding/service';

/** What the indexing jobs need from the rest of the system. */
export interface IndexingDeps {
  config: Readonly<Config>;
  log: Logger;
  store: SnippetStore;
  libraries: LibraryRepository;
  manifests: ManifestStore;
  decryptToken(blob: string): string;
  /** Queues builds of tagged versions listed in a repo's config (skipping unknown tags). */
  enqueueVersions(parent: JobRecord, wanted: string[], existingTags: string[], trigger?: JobTrigger): Promise<string[]>;
  /** Snippet vectors (undefined: embeddings off, lexical search only). */
  embeddings?: Embeddings;
}
