/**
 * The manifests (store/models/manifest.ts), the one way to them: a bundle export reads a
 * version's file list, deleting a library removes its versions' manifests, and the indexing
 * pipeline records what each build was made of and reads it back on the next refresh.
 */
import type { ManifestModel, ManifestPage, ManifestRecord, PageChecks, StoredFileFigures } from './models/manifest';
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
   * Records what a generation was made of. Figures and checks describe that generation only:
   * a build that has none clears them.
   */
  async record(
    libraryId: string,
    version: string,
    built: { generation: number; files: { p: string; h: string }[]; figures?: { files: StoredFileFigures[]; version: number }; checked?: PageChecks },
  ): Promise<void> {
    const { generation, files, figures, checked } = built;
    const unset = { ...(figures ? {} : { figures: 1, figuresVersion: 1 }), ...(checked ? {} : { checked: 1 }) };
    await this.Manifest.updateOne(
      { _id: `${libraryId}@${version}` },
      {
        $set: {
          generation,
          files,
          ...(figures ? { figures: figures.files, figuresVersion: figures.version } : {}),
          ...(checked ? { checked } : {}),
          updatedAt: new Date(),
        },
        ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
      },
      { upsert: true },
    );
  }

  /** A crawl's pages with their validators, kept only while `generation` is the manifest's. */
  async setPages(libraryId: string, version: string, generation: number, pages: ManifestPage[]): Promise<void> {
    await this.Manifest.updateOne({ _id: `${libraryId}@${version}`, generation }, { $set: { pages } });
  }

  /** The tags the repo config lists in `previousVersions`, kept with latest's manifest. */
  async setPreviousVersions(libraryId: string, keep: string[]): Promise<void> {
    await this.Manifest.updateOne({ _id: `${libraryId}@latest` }, { $set: { previousVersions: keep } });
  }

  /**
   * Removes the manifests of a library's versions, by their exact ids (`<key>@<version>`):
   * reads by id are the only ones FerretDB answers without reading the whole collection.
   * `latest` goes too unless `only` is set.
   */
  async deleteVersions(libraryId: string, versions: readonly string[], options: { only?: boolean } = {}): Promise<void> {
    const ids = [...new Set([...versions, ...(options.only ? [] : ['latest'])])].map((v) => `${libraryId}@${v}`);
    await Promise.all(ids.map((_id) => this.Manifest.deleteOne({ _id })));
  }
}
