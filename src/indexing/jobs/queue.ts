/**
 * Durable jobs in MongoDB: queued → cloning → parsing → indexing → finalized, or
 * failed/cancelled. A worker holds a lease it renews; a job whose lease lapsed (its worker
 * crashed) is claimed again by any instance. Only the lease holder writes a job's
 * progress and log, so the capped log is kept by the runner and written with `$set`
 * (FerretDB ignores `$push`'s `$slice`).
 */
import crypto from 'node:crypto';
import type { JobKind, JobLogEntry, JobModel, JobRecord, JobState } from '../../store/models/job';
import { TERMINAL_JOB_STATES } from '../../store/models/job';

export const JOB_LOG_CAP = 200;
const ACTIVE_STATES: JobState[] = ['cloning', 'parsing', 'indexing'];

export interface NewJob {
  kind: JobKind;
  libraryId: string;
  version: string;
  params: Record<string, unknown>;
  encryptedToken?: string | null;
  teamId?: string | null;
  createdBy?: string | null;
}

export class JobQueue {
  constructor(private readonly Job: JobModel) {}

  async enqueue(job: NewJob): Promise<JobRecord> {
    const doc = await this.Job.create({
      _id: `job_${crypto.randomBytes(9).toString('base64url')}`,
      kind: job.kind,
      libraryId: job.libraryId,
      version: job.version,
      state: 'queued',
      params: job.params,
      encryptedToken: job.encryptedToken ?? null,
      teamId: job.teamId ?? null,
      createdBy: job.createdBy ?? null,
      log: [{ at: new Date(), level: 'info', message: `queued ${job.kind} of ${job.libraryId} (${job.version})` }],
    });
    return doc.toObject();
  }

  /** Records work done inline (an OpenAPI upload) so it shows in the job history. */
  async record(job: { kind: JobKind; libraryId: string; version: string; teamId: string | null; createdBy: string | null; message: string; snippets: number }): Promise<void> {
    const now = new Date();
    await this.Job.create({
      _id: `job_${crypto.randomBytes(9).toString('base64url')}`,
      kind: job.kind,
      libraryId: job.libraryId,
      version: job.version,
      state: 'finalized',
      progress: { filesTotal: 1, filesParsed: 1, filesSkipped: 0, filesReused: 0, snippets: job.snippets },
      log: [{ at: now, level: 'info', message: job.message }],
      teamId: job.teamId,
      createdBy: job.createdBy,
      finishedAt: now,
    });
  }

  /** Claims the oldest queued job, or one whose worker's lease lapsed. */
  async claim(owner: string, leaseMs: number): Promise<JobRecord | null> {
    const now = new Date();
    return this.Job.findOneAndUpdate(
      { $or: [{ state: 'queued' }, { state: { $in: ACTIVE_STATES }, 'lease.until': { $lt: now } }] },
      { $set: { 'lease.owner': owner, 'lease.until': new Date(now.getTime() + leaseMs) }, $inc: { attempts: 1 } },
      { sort: { createdAt: 1 }, returnDocument: 'after' },
    ).lean<JobRecord>();
  }

  /** Renews the lease; false when another worker took the job over (or it was cancelled). */
  async renew(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const r = await this.Job.updateOne(
      { _id: id, 'lease.owner': owner, state: { $nin: TERMINAL_JOB_STATES } },
      { $set: { 'lease.until': new Date(Date.now() + leaseMs) } },
    );
    return r.matchedCount === 1;
  }

  async update(id: string, owner: string, fields: Partial<Pick<JobRecord, 'state' | 'progress' | 'log' | 'error' | 'errorCode' | 'version' | 'finishedAt'>>): Promise<boolean> {
    const r = await this.Job.updateOne({ _id: id, 'lease.owner': owner }, { $set: fields });
    return r.matchedCount === 1;
  }

  async get(id: string): Promise<JobRecord | null> {
    return this.Job.findById(id).lean<JobRecord>();
  }

  async list(filter: { libraryId?: string; teamIds?: string[] | null; limit?: number }): Promise<JobRecord[]> {
    const q: Record<string, unknown> = {};
    if (filter.libraryId) q.libraryId = filter.libraryId;
    if (filter.teamIds) q.$or = [{ teamId: null }, { teamId: { $in: filter.teamIds } }];
    return this.Job.find(q).sort({ createdAt: -1 }).limit(filter.limit ?? 50).lean<JobRecord[]>();
  }

  /** Cancels a job that has not finished; the running worker notices at its next lease renewal. */
  async cancel(id: string): Promise<boolean> {
    const r = await this.Job.updateOne(
      { _id: id, state: { $nin: TERMINAL_JOB_STATES } },
      { $set: { state: 'cancelled', finishedAt: new Date(), 'lease.owner': null } },
    );
    return r.matchedCount === 1;
  }

  /** Polls until the job is terminal or `timeoutMs` passes (works across instances). */
  async waitFor(id: string, timeoutMs: number): Promise<JobRecord | null> {
    const until = Date.now() + timeoutMs;
    let delay = 50;
    for (;;) {
      const job = await this.get(id);
      if (!job || TERMINAL_JOB_STATES.includes(job.state)) return job;
      if (Date.now() >= until) return job;
      await new Promise((r) => setTimeout(r, Math.min(delay, Math.max(0, until - Date.now()))));
      delay = Math.min(delay * 1.5, 500);
    }
  }

  /** Whether a non-terminal job exists for this library version. */
  async active(libraryId: string, version: string): Promise<JobRecord | null> {
    return this.Job.findOne({ libraryId, version, state: { $nin: TERMINAL_JOB_STATES } }).lean<JobRecord>();
  }
}

/** The capped log a runner keeps for its job. */
export function appendLog(log: JobLogEntry[], level: JobLogEntry['level'], message: string): JobLogEntry[] {
  const next = [...log, { at: new Date(), level, message }];
  return next.length > JOB_LOG_CAP ? next.slice(next.length - JOB_LOG_CAP) : next;
}
