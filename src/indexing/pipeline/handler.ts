/**
 * The worker's job handler: a claimed job's typed params (domain/job-params.ts, a union on
 * `source`) name its source, and every source runs the one generic build (`runBuild`,
 * build.ts). An `openapi` job is only the record of an inline upload (catalog/upload-openapi.ts).
 */
import type { JobHandler } from '../jobs/worker';
import type { JobQueue } from '../../store/jobs';
import type { JobRecord, JobTrigger } from '../../store/models/job';
import type { BuildParams } from '../../domain/job-params';
import type { DocumentSource } from '../sources/source';
import type { IndexingDeps } from './deps';
import { runBuild } from './build';
import { gitSource } from '../sources/git-source';
import { webSource } from '../sources/web-source';
import { archiveSource } from '../sources/archive/source';

/** Dispatches a claimed job to the generic build with its source. */
export function createJobHandler(deps: IndexingDeps): JobHandler {
  return async (ctx) => {
    const { job } = ctx;
    if (job.kind === 'openapi') throw new Error('an openapi job is a record of an inline upload; there is nothing to run');
    await runBuild(ctx, deps, sourceFor(job.params, deps));
    await rememberSourceSettings(deps, job);
  };
}

/**
 * After a build published, what it was built from is the library's: all of it for a build
 * made to change the settings (PATCH sourceOptions, catalog/change-source.ts); for any
 * Git build, the repository of a library that had none (one imported from a bundle whose URL
 * this server may not clone, added again from its repository). Never before publishing, so
 * a failed build leaves the library as it was.
 */
async function rememberSourceSettings(deps: IndexingDeps, job: JobRecord): Promise<void> {
  const params = job.params;
  const settings = job.trigger === 'settings';
  if (params.source === 'git') {
    await deps.libraries.modify(job.libraryId, (lib) => {
      const repo = !lib.cloneUrl && params.cloneUrl ? { cloneUrl: params.cloneUrl, repoUrl: params.webUrl } : {};
      const options = settings ? { options: { ...lib.options, skipVersionFiltering: params.skipVersionFiltering, generateDocs: params.generateDocs } } : {};
      return Object.keys(repo).length + Object.keys(options).length > 0 ? { ...repo, ...options } : null;
    });
  } else if (settings && (params.source === 'website' || params.source === 'llmstxt')) {
    await deps.libraries.modify(job.libraryId, () => ({ sourceParams: params }));
  }
}

/** The source a build's params name. */
export function sourceFor(params: BuildParams, deps: IndexingDeps): DocumentSource {
  switch (params.source) {
    case 'git':
      return gitSource(params, deps);
    case 'website':
    case 'llmstxt':
      return webSource(params, deps);
    case 'archive':
      return archiveSource(params, deps);
  }
}

/**
 * Queues builds of the tags a repository lists in `previousVersions` (those that exist
 * and are not being built already).
 */
export function versionEnqueuer(queue: JobQueue, poke: () => void) {
  return async (parent: JobRecord, wanted: string[], existingTags: string[], trigger: JobTrigger = parent.trigger ?? 'manual'): Promise<string[]> => {
    const params = parent.params;
    if (params.source !== 'git') return [];
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
        params: { ...params, ref: tag, followPreviousVersions: false },
        encryptedToken: parent.encryptedToken,
        teamId: parent.teamId,
        createdBy: parent.createdBy,
      });
    }
    poke();
    return queued;
  };
}
