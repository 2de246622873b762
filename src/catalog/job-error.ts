/**
 * A job's failure as a client may read it: an internal failure's text stays in the server log
 * (it may name server paths), any other has server paths hidden. The HTTP job presenter and
 * the scheduler's `check.lastError` (shown on the dashboard) both say it this way.
 */
import type { JobRecord } from '../store/models/job';
import { hideServerPaths } from '../util/source-url';

export function publicJobError(job: Pick<JobRecord, '_id' | 'state' | 'error' | 'errorCode'>): string | null | undefined {
  const internal = job.state === 'failed' && (job.errorCode ?? 'internal_error') === 'internal_error';
  return internal ? `Indexing failed with an internal error; the server log has the details (job ${job._id}).` : job.error && hideServerPaths(job.error);
}
