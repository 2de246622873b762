import { Schema, type Connection, type Model } from 'mongoose';
import type { FileFigures } from '../../indexing/snippets/quality-report';
import type { PageChecks } from '../../indexing/pipeline/page-checks';

/**
 * What a built generation was made of: each source file and its content hash, so a
 * refresh re-parses only files whose content changed.
 */
export interface ManifestRecord {
  _id: string; // `${libraryId}@${version}`
  generation: number;
  files: { p: string; h: string }[];
  /**
   * A website or llms.txt build's pages with their validators (ETag, Last-Modified), so the
   * next crawl asks conditionally; written after the build is published, for its generation.
   */
  pages?: ManifestPage[];
  /**
   * Latest only: the tags the repo config lists in `previousVersions` at this build, so a
   * check that needs no clone can apply the version rule without retiring them. Absent on
   * manifests from before (such a check then retires nothing).
   */
  previousVersions?: string[];
  /**
   * What the totals and the quality report need of this generation's served snippets, per
   * snippet path (indexing/snippets/quality-report.ts), so a refresh sums the kept files'
   * figures instead of reading their snippets. Absent (older manifests, bundle imports): the
   * next refresh reads them and records them.
   */
  figures?: FileFigures[];
  /** The checks the figures were computed with (`FIGURES_VERSION`): others are not reused. */
  figuresVersion?: number;
  /**
   * Every page the build read, with its content hash and what the content checks decided
   * (redirect stub, unreadable, a copy, or a page, with its similarity sketch), so a refresh
   * reads only the pages that changed when they cannot change the others' verdicts
   * (indexing/pipeline/page-checks.ts).
   */
  checked?: PageChecks;
  updatedAt: Date;
}

export interface ManifestPage {
  u: string;
  p: string;
  h: string;
  e: string | null;
  m: string | null;
}

const manifestSchema = new Schema<ManifestRecord>(
  {
    _id: { type: String, required: true },
    generation: { type: Number, required: true },
    files: { type: [{ p: String, h: String, _id: false }], default: [] },
    pages: { type: [{ u: String, p: String, h: String, e: String, m: String, _id: false }], default: undefined },
    previousVersions: { type: [String], default: undefined },
    figures: { type: [{ p: String, n: Number, c: Number, t: Number, w: Number, l: Number, f: Number, i: Schema.Types.Mixed, d: String, _id: false }], default: undefined },
    figuresVersion: { type: Number, default: undefined },
    checked: { type: Schema.Types.Mixed, default: undefined },
    updatedAt: { type: Date, default: () => new Date() },
  },
  { collection: 'manifests', versionKey: false },
);

export type ManifestModel = Model<ManifestRecord>;

export function manifestModel(conn: Connection): ManifestModel {
  return conn.models.Manifest ?? conn.model<ManifestRecord>('Manifest', manifestSchema);
}
