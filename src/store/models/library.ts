import { Schema, type Connection, type Model } from 'mongoose';
import type { VersionRule } from '../../domain/version-rule';
import type { CrawlReport } from './job';
import type { ArchiveJobParams, LlmsTxtJobParams, WebsiteJobParams } from '../../domain/job-params';

export type LibrarySource = 'github' | 'gitlab' | 'bitbucket' | 'git' | 'openapi' | 'website' | 'llmstxt' | 'archive';

/** How a library that is not a Git repository is built again (a refresh's params). */
export type LibrarySourceParams = WebsiteJobParams | LlmsTxtJobParams | ArchiveJobParams;
export type LibraryState = 'queued' | 'processing' | 'finalized' | 'failed' | 'deleted';

/** One indexed version of a library ("latest" is the default branch). */
export interface LibraryVersionRecord {
  version: string;
  /** The tag or branch it was built from. */
  ref: string;
  /** Tags pointing at the same commit: they address this version too. */
  tags: string[];
  commit: string;
  /** The generation currently served; 0 until the first one is finalized. */
  generation: number;
  /**
   * The generation of the last full rebuild; the version serves the snippets written from it
   * to `generation` that no build up to `generation` retired (search/served.ts). Absent on
   * records from before incremental builds: then it equals `generation`.
   */
  baseGeneration?: number;
  state: LibraryState;
  totalSnippets: number;
  totalTokens: number;
  benchmarkScore: number;
  /** Why the score is what it is: how many snippets fail each quality check (absent on older builds). */
  qualityIssues?: { issue: string; snippets: number }[];
  lastUpdateDate: Date;
}

/**
 * How often a library is refreshed by itself: the default of its source kind
 * (`REFRESH_DEFAULT_HOURS`), never, or every `everyHours` hours.
 */
export interface LibrarySchedule {
  mode: 'default' | 'never' | 'every';
  everyHours: number;
}

/** What the scheduler knows of a library's checks (catalog/scheduler.ts). */
export interface LibraryCheckState {
  lastCheckedAt: Date | null;
  /** When the next scheduled check is due; null when the library is never checked. */
  nextCheckAt: Date | null;
  /** Scheduled checks that failed in a row (each one doubles the wait). */
  failures: number;
  /** Why the last scheduled check failed (the job's presented error), or null. */
  lastError: string | null;
  /** The scheduled job whose outcome is not recorded yet. */
  pendingJobId: string | null;
}

/** The source as last seen (store/models/library.ts `sourceState`). */
export interface LibrarySourceState {
  checkedAt: Date;
  /** The commit the default branch pointed at. */
  head: string | null;
  /** The newest release tag (semver, no pre-release), if the source has one. */
  newestTag: string | null;
}

/**
 * One more source of a merged library (catalog/merged-sources.ts): another library record, built
 * and refreshed on its own, whose snippets the merged library serves with its own.
 */
export interface MergedSourceRecord {
  /** The source's stored key (same scope as the merged library). */
  key: string;
  source: LibrarySource;
  /** The merged library's version that the source's default version joins when it has no version of that name. */
  joins: string;
  addedAt: Date;
}

export interface LibraryRecord {
  /**
   * The stored key: the client id (`/koajs/koa`) for a public library, `<client id>~<teamId>`
   * for a team's private copy (see store/libraries.ts, "Copies and scopes").
   */
  _id: string;
  source: LibrarySource;
  title: string;
  description: string;
  repoUrl: string;
  /** Where to fetch from (a git URL; empty for uploads). */
  cloneUrl: string;
  branch: string;
  aliases: string[];
  /** Normalised name keys for catalogue matching (lowercase, punctuation removed). */
  nameKeys: string[];
  state: LibraryState;
  versions: LibraryVersionRecord[];
  trustScore: number;
  trustScoreSetByAdmin: boolean;
  /** Set by hand (an admin's libraries.update, an archive uploader's title): builds keep it instead of the docs' own. */
  titleSetByAdmin?: boolean;
  descriptionSetByAdmin?: boolean;
  stars: number;
  /** Private libraries belong to one team and are invisible to everyone else. */
  private: boolean;
  teamId: string | null;
  /** Options kept for refresh. */
  options: { skipVersionFiltering: boolean; generateDocs: boolean };
  /** A website, llms.txt or archive library: what a refresh builds from (no secrets; missing on Git libraries). */
  sourceParams?: LibrarySourceParams | null;
  /** The crawl report of the latest build of a website or llms.txt library. */
  crawl?: CrawlReport | null;
  /** Scheduled refresh; missing on records made before schedules (= the default). */
  schedule?: LibrarySchedule;
  check?: LibraryCheckState;
  /**
   * What the last look at the source found (a clone or a listing of its refs, for latest): its
   * head commit and newest release tag, so answers can say whether what is served is behind
   * its source. Missing until a build or check records it (Git libraries only).
   */
  sourceState?: LibrarySourceState | null;
  /** Which tags are indexed as versions (domain/version-rule.ts); null/missing: none by rule. */
  versionRule?: VersionRule | null;
  /**
   * A push webhook: its secret encrypted with the server secret (shown once, at creation),
   * and the host scheme it was made for (deliveries on another host's route are refused;
   * null on hooks made before: the library's own host).
   */
  webhook?: { encryptedSecret: string | null; createdAt: Date | null; host?: string | null };
  /** A merged library: its other sources, served with its own snippets as one version set. */
  mergedSources?: MergedSourceRecord[];
  /** A source of a merged library: the merged library's key (its old id redirects there). */
  mergedInto?: string | null;
  /** Optimistic-concurrency revision: every write checks and bumps it. */
  rev: number;
  createdAt: Date;
  updatedAt: Date;
}

const versionSchema = new Schema<LibraryVersionRecord>(
  {
    version: { type: String, required: true },
    ref: { type: String, default: '' },
    tags: { type: [String], default: [] },
    commit: { type: String, default: '' },
    generation: { type: Number, default: 0 },
    baseGeneration: { type: Number, default: undefined },
    state: { type: String, required: true },
    totalSnippets: { type: Number, default: 0 },
    totalTokens: { type: Number, default: 0 },
    benchmarkScore: { type: Number, default: 0 },
    qualityIssues: { type: [{ _id: false, issue: String, snippets: Number }], default: undefined },
    lastUpdateDate: { type: Date, default: () => new Date() },
  },
  { _id: false },
);

const librarySchema = new Schema<LibraryRecord>(
  {
    _id: { type: String, required: true },
    source: { type: String, required: true },
    title: { type: String, default: '' },
    description: { type: String, default: '' },
    repoUrl: { type: String, default: '' },
    cloneUrl: { type: String, default: '' },
    branch: { type: String, default: '' },
    aliases: { type: [String], default: [] },
    nameKeys: { type: [String], default: [] },
    state: { type: String, required: true },
    versions: { type: [versionSchema], default: [] },
    trustScore: { type: Number, default: 5 },
    trustScoreSetByAdmin: { type: Boolean, default: false },
    titleSetByAdmin: { type: Boolean, default: false },
    descriptionSetByAdmin: { type: Boolean, default: false },
    stars: { type: Number, default: 0 },
    private: { type: Boolean, default: false },
    teamId: { type: String, default: null },
    rev: { type: Number, default: 0 },
    options: {
      skipVersionFiltering: { type: Boolean, default: false },
      generateDocs: { type: Boolean, default: false },
    },
    schedule: {
      mode: { type: String, default: 'default' },
      everyHours: { type: Number, default: 0 },
    },
    versionRule: { type: Schema.Types.Mixed, default: null },
    mergedSources: { type: [{ _id: false, key: String, source: String, joins: String, addedAt: Date }], default: undefined },
    mergedInto: { type: String, default: null },
    sourceParams: { type: Schema.Types.Mixed, default: null },
    crawl: { type: Schema.Types.Mixed, default: null },
    webhook: {
      encryptedSecret: { type: String, default: null },
      createdAt: { type: Date, default: null },
      host: { type: String, default: null },
    },
    sourceState: {
      type: new Schema<LibrarySourceState>(
        { checkedAt: Date, head: { type: String, default: null }, newestTag: { type: String, default: null } },
        { _id: false },
      ),
      default: null,
    },
    check: {
      lastCheckedAt: { type: Date, default: null },
      nextCheckAt: { type: Date, default: null },
      failures: { type: Number, default: 0 },
      lastError: { type: String, default: null },
      pendingJobId: { type: String, default: null },
    },
  },
  { collection: 'libraries', timestamps: true, versionKey: false },
);
librarySchema.index({ teamId: 1 });
librarySchema.index({ 'check.nextCheckAt': 1 });

export type LibraryModel = Model<LibraryRecord>;

export function libraryModel(conn: Connection): LibraryModel {
  return conn.models.Library ?? conn.model<LibraryRecord>('Library', librarySchema);
}
