/**
 * Configuration, parsed once from the environment into a typed, frozen object. A bad value
 * stops start-up with a message naming the variable. When ELASTICSEARCH_URL / MONGODB_URI
 * are unset, the URLs written by `npm run services -- up` (under .data/run) are used.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';
import { parseTlsPins, readCaBundle, type TlsPin } from './net/tls-trust';
import { UrlAllowList } from './net/url-allow-list';
import { HostAllowList } from './net/address-policy';

/** The repository: the nearest folder with a package.json above src/ (this file) or dist/ (the build's bundles). */
export const ROOT_DIR = packageRoot(path.dirname(new URL(import.meta.url).pathname));

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);
const url = z.string().url('must be a URL');
const list = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);
/** A list whose entries `check` accepts (it throws a message naming the bad entry). */
const checkedList = <T>(check: (entries: string[]) => T) =>
  list.transform((entries, ctx) => {
    try {
      return check(entries);
    } catch (error) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: (error as Error).message });
      return z.NEVER;
    }
  });

const schema = z.object({
  PORT: int(0, 65535).default('3000'),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // One URL, or several comma-separated (the nodes of a cluster: requests go to any that answers).
  ELASTICSEARCH_URL: list.pipe(z.array(url).min(1, 'must name at least one URL')).optional(),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional(),
  MONGODB_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,60}$/, 'must be 1-60 letters, digits, _ or -')
    .default('shelfmark'),
  SHELFMARK_INDEX_PREFIX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,40}$/, 'must be lowercase letters, digits, _ or - (max 41)')
    .default('shelfmark'),
  SHELFMARK_INDEX_SHARDS: int(1, 64).default('1'),
  SHELFMARK_INDEX_REPLICAS: int(0, 5).default('0'),
  SHELFMARK_DATA_DIR: z.string().optional(),
  SHELFMARK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  API_KEY: z.string().min(1).optional(),
  DEFAULT_ADMIN_USERNAME: z.string().min(1).default('admin'),
  DEFAULT_ADMIN_PASSWORD: z.string().min(1).default('admin'),
  SHELFMARK_PUBLIC_URL: z
    .string()
    .url('must be a URL')
    .refine(
      (u) => /^https?:$/.test(new URL(u).protocol) && !new URL(u).username && !new URL(u).password && !new URL(u).search && !new URL(u).hash,
      'must be an http(s) URL without credentials, query or fragment',
    )
    .optional(),
  GITHUB_BASE_URL: url.default('https://github.com'),
  GITLAB_BASE_URL: url.default('https://gitlab.com'),
  BITBUCKET_BASE_URL: url.default('https://bitbucket.org'),
  GIT_ALLOWED_URL_PREFIXES: checkedList((entries) => {
    UrlAllowList.parse(entries);
    return entries;
  }).default(''),
  GIT_CA_FILE: z
    .string()
    .superRefine((file, ctx) => {
      try {
        readCaBundle(file);
      } catch (error) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be a readable PEM file of CA certificates: ${(error as Error).message}` });
      }
    })
    .optional(),
  GIT_TLS_PINNED: checkedList(parseTlsPins).default(''),
  ADD_WAIT_SECONDS: int(0, 3600).default('300'),
  WORKER_MODE: z.enum(['in-process', 'off']).default('in-process'),
  SHELFMARK_DEMO_LIBRARY: z.enum(['on', 'off']).default('on'),
  WORKER_CONCURRENCY: int(1, 16).default('1'),
  WORKER_CRAWL_CONCURRENCY: int(1, 16).default('2'),
  JOB_LEASE_SECONDS: int(5, 3600).default('60'),
  JOB_MAX_ATTEMPTS: int(1, 100).default('3'),
  JOB_ISOLATION: z.enum(['process', 'none']).default('process'),
  JOB_MAX_HEAP_MB: int(128, 65_536).default('2048'),
  MAX_DOC_FILE_BYTES: int(1024, 100 * 1024 * 1024).default(String(2 * 1024 * 1024)),
  BUNDLE_MAX_BYTES: int(1024, 64 * 1024 ** 3).default(String(1024 ** 3)),
  CODE_DIR: z.string().min(1).optional(),
  CODE_TREE_MAX_MB: int(0, 16_384).default('200'),
  CODE_FILE_MAX_KB: int(1, 16_384).default('512'),
  CODE_SEARCH_TIMEOUT_MS: int(100, 60_000).default('3000'),
  CODE_CACHE_MB: int(16, 65_536).default('256'),
  RATE_LIMIT_ANON_PER_MINUTE: int(1, 1_000_000).default('60'),
  RATE_LIMIT_KEY_PER_MINUTE: int(1, 1_000_000).default('600'),
  RATE_LIMIT_EXPENSIVE_PER_MINUTE: int(1, 1_000_000).default('10'),
  TRUSTED_PROXIES: list.default(''),
  STORE_TIMEOUT_MS: int(100, 120_000).default('5000'),
  SESSION_TTL_HOURS: int(1, 24 * 365).default('12'),
  REFRESH_DEFAULT_HOURS: checkedList(parseRefreshDefaults).default('github=24,gitlab=24,bitbucket=24,git=24,website=72,llmstxt=24'),
  SCHEDULE_TICK_SECONDS: int(0, 86_400).default('60'),
  SCHEDULE_MAX_PER_TICK: int(1, 100_000).default('20'),
  LIBRARY_SEARCH_CACHE_ENTRIES: int(0, 1_000_000).default('5000'),
  WEB_ALLOWED_HOSTS: checkedList((entries) => {
    HostAllowList.parse(entries);
    return entries;
  }).default(''),
  WEB_MAX_PAGE_BYTES: int(1024, 100 * 1024 * 1024).default(String(5 * 1024 * 1024)),
  WEB_PAGE_TIMEOUT_MS: int(100, 300_000).default('15000'),
  WEB_CRAWL_CONCURRENCY: int(1, 16).default('2'),
  WEB_CRAWL_DELAY_MS: int(0, 60_000).default('250'),
  WEB_CRAWL_MAX_URLS: int(100, 1_000_000).default('50000'),
  WEB_CRAWL_MAX_MINUTES: int(1, 1440).default('30'),
  SHELFMARK_EMBEDDINGS: z.enum(['on', 'off']).optional(),
  SHELFMARK_EMBEDDING_MODEL_DIR: z.string().min(1).optional(),
});

/**
 * Source kinds a schedule can refresh by itself (an OpenAPI or archive upload has nothing to
 * fetch). Websites default to every 72 h: a crawl costs the site more than a clone, and
 * conditional requests make a refresh with nothing changed cheap but not free.
 */
export const SCHEDULED_SOURCES = ['github', 'gitlab', 'bitbucket', 'git', 'website', 'llmstxt'] as const;
export type ScheduledSource = (typeof SCHEDULED_SOURCES)[number];

/** `github=24,git=0`: hours between refreshes per source kind (0 = never); unnamed kinds never. */
function parseRefreshDefaults(entries: string[]): Record<ScheduledSource, number> {
  const out: Record<ScheduledSource, number> = { github: 0, gitlab: 0, bitbucket: 0, git: 0, website: 0, llmstxt: 0 };
  for (const entry of entries) {
    const m = /^(\w+)=(\d{1,5})$/.exec(entry);
    if (!m || !(SCHEDULED_SOURCES as readonly string[]).includes(m[1])) throw new Error(`"${entry}" is not <${SCHEDULED_SOURCES.join('|')}>=<hours>`);
    const hours = Number(m[2]);
    if (hours > 8760) throw new Error(`"${entry}": at most 8760 hours (a year)`);
    out[m[1] as ScheduledSource] = hours;
  }
  return out;
}

export interface Config {
  port: number;
  host: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** The first of `elasticsearchNodes` (what single-URL tools use). */
  elasticsearchUrl: string;
  /** Every node to send requests to (ELASTICSEARCH_URL's comma-separated list, or the local node). */
  elasticsearchNodes: string[];
  mongodbUri: string;
  mongodbDb: string;
  indexPrefix: string;
  /** Shards and replicas of the indices Shelfmark creates (replicas are also applied to existing ones at start). */
  indexLayout: { shards: number; replicas: number };
  dataDir: string;
  secret: string;
  apiKey?: string;
  /** The URL clients reach this server at (the Connect page's setups); else the address a request came to. */
  publicUrl?: string;
  defaultAdmin: { username: string; password: string };
  gitHosts: { github: string; gitlab: string; bitbucket: string };
  /** Validated entries of GIT_ALLOWED_URL_PREFIXES (compare with UrlAllowList, never as strings). */
  gitAllowedPrefixes: string[];
  /** TLS trust for Git over https besides the system CAs: a CA bundle file and pinned certificates. */
  gitTls: { caFile?: string; pins: TlsPin[] };
  addWaitSeconds: number;
  workerMode: 'in-process' | 'off';
  /** With an empty catalogue, index Shelfmark's own docs as a demo library (catalog/demo.ts). */
  demoLibrary: boolean;
  /** Git and archive builds one worker runs at once. */
  workerConcurrency: number;
  /** Website and llms.txt crawls one worker runs at once, besides (a lane of their own). */
  workerCrawlConcurrency: number;
  jobLeaseSeconds: number;
  /** Attempts of a job that ended with their worker (crash, kill, out of memory) before it is failed. */
  jobMaxAttempts: number;
  /** `process`: each job runs in a process of the worker's (off the event loop; indexing/jobs/process-runner.ts); `none`: on it. */
  jobIsolation: 'process' | 'none';
  /** The heap a job's process may use (its --max-old-space-size). */
  jobMaxHeapMb: number;
  maxDocFileBytes: number;
  /** The largest library bundle `POST /v2/libraries/import` accepts (compressed bytes). */
  bundleMaxBytes: number;
  /**
   * The code kept per indexed Git version (src/code/), under `dir` (CODE_DIR, default
   * `<dataDir>/code`; shared by the workers that build and the APIs that answer): at most `treeMaxBytes` of text files
   * (0: keep none), files up to `fileMaxBytes`; a search stops at `searchTimeoutMs`; trees
   * held in memory per process up to `cacheBytes`.
   */
  code: { dir: string; treeMaxBytes: number; fileMaxBytes: number; searchTimeoutMs: number; cacheBytes: number };
  rateLimits: { anonPerMinute: number; keyPerMinute: number; expensivePerMinute: number };
  trustedProxies: string[];
  storeTimeoutMs: number;
  sessionTtlHours: number;
  /** Hours between scheduled refreshes per source kind when a library keeps the default (0 = never). */
  refreshDefaultHours: Record<ScheduledSource, number>;
  /** How often each instance looks for due refreshes (0 = this instance never does). */
  scheduleTickSeconds: number;
  /** Scheduled refreshes one tick enqueues at most; the rest wait for the next ticks (a bulk import may make thousands due at once). */
  scheduleMaxPerTick: number;
  /** Library search answers (candidate and content queries) remembered per instance while the catalogue is unchanged (0 = none). */
  librarySearchCacheEntries: number;
  /**
   * The local embedding model (hybrid retrieval): `auto` (unset) uses it when its files are
   * present, `on` requires it, `off` is lexical search only. `modelDir` unset = the install
   * step's cache (embedding/embedder.ts `defaultModelDir`).
   */
  embeddings: { mode: 'auto' | 'on' | 'off'; modelDir?: string };
  /**
   * Website sources (net/web-fetch.ts, indexing/sources/website/): `allowedHosts` are the
   * host names and CIDRs that may be fetched although private/loopback/link-local
   * (WEB_ALLOWED_HOSTS); limits per page; politeness per host.
   */
  web: {
    allowedHosts: string[];
    maxPageBytes: number;
    pageTimeoutMs: number;
    concurrencyPerHost: number;
    delayMs: number;
    maxUrls: number;
    maxMinutes: number;
  };
}

export class ConfigError extends Error {}

/** Parses the environment. Throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.SHELFMARK_DATA_DIR ?? path.join(ROOT_DIR, '.data'));
  const elasticsearchNodes =
    e.ELASTICSEARCH_URL ??
    readRunFile(dataDir, 'es.url')
      ?.split(',')
      .map((u) => u.trim())
      .filter(Boolean) ??
    [];
  const elasticsearchUrl = elasticsearchNodes[0];
  const mongodbUri = e.MONGODB_URI ?? readRunFile(dataDir, 'mongo.url');
  if (!elasticsearchUrl) {
    throw new ConfigError(
      'ELASTICSEARCH_URL is not set and no local Elasticsearch is running: run `npm run services -- up` (or `npm start`), or set ELASTICSEARCH_URL.',
    );
  }
  if (!mongodbUri) {
    throw new ConfigError('MONGODB_URI is not set and no local FerretDB is running: run `npm run services -- up` (or `npm start`), or set MONGODB_URI.');
  }
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    elasticsearchUrl,
    elasticsearchNodes,
    mongodbUri,
    mongodbDb: e.MONGODB_DB,
    indexPrefix: e.SHELFMARK_INDEX_PREFIX,
    indexLayout: { shards: e.SHELFMARK_INDEX_SHARDS, replicas: e.SHELFMARK_INDEX_REPLICAS },
    dataDir,
    secret: e.SHELFMARK_SECRET ?? loadOrCreateSecret(dataDir),
    apiKey: e.API_KEY,
    publicUrl: e.SHELFMARK_PUBLIC_URL ? trimSlash(e.SHELFMARK_PUBLIC_URL) : undefined,
    defaultAdmin: { username: e.DEFAULT_ADMIN_USERNAME, password: e.DEFAULT_ADMIN_PASSWORD },
    gitHosts: { github: trimSlash(e.GITHUB_BASE_URL), gitlab: trimSlash(e.GITLAB_BASE_URL), bitbucket: trimSlash(e.BITBUCKET_BASE_URL) },
    gitAllowedPrefixes: e.GIT_ALLOWED_URL_PREFIXES,
    gitTls: { caFile: e.GIT_CA_FILE ? path.resolve(e.GIT_CA_FILE) : undefined, pins: e.GIT_TLS_PINNED },
    addWaitSeconds: e.ADD_WAIT_SECONDS,
    workerMode: e.WORKER_MODE,
    demoLibrary: e.SHELFMARK_DEMO_LIBRARY === 'on',
    workerConcurrency: e.WORKER_CONCURRENCY,
    workerCrawlConcurrency: e.WORKER_CRAWL_CONCURRENCY,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    jobMaxAttempts: e.JOB_MAX_ATTEMPTS,
    jobIsolation: e.JOB_ISOLATION,
    jobMaxHeapMb: e.JOB_MAX_HEAP_MB,
    maxDocFileBytes: e.MAX_DOC_FILE_BYTES,
    bundleMaxBytes: e.BUNDLE_MAX_BYTES,
    code: {
      dir: path.resolve(e.CODE_DIR ?? path.join(dataDir, 'code')),
      treeMaxBytes: e.CODE_TREE_MAX_MB * 1024 * 1024,
      fileMaxBytes: e.CODE_FILE_MAX_KB * 1024,
      searchTimeoutMs: e.CODE_SEARCH_TIMEOUT_MS,
      cacheBytes: e.CODE_CACHE_MB * 1024 * 1024,
    },
    rateLimits: {
      anonPerMinute: e.RATE_LIMIT_ANON_PER_MINUTE,
      keyPerMinute: e.RATE_LIMIT_KEY_PER_MINUTE,
      expensivePerMinute: e.RATE_LIMIT_EXPENSIVE_PER_MINUTE,
    },
    trustedProxies: e.TRUSTED_PROXIES,
    storeTimeoutMs: e.STORE_TIMEOUT_MS,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    refreshDefaultHours: e.REFRESH_DEFAULT_HOURS,
    scheduleTickSeconds: e.SCHEDULE_TICK_SECONDS,
    scheduleMaxPerTick: e.SCHEDULE_MAX_PER_TICK,
    librarySearchCacheEntries: e.LIBRARY_SEARCH_CACHE_ENTRIES,
    embeddings: {
      mode: e.SHELFMARK_EMBEDDINGS ?? ('auto' as const),
      modelDir: e.SHELFMARK_EMBEDDING_MODEL_DIR ? path.resolve(e.SHELFMARK_EMBEDDING_MODEL_DIR) : undefined,
    },
    web: {
      allowedHosts: e.WEB_ALLOWED_HOSTS,
      maxPageBytes: e.WEB_MAX_PAGE_BYTES,
      pageTimeoutMs: e.WEB_PAGE_TIMEOUT_MS,
      concurrencyPerHost: e.WEB_CRAWL_CONCURRENCY,
      delayMs: e.WEB_CRAWL_DELAY_MS,
      maxUrls: e.WEB_CRAWL_MAX_URLS,
      maxMinutes: e.WEB_CRAWL_MAX_MINUTES,
    },
  });
}

function trimSlash(s: string): string {
  return s.replace(/\/+$/, '');
}

function readRunFile(dataDir: string, name: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, 'run', name), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The secret signs sessions and encrypts stored tokens; generated once per data dir. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString('hex');
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return fs.readFileSync(file, 'utf8').trim();
  }
}
