/** Contract pieces several route folders share. */
import { z } from 'zod';
import { query } from '../validate';

/** `/libraries/:owner/:repo…`: the two segments of a library id. */
export const libraryParams = z.object({ owner: z.string().min(1).max(200), repo: z.string().min(1).max(200) });

/** `?teamId=` alone. */
export const teamQuery = z.object({ teamId: query.teamId() });

/** The library id a route addresses, as clients write it. */
export const libraryIdOf = (p: { owner: string; repo: string }): string => `/${p.owner}/${p.repo}`;
