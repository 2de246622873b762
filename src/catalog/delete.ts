/**
 * Use case "delete a library": the one function that removes a library copy and what it
 * owns, however it is reached — `DELETE /v2/libraries/...`, a first add whose build failed,
 * a failed OpenAPI upload, a bundle import refused after it made the record.
 *
 * Order: the record first (one delete by id), so readers stop resolving the library at once
 * and a build still running finds it gone when it publishes and removes what it wrote
 * (indexing/pipeline/publish.ts); then its snippets (ids paged out of Elasticsearch and
 * deleted in bulks, no refresh: nothing serves them any more), its manifests (by their exact
 * ids), an uploaded archive no other library uses and the code kept of its versions; a merged
 * library's sources with it. Every step reads by id or deletes what
 * it finds, so the store work is the library's own size, not the catalogue's.
 */
import type { Ports } from '../ports';
import type { LibraryRecord, LibrarySourceParams } from '../store/models/library';
import { releaseArchive } from './archive-files';
import { deleteKeptTrees } from '../indexing/code-trees/kept-tree';

export interface DeletePorts {
  libraries: {
    get(key: string, options: { fresh: true }): Promise<LibraryRecord | null>;
    delete(key: string): Promise<boolean>;
    modify(key: string, change: (lib: LibraryRecord) => Partial<LibraryRecord> | null): Promise<LibraryRecord | null>;
  };
  snippets: { deleteLibrary(libraryId: string): Promise<number> };
  manifests: { deleteVersions(libraryId: string, versions: readonly string[]): Promise<void> };
  /** Deletes a kept archive no library builds from any more (catalog/archive-files.ts). */
  releaseArchive(params: LibrarySourceParams | null | undefined): Promise<boolean>;
  /** Deletes the code kept for the library's versions (indexing/code-trees/kept-tree.ts). */
  deleteKeptCode(key: string): void;
}

export interface DeleteOutcome {
  deleted: boolean;
  snippets: number;
}

/**
 * Deletes the library stored under `key`. With `onlyIfNeverBuilt`, a library some version of
 * which was published meanwhile is left alone (a failed first add racing a successful one).
 */
export async function deleteLibrary(ports: DeletePorts, key: string, options: { onlyIfNeverBuilt?: boolean } = {}): Promise<DeleteOutcome> {
  const lib = await ports.libraries.get(key, { fresh: true });
  if (!lib) return { deleted: false, snippets: 0 };
  if (options.onlyIfNeverBuilt && lib.versions.some((v) => v.generation > 0)) return { deleted: false, snippets: 0 };
  const deleted = await ports.libraries.delete(key);
  const snippets = await ports.snippets.deleteLibrary(key);
  await ports.manifests.deleteVersions(
    key,
    lib.versions.map((v) => v.version),
  );
  await ports.releaseArchive(lib.sourceParams);
  ports.deleteKeptCode(key);
  // Merged libraries (catalog/merged-sources.ts): a source leaves its merged library's list; a
  // merged library's sources go with it (each its own whole delete, through this function).
  if (lib.mergedInto)
    await ports.libraries.modify(lib.mergedInto, (m) =>
      (m.mergedSources ?? []).some((s) => s.key === key) ? { mergedSources: (m.mergedSources ?? []).filter((s) => s.key !== key) } : null,
    );
  let total = snippets;
  for (const source of lib.mergedSources ?? []) total += (await deleteLibrary(ports, source.key)).snippets;
  return { deleted, snippets: total };
}

/** The ports of `deleteLibrary` from the composition root's services. */
export function deletePortsOf(services: Pick<Ports, 'libraries' | 'snippets' | 'manifests' | 'config' | 'log'>): DeletePorts {
  return {
    libraries: services.libraries,
    snippets: services.snippets,
    manifests: services.manifests,
    releaseArchive: (params) => releaseArchive(services, params),
    deleteKeptCode: (key) => deleteKeptTrees(services.config.code.dir, key),
  };
}
