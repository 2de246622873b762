/**
 * Presenters: models become JSON field by field; nothing is serialised raw (no tokens, no
 * stored keys, no paths on this server's disk: a library's `id` is its client id, its
 * `teamId` says whose copy it is, and a repository cloned from disk has no `repoUrl`).
 */
import { isGitHost } from '../../domain/library-ids';
import type { LibraryRecord } from '../../store/models/library';
import type { CrawlReport, JobRecord } from '../../store/models/job';
import { clientLibraryId, versionNames } from '../../domain/library-keys';
import { hideServerPaths, presentedRepoUrl } from '../../util/source-url';
import type { AddRequestEcho } from '../../domain/job-params';
import { publicJobError } from '../../catalog/job-error';

/** A failed add's request, field by field; none for a repository on this server's disk. */
function presentRetryAdd(echo: AddRequestEcho | undefined) {
  if (!echo || !presentedRepoUrl(echo.docsRepoUrl)) return null;
  const { host, docsRepoUrl, private: isPrivate, skipVersionFiltering, generateDocs, tokenGiven } = echo;
  return { host, docsRepoUrl, private: isPrivate, skipVersionFiltering, generateDocs, tokenGiven };
}

/** A crawl report field by field (URLs are the site's own; nothing of the request's headers). */
export function presentCrawl(report: CrawlReport | null | undefined) {
  if (!report) return null;
  return {
    pagesFetched: report.pagesFetched,
    pagesUnchanged: report.pagesUnchanged,
    counts: report.counts.map((c) => ({ reason: c.reason, count: c.count })),
    skipped: report.skipped.map((s) => ({ url: s.url, reason: s.reason, detail: s.detail })),
    skippedOmitted: report.skippedOmitted,
  };
}

/** What a website, llms.txt or archive library is built from (never the headers: they are secret). */
function presentSourceParams(lib: LibraryRecord) {
  if (isGitHost(lib.source))
    return { source: 'git', skipVersionFiltering: lib.options?.skipVersionFiltering ?? false, generateDocs: lib.options?.generateDocs ?? false };
  const p = lib.sourceParams;
  if (!p) return null;
  switch (p.source) {
    case 'website':
      return { source: p.source, url: p.url, scope: p.scope, maxPages: p.maxPages, maxDepth: p.maxDepth, include: p.include, exclude: p.exclude };
    case 'llmstxt':
      return { source: p.source, url: p.url };
    case 'archive':
      return { source: p.source, fileName: p.fileName, format: p.format, sha256: p.sha256 };
  }
}

export function presentLibrary(lib: LibraryRecord) {
  const latest = lib.versions.find((v) => v.version === 'latest');
  return {
    id: clientLibraryId(lib._id),
    title: lib.title,
    description: lib.description,
    source: lib.source,
    sourceOptions: presentSourceParams(lib),
    crawl: presentCrawl(lib.crawl),
    repoUrl: presentedRepoUrl(lib.repoUrl),
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
    // Set by an admin: builds keep them (libraries.update; null hands them back to the docs).
    edited: { title: lib.titleSetByAdmin === true, description: lib.descriptionSetByAdmin === true },
    versionRule: lib.versionRule ?? null,
    // Whether a push webhook exists; its secret is never presented.
    webhook: { configured: Boolean(lib.webhook?.encryptedSecret), createdAt: lib.webhook?.createdAt ?? null },
    versions: versionNames(lib),
    // A merged library's source: the library its id now answers with (catalog/merged-sources.ts).
    mergedInto: lib.mergedInto ? clientLibraryId(lib.mergedInto) : null,
    mergedSources: (lib.mergedSources ?? []).map((s) => clientLibraryId(s.key)),
    builds: lib.versions.map((v) => ({
      version: v.version,
      ref: v.ref,
      tags: v.tags ?? [],
      commit: v.commit,
      state: v.state,
      totalSnippets: v.totalSnippets,
      totalTokens: v.totalTokens,
      benchmarkScore: v.benchmarkScore,
      qualityIssues: (v.qualityIssues ?? []).map((q) => ({ issue: q.issue, snippets: q.snippets })),
      lastUpdateDate: v.lastUpdateDate,
    })),
  };
}

/** A job; an internal failure's text stays in the server log (it may name server paths). */
export function presentJob(job: JobRecord, withLog: boolean) {
  return {
    id: job._id,
    kind: job.kind,
    trigger: job.trigger ?? 'manual',
    libraryId: clientLibraryId(job.libraryId),
    version: job.version,
    state: job.state,
    progress: job.progress,
    attempts: job.attempts,
    error: publicJobError(job),
    errorCode: job.errorCode ?? null,
    failedStage: job.state === 'failed' ? (job.failedStage ?? null) : null,
    source: job.params.source,
    crawl: presentCrawl(job.crawl),
    // An add that did not finish leaves no library to refresh: this is the add to make again.
    retryAdd: job.kind === 'add-repo' && (job.state === 'failed' || job.state === 'cancelled') ? presentRetryAdd(job.params.addRequest) : null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
    ...(withLog ? { log: job.log.map((l) => ({ at: l.at, level: l.level, message: hideServerPaths(l.message) })) } : {}),
  };
}
