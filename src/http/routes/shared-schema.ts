/** Contract pieces several route folders share. */
import { z } from 'zod';
import type { ZodOpenAPIMetadata } from '@asteasolutions/zod-to-openapi';
import { HEADER_VALUE, RESERVED_HEADERS } from '../../catalog/add-web';
import { query } from '../validate';

/**
 * The shapes parseLibraryId accepts (domain/library-ids.ts), as patterns for the API document, so
 * generated clients (and fuzzers) send ids the server can read; the server still checks them
 * itself and answers invalid_library_id.
 */
export const SEGMENT_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$';
export const VERSION_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,99}$';
export const LIBRARY_ID_PATTERN = '^/[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}/[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}([/@][A-Za-z0-9_][A-Za-z0-9_.+-]{0,99})?$';

/** `/libraries/:owner/:repo…`: the two segments of a library id. */
export const libraryParams = z.object({
  owner: z.string().min(1).max(200).openapi({ pattern: SEGMENT_PATTERN }),
  repo: z.string().min(1).max(200).openapi({ pattern: SEGMENT_PATTERN }),
});

/** `?teamId=` alone. */
export const teamQuery = z.object({ teamId: query.teamId() });

/** The library id a route addresses, as clients write it. */
export const libraryIdOf = (p: { owner: string; repo: string }): string => `/${p.owner}/${p.repo}`;

/** A header name a caller may set, as the document says it: an RFC 9110 token, none of ours (add-web.ts). */
const HEADER_NAME_PATTERN = `^(?!(${[...RESERVED_HEADERS].map((h) => [...h].map((c) => (/[a-z]/.test(c) ? `[${c.toUpperCase()}${c}]` : c)).join('')).join('|')})$)[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,100}$`;
// `propertyNames` is JSON Schema 2020-12 (OpenAPI 3.1); openapi3-ts's metadata type lacks it.
export const HEADER_NAMES = {
  propertyNames: { pattern: HEADER_NAME_PATTERN },
  maxProperties: 20,
  additionalProperties: { type: 'string', maxLength: 8192, pattern: HEADER_VALUE.source },
} as Partial<ZodOpenAPIMetadata>;
