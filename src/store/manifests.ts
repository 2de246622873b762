/**
 * The manifests (store/models/manifest.ts) as the libraries use cases read and remove them:
 * a bundle export reads a version's file list, deleting a library removes its versions'
 * manifests. The indexing pipeline writes them through its own deps.
 */
import type { ManifestModel, ManifestRecord } from './models/manifest';
import { escapeRegex } from './locks';

export class ManifestStore {
  constructor(private readonly Manifest: ManifestModel) {}

  /** The manifest of one library version (null when it has none). */
  get(libraryId: string, version: string): Promise<ManifestRecord | null> {
    return this.Manifest.findById(`${libraryId}@${version}`).lean<ManifestRecord>().exec();
  }

  /** Removes the manifests of every version of a library. */
  async deleteLibrary(libraryId: string): Promise<void> {
    await this.Manifest.deleteMany({ _id: { $regex: `^${escapeRegex(libraryId)}@` } });
  }
}
