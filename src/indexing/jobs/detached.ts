/**
 * A job context for a build that runs without a queued job: an OpenAPI upload answers with
 * its result in the same request, and tests seed libraries from pages. The build is the same
 * (`buildVersion`); its log is kept in memory, progress and states are not stored anywhere,
 * and there is nobody to cancel it, so checkpoints and the commit always pass.
 */
import type { JobSpec } from '../../domain/job-params';
import type { JobContext } from './worker';
import type { JobLogEntry, JobRecord } from '../../store/models/job';

export interface DetachedContext extends JobContext {
  /** What the build logged, in order. */
  readonly entries: JobLogEntry[];
}

export function detachedContext(spec: JobSpec & { libraryId: string; version: string; teamId?: string | null; createdBy?: string | null }): DetachedContext {
  const now = new Date();
  const job: JobRecord = {
    ...spec,
    _id: 'detached',
    state: 'parsing',
    progress: { filesTotal: 0, filesParsed: 0, filesSkipped: 0, filesReused: 0, snippets: 0, snippetsEmbedded: 0 },
    log: [],
    encryptedToken: null,
    teamId: spec.teamId ?? null,
    createdBy: spec.createdBy ?? null,
    lease: { owner: null, until: null },
    attempts: 1,
    retries: 0,
    notBefore: null,
    error: null,
    errorCode: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
  const entries: JobLogEntry[] = [];
  return {
    job,
    entries,
    setState: async (state) => {
      job.state = state;
    },
    progress: async (p) => {
      Object.assign(job.progress, p);
    },
    report: async () => {},
    log: (level, message) => {
      entries.push({ at: new Date(), level, message });
    },
    checkpoint: async () => {},
    commit: async () => {},
  };
}
