import type { JobHandler } from '../jobs/worker';
import type { JobQueue } from '../../store/jobs';
import type { JobRecord, JobTrigger } from '../../store/models/job';
import type { IndexingDeps } from './deps';
import { runGitJob, type GitJobParams } from './git-job';

/** Dispatches a claimed job to its builder. */
export function createJobHandler(deps: IndexingDeps): JobHandler {
  return async (ctx) => {
    switch (ctx.job.kind) {
      case 'add-repo':
      case 'refresh':
        return runGitJob(ctx, deps);
      default:
        throw new Error(`unknown job kind ${ctx.job.kind}`);
    }
  };
}

/**
 * Queues builds of the tags a repository lists in `previousVersions` (those that exist
 * and are not being built already).
 */
export function versionEnqueuer(queue: JobQueue, poke: () => void) {
  return async (parent: JobRecord, wanted: string[], existingTags: string[], trigger: JobTrigger = parent.trigger ?? 'manual'): Promise<string[]> => {
    const params = parent.params as unknown as GitJobParams;
    const queued: string[] = [];
    for (const tag of wanted) {
      if (!existingTags.includes(tag)) continue;
      if (await queue.active(parent.libraryId, tag)) continue;
      queued.push(tag);
      await queue.enqueue({
        kind: 'refresh',
        trigger,
        libraryId: parent.libraryId,
        version: tag,
        params: { ...params, ref: tag, followPreviousVersions: false } as unknown as Record<string, unknown>,
        encryptedToken: parent.encryptedToken,
        teamId: parent.teamId,
        createdBy: parent.createdBy,
      });
    }
    poke();
    return queued;
  };
}
