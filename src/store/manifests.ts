/**
 * The manifests (store/models/manifest.ts) as the libraries use cases read and remove them:
 * a bundle export reads a version's file list, deleting a library removes its versions'
 * manifests. The indexing pipeline writes them through its own deps.
 */
import type { ManifestModel, ManifestRecord } from './models/manifest';
import { insertDocuments, rawCollection } from './bulk';
import { isDuplicate } from './mongo';

export class ManifestStore {
  constructor(private readonly Manifest: ManifestModel) {}

  /** The manifest of one library version (null when it has none). */
  get(libraryId: string, version: string): Promise<ManifestRecord | null> {
    return this.Manifest.findById(`${libraryId}@${version}`).lean<ManifestRecord>().exec();
  }

  /**
   * Records the manifests of versions just built by a bulk import (new libraries): inserted in
   * bounded commands; one that exists already (left by a library of the same key) is replaced.
   */
  async putMany(manifests: ReadonlyArray<Pick<ManifestRecord, '_id' | 'generation' | 'files'>>): Promise<void> {
    const docs = manifests.map((m) => ({ ...m, updatedAt: new Date() }));
    try {
      await insertDocuments(rawCollection<ManifestRecord>(this.Manifest), docs);
    } catch (error) {
      if (!isDuplicate(error)) throw error;
      for (const doc of docs) await this.Manifest.replaceOne({ _id: doc._id }, doc, { upsert: true });
    }
  }

  /**
   * Removes the manifests of a library's versions, by their exact ids (`<key>@<version>`):
   * reads by id are the only ones FerretDB answers without reading the whole collection.
   */
  async deleteVersions(libraryId: string, versions: readonly string[]): Promise<void> {
    const ids = [...new Set([...versions, 'latest'])].map((v) => `${libraryId}@${v}`);
    await Promise.all(ids.map((_id) => this.Manifest.deleteOne({ _id })));
  }
}
