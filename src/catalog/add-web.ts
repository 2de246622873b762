/**
 * Use cases "add a website" and "add an llms.txt": the same checks and job behaviour as
 * adding a Git repository (add-repo.ts) — policy, plan and role for a private copy, the
 * library record, a durable job, the caller waiting up to ADD_WAIT_SECONDS (504 while it
 * carries on), a never-built library removed on failure. The crawl itself runs in the
 * worker (sources/website/); the URL's address is checked there, by the fetcher, on every
 * request and redirect (SSRF rules).
 *
 * Library ids, like Context7's: `/websites/<host>[_<path>]` and `/llmstxt/<host>[_<path>]`
 * — the host, then the path's segments joined with `_` (other characters become `-`), so
 * `https://docs.example.com/guide/` is `/websites/docs.example.com_guide`. An llms.txt's own
 * file name is dropped (`/llms.txt`, `/llms-full.txt`). Ports other than the default are
 * kept (`example.com-8080`).
 *
 * Request headers (a cookie or token for a site behind a login) are secrets: stored
 * encrypted in the job and the library's latest job, never in params, logs or answers.
 *
 * Adding a library that exists builds it again with its stored settings; asking for other
 * ones is a 409 (they change through PATCH /v2/libraries/{id}; source-settings.ts).
 */
import { z } from 'zod';
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { assertCanAddPrivateRepo } from '../auth/authorize';
import { encryptSecret } from '../auth/crypto';
import { ValidationError } from '../errors';
import { requirePolicyAllows } from './access';
import { DEFAULT_TRUST_SCORES } from '../indexing/snippets/quality';
import type { LlmsTxtJobParams, WebsiteJobParams } from '../domain/job-params';
import { awaitJob, type AddResult } from './add-repo';
import { changedWebSettings, refuseSettingsChange } from './source-settings';

export const MAX_CRAWL_PAGES = 5000;
export const MAX_CRAWL_DEPTH = 20;

/**
 * An http(s) URL with a host and no credentials, as a pattern the API document carries too
 * (so a request the document allows is not refused for its shape); the URL parser has the
 * last word.
 */
export const HTTP_URL_PATTERN =
  /^[Hh][Tt][Tt][Pp][Ss]?:\/\/([A-Za-z0-9._~\u00A0-\uFFFF-]+|\[[0-9A-Fa-f:.]+\])(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?([/?#]\S*)?$/;

const httpUrl = (field: string) =>
  z
    .string({ required_error: `${field} is required`, invalid_type_error: `${field} must be a string` })
    .min(1, `${field} is required`)
    .max(2000, `${field} is too long (at most 2000 characters)`)
    .url(`${field} must be an http(s) URL without credentials`)
    .regex(HTTP_URL_PATTERN, `${field} must be an http(s) URL without credentials`)
    .refine((raw) => {
      try {
        const u = new URL(raw);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.username && !u.password;
      } catch {
        return false;
      }
    }, `${field} must be an http(s) URL without credentials`);

const patterns = (field: string) =>
  z
    .array(
      z
        .string({ invalid_type_error: `${field} must be a list of strings` })
        .min(1, `${field} entries must not be empty`)
        .max(500, `${field} entries are at most 500 characters`),
      { invalid_type_error: `${field} must be a list of strings` },
    )
    .max(100, `${field} has at most 100 entries`)
    .optional();

/** A header name (RFC 9110 token) a caller may set; hop-by-hop and framing headers are ours. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** A header value as RFC 9110 and undici take it: tab, visible ASCII, obs-text (0x80–0xFF). */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
export const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
]);

export const addWebsiteBody = z.object({
  url: httpUrl('url'),
  scope: z.enum(['page', 'subpages', 'hostname'], { errorMap: () => ({ message: 'scope must be one of: page, subpages, hostname' }) }).optional(),
  maxPages: z
    .number({ invalid_type_error: 'maxPages must be a number' })
    .int('maxPages must be a whole number')
    .min(1, 'maxPages must be at least 1')
    .max(MAX_CRAWL_PAGES, `maxPages must be at most ${MAX_CRAWL_PAGES}`)
    .optional(),
  maxDepth: z
    .number({ invalid_type_error: 'maxDepth must be a number' })
    .int('maxDepth must be a whole number')
    .min(0, 'maxDepth must be at least 0')
    .max(MAX_CRAWL_DEPTH, `maxDepth must be at most ${MAX_CRAWL_DEPTH}`)
    .optional(),
  include: patterns('include'),
  exclude: patterns('exclude'),
  headers: z
    .record(
      z
        .string({ invalid_type_error: 'headers values must be strings' })
        .max(8192, 'a header value is at most 8192 characters')
        // What HTTP allows in a field value (undici refuses the rest, which failed the crawl instead of the request).
        .regex(HEADER_VALUE, 'header values are tabs, visible ASCII and Latin-1 characters (no line breaks or other control characters)'),
      { invalid_type_error: 'headers must be an object of name: value' },
    )
    .refine((h) => Object.keys(h).length <= 20, 'headers has at most 20 entries')
    .refine((h) => Object.keys(h).every((k) => HEADER_NAME.test(k)), 'headers names must be HTTP header names')
    .refine((h) => Object.keys(h).every((k) => !RESERVED_HEADERS.has(k.toLowerCase())), `headers cannot set ${[...RESERVED_HEADERS].join(', ')}`)
    .optional(),
  private: z.boolean({ invalid_type_error: 'private must be a boolean' }).optional(),
});
export type AddWebsiteBody = z.infer<typeof addWebsiteBody>;

export const addLlmsTxtBody = z.object({
  url: httpUrl('url'),
  private: z.boolean({ invalid_type_error: 'private must be a boolean' }).optional(),
});
export type AddLlmsTxtBody = z.infer<typeof addLlmsTxtBody>;

/** The library id of a site (`/websites/…`) or llms.txt (`/llmstxt/…`); see the module comment. */
export function webLibraryId(kind: 'websites' | 'llmstxt', raw: string): string {
  const url = new URL(raw);
  const host =
    url.hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/[^a-z0-9.-]+/g, '-') + (url.port ? `-${url.port}` : '');
  let segments = url.pathname.split('/').filter((s) => s !== '');
  if (kind === 'llmstxt' && /^llms(-full)?\.txt$/i.test(segments[segments.length - 1] ?? '')) segments = segments.slice(0, -1);
  if (kind === 'websites' && /^index\.html?$/i.test(segments[segments.length - 1] ?? '')) segments = segments.slice(0, -1);
  const slug = [host, ...segments.map((s) => safeSegment(s))].filter((s) => s !== '').join('_');
  const id = slug
    .replace(/^[-.]+/, '')
    .slice(0, 100)
    .replace(/[-_.]+$/, '');
  if (!id) throw new ValidationError('url: no library id can be made from this URL.', 'url');
  return `/${kind}/${id}`;
}

function safeSegment(s: string): string {
  let decoded = s;
  try {
    decoded = decodeURIComponent(s);
  } catch {
    // kept as sent
  }
  return decoded
    .replace(/\.(html?|md)$/i, '')
    .replace(/[^A-Za-z0-9.-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** What `addWebsite` reaches (ports.ts). */
export type AddWebsitePorts = Pick<Ports, 'config' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'pokeWorker' | 'policies' | 'snippets' | 'teams'>;

export async function addWebsite(
  services: AddWebsitePorts,
  principal: Principal,
  input: AddWebsiteBody,
  options: { waitMs?: number } = {},
): Promise<AddResult> {
  const params: WebsiteJobParams = {
    source: 'website',
    url: input.url,
    scope: input.scope ?? 'subpages',
    maxPages: input.maxPages ?? 200,
    maxDepth: input.maxDepth ?? 5,
    include: input.include ?? [],
    exclude: input.exclude ?? [],
  };
  const headers = input.headers && Object.keys(input.headers).length > 0 ? encryptSecret(JSON.stringify(input.headers), services.config.secret) : null;
  const { private: _private, ...asked } = input;
  return addWeb(services, principal, webLibraryId('websites', input.url), params, {
    isPrivate: input.private === true,
    headers,
    asked,
    waitMs: options.waitMs,
  });
}

export async function addLlmsTxt(
  services: AddWebsitePorts,
  principal: Principal,
  input: AddLlmsTxtBody,
  options: { waitMs?: number } = {},
): Promise<AddResult> {
  const params: LlmsTxtJobParams = { source: 'llmstxt', url: input.url };
  return addWeb(services, principal, webLibraryId('llmstxt', input.url), params, {
    isPrivate: input.private === true,
    headers: null,
    asked: { url: input.url },
    waitMs: options.waitMs,
  });
}

async function addWeb(
  services: AddWebsitePorts,
  principal: Principal,
  libraryId: string,
  params: WebsiteJobParams | LlmsTxtJobParams,
  options: { isPrivate: boolean; headers: string | null; asked: Parameters<typeof changedWebSettings>[1]; waitMs?: number },
): Promise<AddResult> {
  const source = params.source;
  const teamId = principal.kind === 'user' ? principal.defaultTeamId : null;
  await requirePolicyAllows(services, principal, { id: libraryId, source, trustScore: DEFAULT_TRUST_SCORES[source] });
  if (options.isPrivate) {
    const team = teamId ? await services.teams.get(teamId) : null;
    assertCanAddPrivateRepo(principal, team);
  }
  const scope = options.isPrivate ? teamId : null;
  const existing = await services.libraries.findCopy(libraryId, scope, { fresh: true });
  if (existing && existing.source !== source) throw new ValidationError(`${libraryId} already exists as a ${existing.source} library.`, 'url');
  // An existing library is built with its stored settings; other settings are PATCH's (source-settings.ts).
  const stored = existing?.sourceParams?.source === source ? (existing.sourceParams as WebsiteJobParams | LlmsTxtJobParams) : undefined;
  if (existing && stored) refuseSettingsChange(existing, changedWebSettings(stored, options.asked));
  const key = existing?._id ?? (await services.libraries.keyForNewCopy(libraryId, scope));
  await services.libraries.ensure({
    _id: key,
    source,
    title: new URL(params.url).hostname,
    description: '',
    repoUrl: params.url,
    cloneUrl: '',
    branch: '',
    private: options.isPrivate,
    teamId: scope,
    trustScore: DEFAULT_TRUST_SCORES[source],
    options: { skipVersionFiltering: false, generateDocs: false },
    sourceParams: params,
  });
  const built = stored ?? params;
  const job = await services.jobs.enqueue({
    ...(built.source === 'website' ? { kind: 'add-website' as const, params: built } : { kind: 'add-llmstxt' as const, params: built }),
    libraryId: key,
    version: 'latest',
    encryptedHeaders: stored ? await services.jobs.lastHeaders(key) : options.headers,
    teamId: scope,
    createdBy: principal.kind === 'user' ? principal.userId : null,
  });
  services.pokeWorker();
  await awaitJob(services, job, options.waitMs ?? services.config.addWaitSeconds * 1000, !existing);
  return { libraryName: libraryId, message: `${libraryId} was indexed and is ready to query.`, jobId: job._id };
}
