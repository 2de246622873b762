import { Schema, type Connection, type Model } from 'mongoose';
import type { Ecosystem } from '../../domain/ecosystems';

/** One package a project's lockfile names, and the library it maps to (projects/map-packages.ts). */
export interface ProjectPackageRecord {
  ecosystem: Ecosystem;
  name: string;
  version: string;
  direct: boolean;
  /** The lockfile (its file name in the project) that names it. */
  lockfile: string;
  /** The client library id it maps to; null when none matches. */
  libraryId: string | null;
  matchedBy: string | null;
  alternatives: string[];
}

/** The version a project pins for one library (computed from its packages at every write). */
export interface ProjectPinRecord {
  libraryId: string;
  version: string;
  package: string;
  ecosystem: string;
  lockfile: string;
}

/** The mapping's counts, kept beside the packages so a list of projects need not read them. */
export interface ProjectMappingRecord {
  packages: number;
  mapped: number;
  direct: number;
  directMapped: number;
  /** Mapped share of the direct packages (of all, when the lockfiles do not say which are direct). */
  rate: number;
}

export interface ProjectLockfileRecord {
  /** As uploaded (`package-lock.json`, `services/api/go.mod`): a re-upload under the same name replaces it. */
  filename: string;
  kind: string;
  sha256: string;
  uploadedAt: Date;
  packages: number;
  /** Where it is fetched from again (a refresh, a push delivery); null: uploaded. */
  url: string | null;
}

/** A project: the lockfiles of a code base, and so the versions of the libraries it uses. */
export interface ProjectRecord {
  _id: string;
  name: string;
  /** The team that owns it (its members use it); null: the creator's own. */
  teamId: string | null;
  createdBy: string | null;
  lockfiles: ProjectLockfileRecord[];
  packages: ProjectPackageRecord[];
  pins: ProjectPinRecord[];
  mapping: ProjectMappingRecord;
  /** A push webhook: its secret sealed with the server secret (shown once, at creation). */
  webhook: { encryptedSecret: string; createdAt: Date } | null;
  /** When the packages were last mapped to libraries (an upload, or POST .../remap). */
  mappedAt: Date;
  rev: number;
  createdAt: Date;
  updatedAt: Date;
}

const packageSchema = new Schema<ProjectPackageRecord>(
  {
    ecosystem: String,
    name: String,
    version: String,
    direct: Boolean,
    lockfile: String,
    libraryId: { type: String, default: null },
    matchedBy: { type: String, default: null },
    alternatives: { type: [String], default: [] },
  },
  { _id: false },
);

const lockfileSchema = new Schema<ProjectLockfileRecord>(
  { filename: String, kind: String, sha256: String, uploadedAt: Date, packages: Number, url: { type: String, default: null } },
  { _id: false },
);

const pinSchema = new Schema<ProjectPinRecord>({ libraryId: String, version: String, package: String, ecosystem: String, lockfile: String }, { _id: false });

const projectSchema = new Schema<ProjectRecord>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    teamId: { type: String, default: null },
    createdBy: { type: String, default: null },
    lockfiles: { type: [lockfileSchema], default: [] },
    packages: { type: [packageSchema], default: [] },
    pins: { type: [pinSchema], default: [] },
    mapping: { packages: Number, mapped: Number, direct: Number, directMapped: Number, rate: Number },
    webhook: { type: new Schema({ encryptedSecret: String, createdAt: Date }, { _id: false }), default: null },
    mappedAt: { type: Date, default: () => new Date() },
    rev: { type: Number, default: 0 },
  },
  { collection: 'projects', timestamps: true, versionKey: false },
);
projectSchema.index({ teamId: 1 });
projectSchema.index({ createdBy: 1 });

export type ProjectModel = Model<ProjectRecord>;

export function projectModel(conn: Connection): ProjectModel {
  return (conn.models.Project as ProjectModel | undefined) ?? conn.model<ProjectRecord>('Project', projectSchema);
}
