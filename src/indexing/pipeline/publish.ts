/**
 * The last step of every build (git or OpenAPI): write the new generation's snippets, switch
 * the library version to it in one MongoDB update, record the manifest, then delete older
 * generations. Until the switch, readers keep getting the previous generation.
 */
import type { SnippetDocument } from '../types';
import type { SnippetStore } from '../../search/snippet-store';
import type { LibraryRepository } from '../../store/libraries';
import type { ManifestModel } from '../../store/models/manifest';
import type { LibraryRecord, LibraryVersionRecord } from '../../store/models/library';
import { qualityReport } from '../snippets/quality';
import { toIndexedSnippet } from '../../search/mappings';

export interface PublishInput {
  libraryId: string;
  version: string;
  ref: string;
  tags: string[];
  commit: string;
  generation: number;
  snippets: SnippetDocument[];
  files: { p: string; h: string }[];
  meta: Partial<Pick<LibraryRecord, 'title' | 'description' | 'branch'>>;
}

export interface PublishDeps {
  store: SnippetStore;
  libraries: LibraryRepository;
  Manifest: ManifestModel;
}

export async function publishGeneration(deps: PublishDeps, input: PublishInput, onProgress?: (written: number) => void): Promise<{ totalSnippets: number; totalTokens: number; benchmarkScore: number }> {
  const docs = input.snippets.map((s) => toIndexedSnippet({ ...s, generation: input.generation }));
  await deps.store.write(docs, onProgress);
  const totalTokens = docs.reduce((n, d) => n + d.tokens, 0);
  const quality = qualityReport(docs);
  const score = quality.score;
  await switchGenerations(deps, input.libraryId, [
    {
      record: {
        version: input.version,
        ref: input.ref,
        tags: input.tags,
        commit: input.commit,
        generation: input.generation,
        state: 'finalized',
        totalSnippets: docs.length,
        totalTokens,
        benchmarkScore: score,
        qualityIssues: quality.issues,
        lastUpdateDate: new Date(),
      },
      files: input.files,
    },
  ], input.meta);
  return { totalSnippets: docs.length, totalTokens, benchmarkScore: score };
}

/**
 * Makes generations already written visible: switches every listed version in one update of
 * the library record, records their manifests and deletes older generations. When the
 * switch does not happen (the library was deleted, or a newer build of a version was
 * published meanwhile) the written generations are deleted and it throws.
 */
export async function switchGenerations(
  deps: PublishDeps,
  libraryId: string,
  versions: Array<{ record: LibraryVersionRecord; files: { p: string; h: string }[] }>,
  meta: PublishInput['meta'],
): Promise<void> {
  const dropWritten = async () => {
    for (const v of versions) await deps.store.deleteGenerations({ libraryId, version: v.record.version, only: v.record.generation });
  };
  const published = await deps.libraries.publishVersions(libraryId, versions.map((v) => v.record), meta);
  if (!published) {
    // The library was deleted while building: drop what was written.
    await deps.store.deleteGenerations({ libraryId });
    throw new Error(`library ${libraryId} was deleted during indexing`);
  }
  const stale = versions.find((v) => published.versions.find((p) => p.version === v.record.version)?.generation !== v.record.generation);
  if (stale) {
    // A newer build of this version was published meanwhile (builds are serialised by the
    // version's build slot, so this is a safety net): ours is not served; drop it.
    await dropWritten();
    throw new Error(`a newer build of ${libraryId} (${stale.record.version}) was published meanwhile`);
  }
  for (const v of versions) {
    await deps.Manifest.updateOne(
      { _id: `${libraryId}@${v.record.version}` },
      { $set: { generation: v.record.generation, files: v.files, updatedAt: new Date() } },
      { upsert: true },
    );
    // Older generations only: a newer one being written by another build is not touched.
    await deps.store.deleteGenerations({ libraryId, version: v.record.version, below: v.record.generation });
  }
}

/** A new generation number: time-based, so it grows across instances without a counter. */
export function newGeneration(): number {
  return Date.now();
}
