import { Schema, type Connection, type Model } from 'mongoose';

export type JobState = 'queued' | 'cloning' | 'parsing' | 'indexing' | 'finalized' | 'failed' | 'cancelled';
import type { JobKind, JobSpec } from '../../domain/job-params';

export type { JobKind } from '../../domain/job-params';
/** Why a job ran (shown with the job). */
export type JobTrigger = 'manual' | 'schedule' | 'webhook' | 'new-tag' | 'settings';
export const TERMINAL_JOB_STATES: readonly JobState[] = ['finalized', 'failed', 'cancelled'];

import type { JobLogEntry } from '../../domain/job-log';

export type { JobLogEntry };

/** A job record: its kind and typed params (JobSpec) with the fields every job has. */
export type JobRecord = JobFields & JobSpec;

/** A crawl's skipped URL (bounded list in `crawl.skipped`). */
export interface CrawlSkipRecord {
  url: string;
  reason: string;
  detail: string | null;
}

/**
 * What a website, llms.txt or archive build left out and why: counts per reason as a list
 * (FerretDB-friendly: no nested arrays, no URL-derived keys) and the first skipped URLs.
 */
export interface CrawlReport {
  pagesFetched: number;
  pagesUnchanged: number;
  counts: { reason: string; count: number }[];
  skipped: CrawlSkipRecord[];
  /** Skipped URLs beyond the kept list. */
  skippedOmitted: number;
}

export interface JobFields {
  _id: string;
  libraryId: string;
  /** The version being built ("latest" or a tag). */
  version: string;
  state: JobState;
  /** Why it ran; missing on jobs made before triggers were recorded (= manual). */
  trigger?: JobTrigger;
  /**
   * `snippets`: found by parsing (the build's total); `snippetsIndexed`: written to the index
   * so far. `filesAdded/Changed/Removed`: the doc files that differ from the version's
   * previous build (all added on a first build; missing on older jobs).
   */
  progress: {
    filesTotal: number;
    filesParsed: number;
    filesSkipped: number;
    filesReused: number;
    snippets: number;
    snippetsIndexed?: number;
    /** Snippets with a vector so far (from the vector cache or embedded now); 0 with embeddings off. */
    snippetsEmbedded: number;
    filesAdded?: number;
    filesChanged?: number;
    filesRemoved?: number;
  };
  log: JobLogEntry[];
  /**
   * The log of an ended job is kept in a document of its own (`job_logs`, by the job's id):
   * the jobs collection stays small for the queries that read all of it on FerretDB.
   */
  logApart?: boolean;
  /** A git token for this job only, encrypted with the server secret. */
  encryptedToken: string | null;
  /** Request headers for a website crawl (JSON), encrypted with the server secret. */
  encryptedHeaders?: string | null;
  /** What a crawl or archive build skipped (website, llms.txt and archive jobs). */
  crawl?: CrawlReport | null;
  teamId: string | null;
  createdBy: string | null;
  lease: { owner: string | null; until: Date | null };
  /** Claims so far (each claim is won by one worker: see store/jobs.ts). */
  attempts: number;
  /** Times the job was put back because a store was unavailable. */
  retries: number;
  /** A job put back for a retry is not claimed before this. */
  notBefore: Date | null;
  error: string | null;
  /** The API error code of a failure a caller can act on (see JobFailure). */
  errorCode: string | null;
  /** That error's details (errors.ts ErrorDetails: e.g. a tag_not_found's availableVersions). */
  errorDetails?: Record<string, unknown> | null;
  /** The stage a failed job was in when it failed (cloning, parsing, indexing). */
  failedStage?: JobState | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/** The stored shape (params Mixed; the store types them on read: JobParams, storedParams). */
type StoredJob = JobFields & { kind: JobKind; params: unknown };

const jobSchema = new Schema<StoredJob>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    libraryId: { type: String, required: true },
    version: { type: String, required: true },
    state: { type: String, required: true },
    trigger: { type: String, default: 'manual' },
    progress: {
      filesTotal: { type: Number, default: 0 },
      filesParsed: { type: Number, default: 0 },
      filesSkipped: { type: Number, default: 0 },
      filesReused: { type: Number, default: 0 },
      snippets: { type: Number, default: 0 },
      snippetsEmbedded: { type: Number, default: 0 },
      filesAdded: { type: Number, default: 0 },
      filesChanged: { type: Number, default: 0 },
      filesRemoved: { type: Number, default: 0 },
      snippetsIndexed: { type: Number, default: 0 },
    },
    log: { type: [{ at: Date, level: String, message: String, _id: false }], default: [] },
    logApart: { type: Boolean, default: false },
    params: { type: Schema.Types.Mixed, default: {} },
    encryptedToken: { type: String, default: null },
    encryptedHeaders: { type: String, default: null },
    crawl: { type: Schema.Types.Mixed, default: null },
    teamId: { type: String, default: null },
    createdBy: { type: String, default: null },
    lease: { owner: { type: String, default: null }, until: { type: Date, default: null } },
    attempts: { type: Number, default: 0 },
    retries: { type: Number, default: 0 },
    notBefore: { type: Date, default: null },
    error: { type: String, default: null },
    errorCode: { type: String, default: null },
    errorDetails: { type: Schema.Types.Mixed, default: null },
    failedStage: { type: String, default: null },
    finishedAt: { type: Date, default: null },
  },
  { collection: 'jobs', timestamps: true, versionKey: false, minimize: false },
);
jobSchema.index({ state: 1, createdAt: 1 });
jobSchema.index({ libraryId: 1, createdAt: -1 });

export type JobModel = Model<StoredJob>;

export function jobModel(conn: Connection): JobModel {
  return conn.models.Job ?? conn.model<StoredJob>('Job', jobSchema);
}

/** An ended job's log, under the job's id (store/jobs.ts `setLogApart`). */
interface StoredJobLog {
  _id: string;
  log: JobLogEntry[];
}

const jobLogSchema = new Schema<StoredJobLog>(
  {
    _id: { type: String, required: true },
    log: { type: [{ at: Date, level: String, message: String, _id: false }], default: [] },
  },
  { collection: 'job_logs', versionKey: false, minimize: false },
);

export type JobLogModel = Model<StoredJobLog>;

export function jobLogModel(conn: Connection): JobLogModel {
  return conn.models.JobLog ?? conn.model<StoredJobLog>('JobLog', jobLogSchema);
}
