/**
 * The error family of OpenAPI ingestion. The reason is a stable code the HTTP layer can map
 * to a status; the message tells the uploader what to change.
 */

export type OpenApiErrorReason = 'too_large' | 'not_utf8' | 'syntax' | 'bomb' | 'too_deep' | 'not_openapi' | 'invalid' | 'external_ref';

/** A refused OpenAPI upload. `details` lists the individual problems, when there are several. */
export class OpenApiError extends Error {
  override readonly name = 'OpenApiError';

  constructor(
    readonly reason: OpenApiErrorReason,
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}
