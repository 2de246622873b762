/** One line of a job's log (stored as is in the job record, store/models/job.ts). */
export interface JobLogEntry {
  at: Date;
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** Entries a job's log keeps (the newest). */
export const JOB_LOG_CAP = 200;

/**
 * The capped log a runner keeps for its job. Only the lease holder writes a job's log, so
 * it is kept in memory and written whole with `$set` (FerretDB ignores `$push`'s `$slice`).
 */
export function appendLog(log: JobLogEntry[], level: JobLogEntry['level'], message: string): JobLogEntry[] {
  const next = [...log, { at: new Date(), level, message }];
  return next.length > JOB_LOG_CAP ? next.slice(next.length - JOB_LOG_CAP) : next;
}
