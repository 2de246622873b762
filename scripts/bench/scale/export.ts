/**
 * The real bundles a scale run re-labels: every public library of the installation exported
 * (latest version first, vectors included) into a folder, as `shelfmark export` would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Ports } from '../../../src/ports';
import { exportBundleStream } from '../../../src/catalog/bundles/export';

/** Writes `<dir>/<owner>__<repo>.shelfmark.gz` for each built public library; returns the files. */
export async function exportLibraries(services: Ports, dir: string): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for await (const page of services.libraries.scan()) {
    for (const lib of page) {
      if (lib.private) continue;
      const versions = lib.versions.filter((v) => v.generation > 0);
      if (versions.length === 0) continue;
      const file = path.join(dir, `${lib._id.split('/').filter(Boolean).join('__')}.shelfmark.gz`);
      const partial = `${file}.partial`;
      await pipeline(
        exportBundleStream({ snippets: services.snippets, manifests: services.manifests, embeddings: services.embeddings }, lib, versions),
        fs.createWriteStream(partial),
      );
      fs.renameSync(partial, file);
      files.push(file);
    }
  }
  return files;
}
