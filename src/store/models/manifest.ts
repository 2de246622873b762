import { Schema, type Connection, type Model } from 'mongoose';

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
  figures?: StoredFileFigures[];
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

/** What the totals and the report need of the snippets of one file (by snippet `path`; indexing/snippets/quality-report.ts computes them, `i` keyed by its check names). */
export interface StoredFileFigures {
  /** The snippets' path. */
  p: string;
  /** Snippets. */
  n: number;
  /** Code snippets among them. */
  c: number;
  /** Tokens. */
  t: number;
  /** Weight of the checks that apply (possible). */
  w: number;
  /** Weight of the checks failed (lost). */
  l: number;
  /** Fidelity lost, duplicates aside: each snippet's cost, at most 1. */
  f: number;
  /** Snippets failing each check, `duplicate` aside (absent checks: none; the store drops an empty object). */
  i?: Partial<Record<string, number>>;
  /**
   * The duplicate keys of the snippets whose key counts (20 characters or more), 12 characters
   * each: 11 of the key's hash, then `1` when a duplicate mark would cost that snippet (its
   * other fidelity costs are below 1) or `0`.
   */
  d: string;
}

/** One selected document of a build and what the content checks decided. */
export interface PageCheck {
  /** Path. */
  p: string;
  /** Content hash (the document's own: a blob id, not a hash with its includes). */
  h: string;
  /**
   * Left out: a redirect stub, a copy of `c`, unreadable (binary, not UTF-8, too large), or
   * not judged (reused without being read: a web page that answered 304). Absent: a page.
   */
  x?: 'stub' | 'copy' | 'unreadable' | 'unjudged';
  /** A copy's kept twin. */
  c?: string;
  /** The page's similarity sketch, when it was compared with the others. */
  k?: number[];
}

export interface PageChecks {
  /** The settings the verdicts depend on (`checksKey`): verdicts under another key are not reused. */
  key: string;
  pages: PageCheck[];
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
    figures: {
      type: [{ p: String, n: Number, c: Number, t: Number, w: Number, l: Number, f: Number, i: Schema.Types.Mixed, d: String, _id: false }],
      default: undefined,
    },
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
