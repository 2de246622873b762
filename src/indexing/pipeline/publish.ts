/**
 * The last step of every build (git or OpenAPI): write the new generation's snippets, switch
 * the library version to it in one MongoDB update, record the manifest, then delete older
 * generations. Until the switch, readers keep getting the previous generation.
 */
import type { SnippetDocument } from '../types';
import type { SnippetStore } from '../../search/snippet-store';
import type { LibraryRepository } from '../../store/libraries';
import type { ManifestModel } from '../../store/models/manifest';
import type { LibraryRecord } from '../../store/models/library';
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
  const published = await deps.libraries.publishVersion(
    input.libraryId,
    {
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
    input.meta,
  );
  if (!published) {
    // The library was deleted while building: drop what was written.
    await deps.store.deleteGenerations({ libraryId: input.libraryId });
    throw new Error(`library ${input.libraryId} was deleted during indexing`);
  }
  if (published.versions.find((v) => v.version === input.version)?.generation !== input.generation) {
    // A newer build of this version was published meanwhile (builds are serialised by the
    // version's build slot, so this is a safety net): ours is not served; drop it.
    await deps.store.deleteGenerations({ libraryId: input.libraryId, version: input.version, only: input.generation });
    throw new Error(`a newer build of ${input.libraryId} (${input.version}) was published meanwhile`);
  }
  await deps.Manifest.updateOne(
    { _id: `${input.libraryId}@${input.version}` },
    { $set: { generation: input.generation, files: input.files, updatedAt: new Date() } },
    { upsert: true },
  );
  // Older generations only: a newer one being written by another build is not touched.
  await deps.store.deleteGenerations({ libraryId: input.libraryId, version: input.version, below: input.generation });
  return { totalSnippets: docs.length, totalTokens, benchmarkScore: score };
}

/** A new generation number: time-based, so it grows across instances without a counter. */
export function newGeneration(): number {
  return Date.now();
}
