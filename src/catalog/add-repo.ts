/**
 * Use cases "add a Git repository" and "refresh a library" (transport-agnostic: HTTP and
 * the corpus loader call them). Validation, policy and plan/role checks happen before
 * anything is written; the build runs as a durable job; the caller waits up to the
 * configured time for it.
 */
import { z } from 'zod';
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { assertCanAddPrivateRepo } from '../auth/authorize';
import { encryptSecret } from '../auth/crypto';
import {
  ConflictError,
  DuplicateRepoError,
  errorFromParts,
  InternalError,
  isErrorCode,
  LibraryNotFoundError,
  TimeoutError,
  ValidationError,
  type ErrorDetails,
} from '../errors';
import { isAddressableVersion, isGitHost, locateRepo, parseLibraryId, type GitHost } from '../domain/library-ids';
import { requirePolicyAllows, usableLibrary } from './access';
import { clientLibraryId } from '../domain/library-keys';
import { hideServerPaths } from '../util/source-url';
import type { BuildParams, GitJobParams } from '../domain/job-params';
import type { JobRecord, JobTrigger } from '../store/models/job';
import type { LibraryRecord } from '../store/models/library';
import { DEFAULT_TRUST_SCORES } from '../indexing/snippets/quality';
import { deleteLibrary, deletePortsOf } from './delete';
import { changedGitSettings, refuseSettingsChange } from './source-settings';

export const addRepoBody = z.object({
  // An absolute URL of a scheme Git clones (the document says so); which hosts and prefixes
  // this server accepts is configuration (GIT_ALLOWED_URL_PREFIXES, the hosts' base URLs).
  docsRepoUrl: z
    .string({ required_error: 'docsRepoUrl is required', invalid_type_error: 'docsRepoUrl must be a string' })
    .min(1, 'docsRepoUrl is required')
    .max(2000)
    .url('docsRepoUrl must be an absolute URL')
    .regex(
      /^([Hh][Tt][Tt][Pp][Ss]?|[Ss][Ss][Hh]|[Gg][Ii][Tt]):\/\/[^\s/@?#]+(\/[^\s?#]*)?$|^[Ff][Ii][Ll][Ee]:\/\/\/[^\s?#]*$/,
      'docsRepoUrl must be an absolute http(s), ssh, git or file URL without credentials, query or fragment',
    ),
  gitToken: z.string({ invalid_type_error: 'gitToken must be a string' }).min(1).max(1000).optional(),
  private: z.boolean({ invalid_type_error: 'private must be a boolean' }).optional(),
  skipVersionFiltering: z.boolean({ invalid_type_error: 'skipVersionFiltering must be a boolean' }).optional(),
  generateDocs: z.boolean({ invalid_type_error: 'generateDocs must be a boolean' }).optional(),
});
export type AddRepoBody = z.infer<typeof addRepoBody>;

export const refreshBody = z.object({
  libraryName: z.string({ required_error: 'libraryName is required', invalid_type_error: 'libraryName must be a string' }).min(1, 'libraryName is required'),
  // The pattern is the whole check, so the API document says it (isAddressableVersion, as a regex).
  branch: z
    .string({ invalid_type_error: 'branch must be a string' })
    .regex(
      /^(?!latest$)(?!\.+$)[A-Za-z0-9_.][A-Za-z0-9_.+-]{0,99}$/,
      'branch must be a tag or branch name a client can address as a version: letters, digits, ".", "_", "+", "-" (at most 100; not "latest")',
    )
    .optional(),
  gitToken: z.string({ invalid_type_error: 'gitToken must be a string' }).min(1).max(1000).optional(),
});
export type RefreshBody = z.infer<typeof refreshBody>;

export interface AddResult {
  libraryName: string;
  message: string;
  jobId: string;
}

interface HostOverride {
  /** Replaces the configured base URL of a host (the corpus loader uses a local path). */
  bases?: Partial<Record<'github' | 'gitlab' | 'bitbucket', string>>;
  /** Wait time in ms (defaults to config.addWaitSeconds). */
  waitMs?: number;
  /** Upstream links for a mirror (see GitJobParams.linkBase). */
  linkBase?: string;
  linkRefs?: { version: string; ref: string }[];
}

/** What `addRepository` reaches (ports.ts). */
export type AddRepositoryPorts = Pick<
  Ports,
  'config' | 'credentials' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'pokeWorker' | 'policies' | 'snippets' | 'teams'
>;

export async function addRepository(
  services: AddRepositoryPorts,
  principal: Principal,
  host: GitHost,
  input: AddRepoBody,
  override: HostOverride = {},
): Promise<AddResult> {
  const { config } = services;
  const location = locateRepo(host, input.docsRepoUrl, { ...config.gitHosts, ...override.bases }, config.gitAllowedPrefixes);
  const isPrivate = input.private === true;
  const teamId = principal.kind === 'user' ? principal.defaultTeamId : null;

  await requirePolicyAllows(services, principal, { id: location.libraryId, source: location.source, trustScore: DEFAULT_TRUST_SCORES[location.source] });
  if (isPrivate) {
    const team = teamId ? await services.teams.get(teamId) : null;
    assertCanAddPrivateRepo(principal, team);
  }

  // A private add goes to the caller's team's copy, a public add to the public copy: each
  // scope holds its own copy (store/libraries.ts), so another team's copy neither blocks the
  // add nor is revealed by it.
  const scope = isPrivate ? teamId : null;
  const existing = await services.libraries.findCopy(location.libraryId, scope, { fresh: true });
  if (existing && isPrivate && !location.ref) {
    throw new DuplicateRepoError(`The private repository ${location.libraryId} is already in your team. Use POST /v2/refresh to update it.`);
  }
  // An existing library is rebuilt with its stored URL and options; other ones are PATCH's (source-settings.ts).
  const asked = {
    cloneUrl: location.cloneUrl,
    skipVersionFiltering: input.skipVersionFiltering,
    generateDocs: input.generateDocs === undefined ? undefined : input.generateDocs && isPrivate,
  };
  if (existing) refuseSettingsChange(existing, changedGitSettings(existing, asked));
  const key = existing?._id ?? (await services.libraries.keyForNewCopy(location.libraryId, scope));
  const skipVersionFiltering = existing ? (existing.options?.skipVersionFiltering ?? false) : input.skipVersionFiltering === true;
  const generateDocs = existing ? (existing.options?.generateDocs ?? false) : input.generateDocs === true && isPrivate;

  let token = input.gitToken;
  if (!token && principal.kind === 'user' && (isPrivate || host !== 'git')) token = await services.credentials.tokenFor(principal.userId, host);

  await services.libraries.ensure({
    _id: key,
    source: location.source,
    title: location.libraryId.split('/').pop() ?? location.libraryId,
    description: '',
    repoUrl: location.webUrl,
    cloneUrl: location.cloneUrl,
    branch: '',
    private: isPrivate,
    teamId: isPrivate ? teamId : null,
    trustScore: DEFAULT_TRUST_SCORES[location.source],
    options: { skipVersionFiltering, generateDocs },
  });

  const version = location.ref ?? 'latest';
  const params: GitJobParams = {
    source: 'git',
    host: existing && isGitHost(existing.source) ? existing.source : location.source,
    cloneUrl: existing?.cloneUrl || location.cloneUrl,
    webUrl: existing?.repoUrl || location.webUrl,
    ref: location.ref,
    skipVersionFiltering,
    generateDocs,
    followPreviousVersions: !location.ref,
    linkBase: override.linkBase,
    linkRefs: override.linkRefs,
    addRequest: {
      host,
      docsRepoUrl: withoutCredentials(input.docsRepoUrl),
      private: isPrivate,
      skipVersionFiltering: input.skipVersionFiltering === true,
      generateDocs: input.generateDocs === true,
      tokenGiven: input.gitToken !== undefined,
    },
  };
  const job = await services.jobs.enqueue({
    kind: 'add-repo',
    libraryId: key,
    version,
    params,
    encryptedToken: token ? encryptSecret(token, config.secret) : null,
    teamId: isPrivate ? teamId : null,
    createdBy: principal.kind === 'user' ? principal.userId : null,
  });
  services.pokeWorker();
  const libraryName = location.ref ? `${location.libraryId}/${location.ref}` : location.libraryId;
  await awaitJob(services, job, override.waitMs ?? config.addWaitSeconds * 1000, !existing);
  return { libraryName, message: `${libraryName} was indexed and is ready to query.`, jobId: job._id };
}

/** A URL as given, without user or password (kept in a job's record, which is not secret). */
function withoutCredentials(raw: string): string {
  try {
    const url = new URL(raw.trim());
    if (!url.username && !url.password) return raw.trim();
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return raw.trim().replace(/\/\/[^/@\s]*@/, '//');
  }
}

/** What `refreshLibrary` reaches (ports.ts). */
export type RefreshLibraryPorts = Pick<Ports, 'config' | 'credentials' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'pokeWorker' | 'policies' | 'snippets'>;

export async function refreshLibrary(services: RefreshLibraryPorts, principal: Principal, input: RefreshBody, waitMs?: number): Promise<AddResult> {
  const { libraryId, version: idVersion } = parseLibraryId(input.libraryName);
  const lib = await usableLibrary(services, principal, libraryId, { fresh: true });
  if (lib.source === 'openapi')
    throw new ValidationError(`${libraryId} was uploaded as an OpenAPI document; upload it again with force=true to replace it.`, 'libraryName');
  const ref = input.branch ?? idVersion;
  if (ref !== undefined && !isAddressableVersion(ref))
    throw new ValidationError(`The version in libraryName ("${ref}") is not one a client can address.`, 'libraryName');
  let token = input.gitToken;
  if (!token && principal.kind === 'user' && lib.private) token = await services.credentials.tokenFor(principal.userId, lib.source);
  const job = await enqueueRefresh(services, lib, {
    ref,
    encryptedToken: token ? encryptSecret(token, services.config.secret) : null,
    createdBy: principal.kind === 'user' ? principal.userId : null,
    trigger: 'manual',
  });
  services.pokeWorker();
  const libraryName = ref ? `${libraryId}/${ref}` : libraryId;
  await awaitJob(services, job, waitMs ?? services.config.addWaitSeconds * 1000, false);
  return { libraryName, message: `${libraryName} was refreshed.`, jobId: job._id };
}

/**
 * Enqueues a refresh of one version of a Git library (latest when `ref` is undefined), or
 * returns the job already queued or running for it: refreshes that arrive while one is
 * pending are coalesced into it. Manual refreshes, schedules and webhooks all come here.
 */
export async function enqueueRefresh(
  services: Pick<Ports, 'jobs' | 'pokeWorker'>,
  lib: LibraryRecord,
  options: { ref: string | undefined; encryptedToken: string | null; createdBy: string | null; trigger: JobTrigger },
): Promise<JobRecord> {
  const { ref } = options;
  const host = lib.source;
  if (host === 'openapi')
    throw new ValidationError(`${clientLibraryId(lib._id)} was uploaded as an OpenAPI document; it has no source to refresh from.`, 'libraryName');
  const version = ref ?? 'latest';
  const running = await services.jobs.active(lib._id, version);
  if (running) return running;
  let params: BuildParams;
  if (isGitHost(host)) {
    // A library imported from a bundle whose URL this server may not clone has none (bundles/repo-urls.ts).
    if (!lib.cloneUrl)
      throw new ValidationError(
        `${clientLibraryId(lib._id)} has no repository this server may clone (it was imported from a bundle); add it from its repository to refresh it.`,
        'libraryName',
      );
    params = {
      source: 'git',
      host,
      cloneUrl: lib.cloneUrl,
      webUrl: lib.repoUrl,
      ref,
      skipVersionFiltering: lib.options?.skipVersionFiltering ?? false,
      generateDocs: lib.options?.generateDocs ?? false,
      followPreviousVersions: !ref,
    };
  } else {
    if (!lib.sourceParams) throw new ValidationError(`${clientLibraryId(lib._id)} has no source to refresh from; add it again.`, 'libraryName');
    if (ref !== undefined)
      throw new ValidationError(`${clientLibraryId(lib._id)} is a ${host} library: it has one version, latest, and no branches or tags.`, 'branch');
    params = lib.sourceParams;
  }
  const job = await services.jobs.enqueue({
    kind: 'refresh',
    libraryId: lib._id,
    version,
    trigger: options.trigger,
    params,
    // A site behind a login is crawled again with the headers its add was given.
    encryptedHeaders: params.source === 'website' ? await services.jobs.lastHeaders(lib._id) : null,
    encryptedToken: options.encryptedToken,
    teamId: lib.teamId,
    createdBy: options.createdBy,
  });
  services.pokeWorker();
  return job;
}

/** What `awaitJob` reaches (ports.ts). */
export type AwaitJobPorts = Pick<Ports, 'config' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'snippets'>;

/** Waits for a job; maps its failure to the API error; 504 when it is still running. */
export async function awaitJob(services: AwaitJobPorts, job: JobRecord, waitMs: number, isNewLibrary: boolean): Promise<void> {
  const done = await services.jobs.waitFor(job._id, waitMs);
  if (!done) throw new InternalError('The job disappeared.');
  if (done.state === 'finalized') return;
  if (done.state === 'failed' || done.state === 'cancelled') {
    if (isNewLibrary) await removeIfNeverBuilt(services, job.libraryId);
    if (done.state === 'cancelled') throw new ConflictError(`The indexing job ${job._id} was cancelled before it finished; nothing changed.`);
    const message = hideServerPaths(done.error ?? 'Indexing failed.');
    // The failure's code and details were stored as data: the same error comes back.
    if (done.errorCode === 'library_not_found') throw new LibraryNotFoundError(clientLibraryId(job.libraryId));
    if (done.errorCode && done.errorCode !== 'internal_error' && isErrorCode(done.errorCode))
      throw errorFromParts(done.errorCode, message, (done.errorDetails ?? {}) as ErrorDetails);
    throw new InternalError(`Indexing failed (job ${job._id}). See GET /v2/jobs/${job._id} for its log.`);
  }
  throw new TimeoutError(`Processing is still running after ${Math.round(waitMs / 1000)} s; it carries on. Follow it with GET /v2/jobs/${job._id}.`);
}

/** What `removeIfNeverBuilt` reaches (ports.ts). */
export type RemoveIfNeverBuiltPorts = Pick<Ports, 'config' | 'libraries' | 'log' | 'manifests' | 'snippets'>;

/** Nothing half-written stays behind: a library whose first build failed is removed (by its stored key). */
async function removeIfNeverBuilt(services: RemoveIfNeverBuiltPorts, libraryId: string): Promise<void> {
  await deleteLibrary(deletePortsOf(services), libraryId, { onlyIfNeverBuilt: true });
}
