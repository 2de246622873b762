/**
 * Use case "export a library": its record, the chosen versions' manifests and every snippet
 * document of their current generations, streamed as a bundle (format.ts) a page at a time.
 * A generation replaced while it is being read (a build finished meanwhile) ends the stream
 * without its trailer, so the partial file is refused on import instead of carrying a mix.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { LibraryRecord, LibraryVersionRecord } from '../../store/models/library';
import type { SnippetStore } from '../../search/snippet-store';
import type { Embeddings } from '../../embedding/service';
import type { SnippetDocument } from '../../search/types';
import type { ManifestStore } from '../../store/manifests';
import { SNIPPETS_MAPPING_VERSION } from '../../search/snippet-store';
import { clientLibraryId } from '../../domain/library-keys';
import { isServerPathUrl } from '../../util/source-url';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, encodeLine, type BundleHeader } from './format';

export interface ExportDeps {
  snippets: SnippetStore;
  manifests: Pick<ManifestStore, 'get'>;
  /**
   * The embeddings of this installation, when it has them: the bundle names the model and
   * its documents carry its vectors, restored from the vector cache (`_source` holds none
   * since mapping version 4, see search/mappings.ts).
   */
  embeddings?: Pick<Embeddings, 'modelId' | 'attach'>;
}

/** The header of a bundle of `versions` of `lib` (pure). */
export function bundleHeader(lib: LibraryRecord, versions: LibraryVersionRecord[], now = new Date(), embeddingModel?: string): BundleHeader {
  return {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    createdAt: now.toISOString(),
    mappingVersion: SNIPPETS_MAPPING_VERSION,
    ...(embeddingModel ? { embeddingModel } : {}),
    library: {
      id: clientLibraryId(lib._id),
      source: lib.source,
      title: lib.title,
      description: lib.description,
      // A path on the exporting server's disk means nothing elsewhere, and is not shown.
      repoUrl: isServerPathUrl(lib.repoUrl) ? '' : lib.repoUrl,
      cloneUrl: isServerPathUrl(lib.cloneUrl) ? '' : lib.cloneUrl,
      branch: lib.branch,
      aliases: lib.aliases ?? [],
      nameKeys: lib.nameKeys ?? [],
      trustScore: lib.trustScore,
      options: { skipVersionFiltering: lib.options?.skipVersionFiltering ?? false, generateDocs: lib.options?.generateDocs ?? false },
    },
    versions: versions.map((v) => ({
      version: v.version,
      ref: v.ref,
      tags: v.tags ?? [],
      commit: v.commit,
      generation: v.generation,
      totalSnippets: v.totalSnippets,
      totalTokens: v.totalTokens,
      benchmarkScore: v.benchmarkScore,
      lastUpdateDate: new Date(v.lastUpdateDate).toISOString(),
    })),
  };
}

/** The bundle's lines, uncompressed, the trailer last. */
export async function* bundleLines(deps: ExportDeps, lib: LibraryRecord, versions: LibraryVersionRecord[]): AsyncGenerator<string> {
  const hash = createHash('sha256');
  let lines = 0;
  const emit = (value: unknown): string => {
    const line = encodeLine(value);
    hash.update(line);
    lines++;
    return line;
  };
  yield emit(bundleHeader(lib, versions, new Date(), deps.embeddings?.modelId));
  for (const v of versions) {
    const manifest = await deps.manifests.get(lib._id, v.version);
    const files = manifest && manifest.generation === v.generation ? manifest.files.map((f) => ({ p: f.p, h: f.h })) : [];
    yield emit({ type: 'files', version: v.version, files });
    let count = 0;
    for await (const stored of deps.snippets.scan({ libraryId: lib._id, version: v.version, generation: v.generation, baseGeneration: v.baseGeneration })) {
      const page = deps.embeddings ? await deps.embeddings.attach(stored as unknown as SnippetDocument[]) : stored;
      let chunk = '';
      // A mark of a build not yet published (`retired` above the served generation) is this
      // installation's business, not the bundle's.
      for (const { retired: _retired, ...doc } of page) chunk += emit({ type: 'snippet', doc });
      count += page.length;
      yield chunk;
    }
    if (count !== v.totalSnippets) {
      throw new Error(
        `${clientLibraryId(lib._id)} (${v.version}) changed while it was exported (${count} of ${v.totalSnippets} snippets read): export it again.`,
      );
    }
  }
  yield encodeLine({ type: 'end', lines, sha256: hash.digest('hex') });
}

/** The bundle as a gzip stream (an error destroys it, so the receiver sees a truncated file). */
export function exportBundleStream(deps: ExportDeps, lib: LibraryRecord, versions: LibraryVersionRecord[], onError?: (error: unknown) => void): Readable {
  const gzip = createGzip({ level: 6 });
  const source = Readable.from(bundleLines(deps, lib, versions));
  source.on('error', (error) => {
    onError?.(error);
    gzip.destroy(error);
  });
  source.pipe(gzip);
  return gzip;
}
