/**
 * Application errors. Each code of the interface spec's error table (§7) is a class with
 * its HTTP status, so handlers throw domain errors and one funnel (http/middlewares/errors)
 * turns them into `{ error, message }`. Messages of 4xx errors are shown to clients;
 * 5xx messages are replaced by a generic text (details go to the log only).
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

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Whether `message` may be shown to the client. */
  readonly expose: boolean;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, options?: { cause?: unknown; headers?: Record<string, string> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.expose = status < 500 || status === 503 || status === 504;
    this.headers = options?.headers ?? {};
  }
}

export class ValidationError extends AppError {
  /** The request field at fault, when one is. */
  readonly field?: string;
  constructor(message: string, field?: string) {
    super(400, 'validation_error', message);
    this.field = field;
  }
}

export class InvalidLibraryIdError extends AppError {
  constructor(libraryId: string) {
    super(400, 'invalid_library_id', `Invalid library ID "${libraryId}". Expected /<owner>/<repo>, /<source>/<id>, optionally followed by /<version> or @<version>.`);
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
  readonly availableTags: string[];
  constructor(libraryId: string, tag: string, availableTags: string[], nearest: string | null = null) {
    const list = availableTags.length > 0 ? availableTags.join(', ') : 'none';
    super(404, 'tag_not_found', `Version "${tag}" of ${libraryId} does not exist. Available versions: ${list}.${nearest ? ` Nearest: ${nearest}.` : ''}`);
    this.availableTags = availableTags;
  }
}

export class NoSnippetsFoundError extends AppError {
  constructor(libraryId: string) {
    super(404, 'no_snippets_found', `No documentation snippets could be found for ${libraryId} with this query.`);
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
  constructor(libraryName: string, suggestions: readonly string[] = []) {
    const hint = suggestions.length > 0 ? ` Libraries with a similar name: ${suggestions.join(', ')}.` : '';
    super(404, 'no_libraries_found', `No libraries match "${libraryName}".${hint}`);
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
    super(413, 'payload_too_large', message);
    this.field = field;
  }
}

export class RateLimitError extends AppError {
  constructor(message: string, headers: Record<string, string>) {
    super(429, 'rate_limit_exceeded', message, { headers });
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
    super(503, 'service_unavailable', `${store === 'elasticsearch' ? 'Elasticsearch' : 'MongoDB'} is unavailable; try again shortly.`, { cause });
    this.store = store;
  }
}

export class TimeoutError extends AppError {
  constructor(message: string) {
    super(504, 'timeout', message);
  }
}
