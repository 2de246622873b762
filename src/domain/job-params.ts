/**
 * What each kind of job carries: a discriminated union on `source`, so a build reads its
 * parameters typed (no casts of a stored `Mixed`). Everything here is stored in the job
 * record and shown to nobody raw: secrets (git tokens, website headers) travel encrypted
 * in `JobRecord.encryptedToken` / `encryptedHeaders`, never in params.
 */
import type { GitHost } from './library-ids';

/** A Git repository (GitHub, GitLab, Bitbucket or any git URL). */
export interface GitJobParams {
  source: 'git';
  host: GitHost;
  cloneUrl: string;
  webUrl: string;
  /** Tag or branch to build; undefined = the default branch ("latest"). */
  ref?: string;
  skipVersionFiltering: boolean;
  generateDocs: boolean;
  /** Index `previousVersions` of the repo config after building latest. */
  followPreviousVersions: boolean;
  /**
   * Source links: by default `<webUrl>/blob/<commit>/<path>`. A mirror (the corpus loader's
   * local repositories) can link to its upstream instead: `linkBase` with the upstream ref
   * of each version in `linkRefs` (falling back to the commit).
   */
  linkBase?: string;
  /** Upstream ref per version (a list: MongoDB keys cannot contain dots, FerretDB has no nested arrays). */
  linkRefs?: { version: string; ref: string }[];
  /** The add request as made (an add-repo job; not read by the worker): the dashboard's "try again". */
  addRequest?: AddRequestEcho;
}

/**
 * What a failed add needs to be made again, without its secret: a token typed for it is not
 * kept (tokenGiven says one must be typed again), and credentials in the URL are dropped.
 */
export interface AddRequestEcho {
  host: GitHost;
  docsRepoUrl: string;
  private: boolean;
  skipVersionFiltering: boolean;
  generateDocs: boolean;
  tokenGiven: boolean;
}

export type CrawlScope = 'page' | 'subpages' | 'hostname';

/** A website crawled from `url` (headers, when given, are in the job's encryptedHeaders). */
export interface WebsiteJobParams {
  source: 'website';
  url: string;
  scope: CrawlScope;
  maxPages: number;
  maxDepth: number;
  include: string[];
  exclude: string[];
}

/** An llms.txt (an index followed to its pages) or llms-full.txt (split like Markdown). */
export interface LlmsTxtJobParams {
  source: 'llmstxt';
  url: string;
}

/** An uploaded zip or tar.gz, kept under the data directory by its content hash. */
export interface ArchiveJobParams {
  source: 'archive';
  /** sha256 of the archive (its file name under `<dataDir>/archives/`). */
  sha256: string;
  format: 'zip' | 'tgz';
  fileName: string;
}

/** An OpenAPI upload (built inline; the job only records it). */
export interface OpenApiJobParams {
  source: 'openapi';
}

/** The parameters of any build job. */
export type BuildParams = GitJobParams | WebsiteJobParams | LlmsTxtJobParams | ArchiveJobParams;

/** The sources a build job can have (`params.source`). */
export type BuildSource = BuildParams['source'];
export const BUILD_SOURCES: readonly BuildSource[] = ['git', 'website', 'llmstxt', 'archive'];
/** Sources fetched by crawling a site: paced by its politeness, so they get a worker lane of their own. */
export const CRAWL_SOURCES: readonly BuildSource[] = ['website', 'llmstxt'];
export type JobParams = BuildParams | OpenApiJobParams;
export type SourceKind = JobParams['source'];

/**
 * Job kinds with their parameters: an add names its source, a refresh rebuilds whichever
 * source the library has, `openapi` records an inline upload.
 */
export type JobSpec =
  | { kind: 'add-repo'; params: GitJobParams }
  | { kind: 'add-website'; params: WebsiteJobParams }
  | { kind: 'add-llmstxt'; params: LlmsTxtJobParams }
  | { kind: 'add-archive'; params: ArchiveJobParams }
  | { kind: 'refresh'; params: BuildParams }
  | { kind: 'openapi'; params: OpenApiJobParams };
export type JobKind = JobSpec['kind'];

/** Whether a job kind is the first build of a library (its failure removes what it made). */
export function isAddKind(kind: JobKind): boolean {
  return kind.startsWith('add-');
}

/**
 * Stored params as typed params. Jobs queued before params named their source (all Git
 * builds) are read as Git jobs; the store calls this on every record it reads.
 */
export function storedParams(kind: string, raw: unknown): JobParams {
  const params = (raw && typeof raw === 'object' ? raw : {}) as { source?: unknown };
  if (kind === 'openapi') return { source: 'openapi' };
  if (params.source === undefined) return { ...(params as Omit<GitJobParams, 'source'>), source: 'git' };
  return params as JobParams;
}

/** A stored job's kind and params as a JobSpec (a mismatch is a corrupt record). */
export function storedSpec(kind: string, raw: unknown): JobSpec {
  const params = storedParams(kind, raw);
  switch (kind) {
    case 'add-repo':
      if (params.source === 'git') return { kind, params };
      break;
    case 'add-website':
      if (params.source === 'website') return { kind, params };
      break;
    case 'add-llmstxt':
      if (params.source === 'llmstxt') return { kind, params };
      break;
    case 'add-archive':
      if (params.source === 'archive') return { kind, params };
      break;
    case 'refresh':
      if (params.source !== 'openapi') return { kind, params };
      break;
    case 'openapi':
      return { kind, params: { source: 'openapi' } };
  }
  throw new Error(`a ${kind} job cannot carry ${params.source} parameters`);
}
