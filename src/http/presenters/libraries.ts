/** Presenters: models become JSON field by field; nothing is serialised raw (no tokens). */
import type { LibraryRecord } from '../../store/models/library';
import type { JobRecord } from '../../store/models/job';
import { versionNames } from '../../store/libraries';

export function presentLibrary(lib: LibraryRecord) {
  const latest = lib.versions.find((v) => v.version === 'latest');
  return {
    id: lib._id,
    title: lib.title,
    description: lib.description,
    source: lib.source,
    repoUrl: lib.repoUrl,
    branch: lib.branch,
    state: lib.state,
    private: lib.private,
    teamId: lib.teamId,
    trustScore: lib.trustScore,
    benchmarkScore: latest?.benchmarkScore ?? 0,
    totalSnippets: latest?.totalSnippets ?? 0,
    totalTokens: latest?.totalTokens ?? 0,
    lastUpdateDate: (latest?.lastUpdateDate ?? lib.updatedAt)?.toISOString?.() ?? null,
    aliases: lib.aliases,
    versions: versionNames(lib),
    builds: lib.versions.map((v) => ({
      version: v.version,
      ref: v.ref,
      tags: v.tags ?? [],
      commit: v.commit,
      state: v.state,
      totalSnippets: v.totalSnippets,
      totalTokens: v.totalTokens,
      benchmarkScore: v.benchmarkScore,
      lastUpdateDate: v.lastUpdateDate,
    })),
  };
}

export function presentJob(job: JobRecord, withLog: boolean) {
  return {
    id: job._id,
    kind: job.kind,
    libraryId: job.libraryId,
    version: job.version,
    state: job.state,
    progress: job.progress,
    attempts: job.attempts,
    error: job.error,
    errorCode: job.errorCode ?? null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
    ...(withLog ? { log: job.log.map((l) => ({ at: l.at, level: l.level, message: l.message })) } : {}),
  };
}
