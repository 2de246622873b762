/** Contract pieces several route folders share. */
import { z } from 'zod';
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
export const libraryParams = z.object({ owner: z.string().min(1).max(200).openapi({ pattern: SEGMENT_PATTERN }), repo: z.string().min(1).max(200).openapi({ pattern: SEGMENT_PATTERN }) });

/** `?teamId=` alone. */
export const teamQuery = z.object({ teamId: query.teamId() });

/** The library id a route addresses, as clients write it. */
export const libraryIdOf = (p: { owner: string; repo: string }): string => `/${p.owner}/${p.repo}`;
