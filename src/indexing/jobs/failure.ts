import type { ErrorCode } from '../../errors';

/**
 * A job failure that maps to an API error when a caller is waiting for the job (bad token,
 * missing repository, no docs). Other failures are internal errors.
 */
export class JobFailure extends Error {
  constructor(
    readonly code: Extract<ErrorCode, 'validation_error' | 'library_not_found' | 'no_snippets_found' | 'tag_not_found' | 'internal_error'>,
    message: string,
  ) {
    super(message);
  }
}
