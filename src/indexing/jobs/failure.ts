import type { ErrorCode, ErrorDetails } from '../../errors';

/**
 * A job failure that maps to an API error when a caller is waiting for the job (bad token,
 * missing repository, no docs). Other failures are internal errors. Its code and details are
 * stored in the job record as data (`errorCode`, `errorDetails`), so the waiting caller gets
 * the same error back (errorFromParts), available versions included.
 */
export class JobFailure extends Error {
  constructor(
    readonly code: Extract<
      ErrorCode,
      'validation_error' | 'library_not_found' | 'no_snippets_found' | 'tag_not_found' | 'payload_too_large' | 'internal_error'
    >,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}
