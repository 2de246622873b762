/**
 * Application errors. Each code of the interface spec's error table (§7) is a class with
 * its HTTP status, so handlers throw domain errors and one funnel (error-funnel.ts) turns
 * them into `{ error, message, ...details }`. Messages of 4xx errors are shown to clients;
 * 5xx messages are replaced by a generic text (the cause goes to the log only).
 *
 * `details` is the error's data as fields (a tag_not_found's `availableVersions`, a rate
 * limit's `retryAfter`, a validation error's `field`): HTTP bodies carry them beside `error`
 * and `message`, MCP reads them to say what to do next, job records store them, and
 * `errorFromParts` rebuilds the same error from code, message and details.
 */
/** Every error code the API answers with (the spec's table plus ours for 404/405/409/413/503). */
export const ERROR_CODES = [
  'validation_error',
  'invalid_library_id',
  'invalid_api_key',
  'invalid_signature',
  'access_denied',
  'forbidden',
  'library_not_found',
  'tag_not_found',
  'no_snippets_found',
  'team_not_found',
  'user_not_found',
  'no_libraries_found',
  'not_found',
  'method_not_allowed',
  'duplicate_repo',
  'conflict',
  'payload_too_large',
  'rate_limit_exceeded',
  'internal_error',
  'service_unavailable',
  'timeout',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Structured data an error carries (all optional; which ones depends on the code). */
export interface ErrorDetails {
  /** validation_error, payload_too_large: the request field at fault. */
  field?: string;
  /** tag_not_found: the library, the versions that exist, and the one nearest to the one asked for. */
  libraryId?: string;
  availableVersions?: string[];
  nearest?: string | null;
  /** tag_not_found: the version (or range) asked for. */
  requested?: string;
  /** no_snippets_found: the sections nearest to the question (page > heading), though none is relevant. */
  nearestSections?: string[];
  /** no_libraries_found: library ids with a similar name, and those whose name matches but the team's policy hides. */
  suggestions?: string[];
  hiddenByPolicy?: string[];
  /** rate_limit_exceeded: seconds until a retry can pass. */
  retryAfter?: number;
  /** service_unavailable: the store that did not answer. */
  store?: 'elasticsearch' | 'mongodb';
}

/** Each code's HTTP status (the spec's table, §7). */
export const STATUS_OF_CODE: Record<ErrorCode, number> = {
  validation_error: 400,
  invalid_library_id: 400,
  invalid_api_key: 401,
  invalid_signature: 401,
  access_denied: 403,
  forbidden: 403,
  library_not_found: 404,
  tag_not_found: 404,
  no_snippets_found: 404,
  team_not_found: 404,
  user_not_found: 404,
  no_libraries_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  duplicate_repo: 409,
  conflict: 409,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
  timeout: 504,
};

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Whether `message` may be shown to the client. */
  readonly expose: boolean;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;
  /** The error's data, sent beside `error` and `message` (see ErrorDetails). */
  readonly details: ErrorDetails;

  constructor(status: number, code: ErrorCode, message: string, options?: { cause?: unknown; headers?: Record<string, string>; details?: ErrorDetails }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.expose = status < 500 || status === 503 || status === 504;
    this.headers = options?.headers ?? {};
    this.details = Object.fromEntries(Object.entries(options?.details ?? {}).filter(([, v]) => v !== undefined)) as ErrorDetails;
  }
}

/** The AppError that a code, message and details stand for (an HTTP body, a job record). */
export function errorFromParts(code: ErrorCode, message: string, details: ErrorDetails = {}, headers?: Record<string, string>): AppError {
  return new AppError(STATUS_OF_CODE[code] ?? 500, code, message, { details, headers });
}

/** Whether a string is one of our codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

export class ValidationError extends AppError {
  /** The request field at fault, when one is. */
  readonly field?: string;
  constructor(message: string, field?: string) {
    super(400, 'validation_error', message, { details: { field } });
    this.field = field;
  }
}

export class InvalidLibraryIdError extends AppError {
  constructor(libraryId: string) {
    super(
      400,
      'invalid_library_id',
      `Invalid library ID "${libraryId}". Expected /<owner>/<repo>, /<source>/<id>, optionally followed by /<version> or @<version>.`,
    );
  }
}

export class InvalidApiKeyError extends AppError {
  constructor(message = 'Invalid or missing API key. Send "Authorization: Bearer smk_...".') {
    super(401, 'invalid_api_key', message);
  }
}

/** A webhook delivery whose signature does not verify (or whose library has no hook: the same answer). */
export class InvalidSignatureError extends AppError {
  constructor(message = 'The delivery could not be verified: check the hook URL and its secret.') {
    super(401, 'invalid_signature', message);
  }
}

export class AccessDeniedError extends AppError {
  constructor(libraryId: string) {
    super(403, 'access_denied', `Library ${libraryId} is not among your team's allowed libraries (see GET /v2/policies).`);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}

export class LibraryNotFoundError extends AppError {
  constructor(libraryId: string) {
    super(404, 'library_not_found', `Library ${libraryId} does not exist or you have no access to it.`);
  }
}

export class TagNotFoundError extends AppError {
  constructor(libraryId: string, tag: string, availableTags: string[], nearest: string | null = null, advice = '') {
    const list = availableTags.length > 0 ? availableTags.join(', ') : 'none';
    super(
      404,
      'tag_not_found',
      `Version "${tag}" of ${libraryId} does not exist. Available versions: ${list}.${nearest ? ` Nearest: ${nearest}.` : ''}${advice ? ` ${advice}` : ''}`,
      {
        details: { libraryId, availableVersions: availableTags, nearest, requested: tag },
      },
    );
  }
}

export class NoSnippetsFoundError extends AppError {
  /**
   * Without a question: the library has nothing to search yet. With one: nothing in its docs is
   * relevant to it (`nearestSections` names what came closest), or relevant snippets exist but
   * none fits the token budget (`budget` and the `smallest` one's tokens).
   */
  constructor(libraryId: string, question?: { query: string; nearestSections: readonly string[]; language?: string } | { budget: number; smallest: number }) {
    const nearest = question && 'nearestSections' in question ? question.nearestSections : [];
    let message = `No documentation snippets could be found for ${libraryId} with this query.`;
    if (question && 'language' in question && question.language) {
      message = `No relevant documentation in ${libraryId} has examples in ${question.language}: ask without languageOnly to get the relevant sections in other languages.`;
    } else if (question && 'budget' in question) {
      message = `No relevant snippet of ${libraryId} fits in ${question.budget} tokens (the smallest has ${question.smallest}): raise tokens.`;
    } else if (question) {
      const query = question.query.length > 120 ? `${question.query.slice(0, 117)}...` : question.query;
      message = `No documentation in ${libraryId} is relevant to "${query}".${nearest.length > 0 ? ` The nearest sections are: ${nearest.join('; ')}.` : ''}`;
    }
    super(404, 'no_snippets_found', message, { details: nearest.length > 0 ? { nearestSections: [...nearest] } : {} });
  }
}

export class TeamNotFoundError extends AppError {
  constructor(team: string) {
    super(404, 'team_not_found', `Team ${team} not found or you have no access to it.`);
  }
}

export class UserNotFoundError extends AppError {
  constructor(user: string) {
    super(404, 'user_not_found', `User ${user} not found.`);
  }
}

export class NoLibrariesFoundError extends AppError {
  /** `suggestions`: library ids with a near name, named in the message (never as results). */
  /** `hiddenByPolicy`: libraries whose names match but the caller's team policy hides (said as such). */
  constructor(libraryName: string, suggestions: readonly string[] = [], hiddenByPolicy: readonly string[] = []) {
    const hint = suggestions.length > 0 ? ` Libraries with a similar name: ${suggestions.join(', ')}.` : '';
    const hidden =
      hiddenByPolicy.length > 0
        ? ` Your team's library policy hides ${hiddenByPolicy.length === 1 ? 'the library' : 'the libraries'} with this name: ${hiddenByPolicy.join(', ')}.`
        : '';
    super(404, 'no_libraries_found', `No libraries match "${libraryName}"${hidden ? ' that your team may use' : ''}.${hidden}${hint}`, {
      details: {
        ...(suggestions.length > 0 ? { suggestions: [...suggestions] } : {}),
        ...(hiddenByPolicy.length > 0 ? { hiddenByPolicy: [...hiddenByPolicy] } : {}),
      },
    });
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, 'not_found', message);
  }
}

export class DuplicateRepoError extends AppError {
  constructor(message: string) {
    super(409, 'duplicate_repo', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

/**
 * A request body (or one of its parts) over a size limit: 413 with our own code. The spec's
 * table has no 413 row, but HTTP has the status and clients (and proxies) act on it: a body
 * too large is not fixed by correcting a field, only by sending less.
 */
export class PayloadTooLargeError extends AppError {
  /** The request field at fault, when one is. */
  readonly field?: string;
  constructor(message: string, field?: string) {
    super(413, 'payload_too_large', message, { details: { field } });
    this.field = field;
  }
}

export class RateLimitError extends AppError {
  /** `retryAfter`: seconds until a retry can pass (also the Retry-After header). */
  constructor(message: string, headers: Record<string, string>, retryAfter?: number) {
    const seconds = retryAfter ?? (headers['Retry-After'] !== undefined ? Number(headers['Retry-After']) : undefined);
    super(429, 'rate_limit_exceeded', message, { headers, details: { retryAfter: seconds !== undefined && Number.isFinite(seconds) ? seconds : undefined } });
  }
}

export class InternalError extends AppError {
  constructor(message = 'Internal server error.', cause?: unknown) {
    super(500, 'internal_error', message, { cause });
  }
}

/**
 * A store (Elasticsearch or MongoDB) is unreachable: fail fast with 503 and its own code
 * (the spec's table has none for 503; `internal_error` would hide that retrying helps).
 */
export class StoreUnavailableError extends AppError {
  readonly store: 'elasticsearch' | 'mongodb';
  constructor(store: 'elasticsearch' | 'mongodb', cause?: unknown) {
    super(503, 'service_unavailable', `${store === 'elasticsearch' ? 'Elasticsearch' : 'MongoDB'} is unavailable; try again shortly.`, {
      cause,
      details: { store },
    });
    this.store = store;
  }
}

export class TimeoutError extends AppError {
  constructor(message: string) {
    super(504, 'timeout', message);
  }
}
