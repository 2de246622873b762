/**
 * The exit codes of the `shelfmark` command (docs/CLI.md). Scripts can rely on them: they
 * follow the HTTP answer's class, not its wording.
 */
export const EXIT = {
  ok: 0,
  /** The server failed (5xx), could not be reached, or something unexpected happened. */
  failed: 1,
  /** The command line was wrong (unknown command or option, missing argument). */
  usage: 2,
  /** No key, a bad key, or the key's role may not do this (401, 403). */
  auth: 3,
  /** The library, version, job or key does not exist (404). */
  notFound: 4,
  /** The server refused the input (400, 413): a bad URL, file or bundle. */
  invalid: 5,
  /** A conflict (409): a duplicate, a build running, a newer build kept. */
  conflict: 6,
  /** Rate limited (429): wait and try again. */
  rateLimited: 7,
  /** The server's wait ran out (504) or the watched job failed or was cancelled. */
  unfinished: 8,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the command reports on stderr (and as JSON with --json) before exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** The server's error code, when it answered one. */
    readonly code?: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The exit code of an HTTP error status. */
export function exitCodeOf(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 400 || status === 413 || status === 422) return EXIT.invalid;
  if (status === 409) return EXIT.conflict;
  if (status === 429) return EXIT.rateLimited;
  if (status === 504) return EXIT.unfinished;
  return EXIT.failed;
}
