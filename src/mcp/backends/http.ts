/**
 * The backend of the stdio transport: a client of a Shelfmark server's HTTP API
 * (`GET /v2/libs/search`, `GET /v2/context?type=txt`) with the user's key as a bearer
 * token. Error bodies `{ error, message }` become AppErrors with the same codes, so the
 * tools give the same guidance as on the server's own `/mcp`.
 */
import { AppError, isErrorCode, type ErrorCode, type ErrorDetails } from '../../errors';
import type { LibrarySummary } from '../../search/types';
import type { LibrarySearchResultJson } from '../../search/format/libraries';
import type { DocsBackend, LibrarySearchAnswer } from '../backend';

export interface HttpBackendOptions {
  /** The server's base URL, e.g. http://localhost:3000 (a trailing /api also works). */
  apiUrl: string;
  apiKey?: string;
  /** Per-request timeout. */
  timeoutMs?: number;
  userAgent?: string;
  /** The session's project (`--project`): calls that name none answer at its pinned versions. */
  projectId?: string;
}

/** The AppError a Shelfmark error response stands for. */
export function errorFromResponse(status: number, body: string, headers: Headers): AppError {
  let parsed: ({ error?: unknown; message?: unknown } & ErrorDetails) | undefined;
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  const code = isErrorCode(parsed?.error) ? parsed.error : fallbackCode(status);
  const message = typeof parsed?.message === 'string' ? parsed.message : `The Shelfmark server answered HTTP ${status}.`;
  const retryAfter = headers.get('retry-after');
  // The body's fields beside `error` and `message` are the error's details (errors.ts).
  const { error: _code, message: _message, ...details } = parsed && typeof parsed === 'object' ? parsed : {};
  return new AppError(status, code, message, { headers: retryAfter ? { 'Retry-After': retryAfter } : undefined, details });
}

function fallbackCode(status: number): ErrorCode {
  if (status === 429) return 'rate_limit_exceeded';
  if (status === 401) return 'invalid_api_key';
  if (status === 404) return 'not_found';
  if (status === 503) return 'service_unavailable';
  return status >= 500 ? 'internal_error' : 'validation_error';
}

/** A `results[]` entry of the search API back into the summary the formatter reads. */
export function summaryFromJson(json: LibrarySearchResultJson): LibrarySummary {
  return {
    id: json.id,
    title: json.title,
    description: json.description ?? '',
    branch: json.branch ?? '',
    lastUpdateDate: new Date(json.lastUpdateDate),
    state: json.state ?? '',
    totalTokens: json.totalTokens ?? 0,
    totalSnippets: json.totalSnippets ?? -1,
    stars: typeof json.stars === 'number' && json.stars >= 0 ? json.stars : undefined,
    trustScore: typeof json.trustScore === 'number' && json.trustScore >= 0 ? json.trustScore : undefined,
    benchmarkScore: json.benchmarkScore ?? 0,
    versions: Array.isArray(json.versions) ? json.versions : [],
    ...(typeof json.latestIndexed === 'string'
      ? { latestIndexed: json.latestIndexed, sourceLatest: typeof json.sourceLatest === 'string' ? json.sourceLatest : null }
      : {}),
    ...(typeof json.pinnedVersion === 'string' ? { pinnedVersion: json.pinnedVersion } : {}),
    ...(typeof json.redirectedFrom === 'string' ? { redirectedFrom: json.redirectedFrom } : {}),
  };
}

export function httpBackend(config: HttpBackendOptions): DocsBackend {
  const base = config.apiUrl.replace(/\/+$/, '');
  // The channel header makes the server count these calls as MCP usage, not txt.
  const headers: Record<string, string> = { 'User-Agent': config.userAgent ?? 'shelfmark-mcp-stdio', 'X-Shelfmark-Channel': 'mcp' };
  if (config.apiKey) headers.Authorization = `Bearer ${config.apiKey}`;
  const timeoutMs = config.timeoutMs ?? 60_000;

  async function get(path: string, params: Record<string, string | number | undefined>, accept: string): Promise<string> {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(url, { headers: { ...headers, Accept: accept }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      // 503: exposed and temporary — the model is told to try again, the user to check the URL.
      throw new AppError(
        503,
        'service_unavailable',
        `Could not reach the Shelfmark server at ${base} (${reason}). Check that it is running and that --api-url is right.`,
        { cause: error },
      );
    }
    const body = await res.text();
    if (!res.ok) throw errorFromResponse(res.status, body, res.headers);
    return body;
  }

  return {
    async searchLibraries(input): Promise<LibrarySearchAnswer> {
      const body = await get('/v2/libs/search', { libraryName: input.libraryName, query: input.query, projectId: config.projectId }, 'application/json');
      const json = JSON.parse(body) as { results?: LibrarySearchResultJson[]; searchFilterApplied?: boolean };
      return { libraries: (json.results ?? []).map(summaryFromJson), searchFilterApplied: json.searchFilterApplied === true };
    },
    queryDocs(input) {
      // An overview is what the v1 route answers without a topic.
      const options = {
        version: input.version,
        language: input.language,
        languageOnly: input.languageOnly ? 'true' : undefined,
        projectId: input.projectId ?? config.projectId,
      };
      if (input.overview) return get(`/api/v1${v1Path(input.libraryId)}`, { tokens: input.tokens, type: 'txt', ...options }, 'text/plain');
      return get('/v2/context', { libraryId: input.libraryId, query: input.query, tokens: input.tokens, type: 'txt', ...options }, 'text/plain');
    },
    searchAcross(input) {
      const libraries = input.libraries.length > 0 ? input.libraries.join(',') : undefined;
      return get(
        '/v2/search',
        { query: input.query, libraries, scope: input.scope, tokens: input.tokens, language: input.language, type: 'txt' },
        'text/plain',
      );
    },
    upgradeGuide(input) {
      return get(
        '/v2/upgrade-guide',
        { libraryId: input.libraryId, from: input.from, to: input.to, page: input.page, tokens: input.tokens, type: 'txt' },
        'text/plain',
      );
    },
    queryCode(input) {
      const flag = (v: boolean | undefined) => (v === undefined ? undefined : String(v));
      return get(
        '/v2/code',
        {
          libraryId: input.libraryId,
          operation: input.operation,
          query: input.query,
          regex: flag(input.regex),
          caseSensitive: flag(input.caseSensitive),
          path: input.path,
          startLine: input.startLine,
          endLine: input.endLine,
          limit: input.limit,
          version: input.version,
          type: 'txt',
        },
        'text/plain',
      );
    },
  };
}

/** `/owner/repo[/version]` of the v1 route from a library id (`@version` becomes `/version`). */
function v1Path(libraryId: string): string {
  return libraryId
    .replace('@', '/')
    .split('/')
    .filter(Boolean)
    .map(encodeURIComponent)
    .reduce((path, part) => `${path}/${part}`, '');
}
