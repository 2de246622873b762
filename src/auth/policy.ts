/**
 * Team library policies in the Context7 shape, and the pure rule deciding whether a
 * library is allowed. Modes:
 * - `quality`: everything is allowed except blocked libraries; libraries below
 *   `minTrustScore`, or from a source not in `sourceTypes` (when non-empty), are hidden
 *   unless excepted.
 * - `select`: only `allowedLibraries` (and `exceptedLibraries`) are allowed.
 * A blocked library is refused in both modes, even when also listed elsewhere.
 */
import { z } from 'zod';
import { parseLibraryId } from '../domain/library-ids';
import type { LibraryFilters } from '../store/models/policy';

export const POLICY_SOURCE_TYPES = ['github', 'gitlab', 'bitbucket', 'git', 'openapi', 'website', 'llmstxt', 'archive'] as const;
export type PolicySourceType = (typeof POLICY_SOURCE_TYPES)[number];

export type { LibraryFilters } from '../store/models/policy';

export interface LibraryPolicy {
  libraryFilters: LibraryFilters;
}

export interface PolicyLibrary {
  id: string;
  source: string;
  trustScore: number;
}

export function defaultPolicy(): LibraryPolicy {
  return {
    libraryFilters: { mode: 'quality', blockedLibraries: [], exceptedLibraries: [], minTrustScore: null, allowedLibraries: [], sourceTypes: [] },
  };
}

/** True when the policy restricts nothing beyond the default. */
export function isDefaultPolicy(policy: LibraryPolicy): boolean {
  const f = policy.libraryFilters;
  return (
    f.mode === 'quality' &&
    f.blockedLibraries.length === 0 &&
    f.exceptedLibraries.length === 0 &&
    f.minTrustScore === null &&
    f.allowedLibraries.length === 0 &&
    f.sourceTypes.length === 0
  );
}

const norm = (id: string) => id.trim().replace(/\/+$/, '').toLowerCase();
const listed = (list: readonly string[], id: string) => list.some((x) => norm(x) === id);

/** Whether `policy` allows `library`. Library ids compare case-insensitively. */
export function libraryAllowedByPolicy(policy: LibraryPolicy, library: PolicyLibrary): boolean {
  const f = policy.libraryFilters;
  const id = norm(library.id);
  if (listed(f.blockedLibraries, id)) return false;
  const excepted = listed(f.exceptedLibraries, id);
  if (f.mode === 'select') return excepted || listed(f.allowedLibraries, id);
  if (excepted) return true;
  if (f.minTrustScore !== null && library.trustScore < f.minTrustScore) return false;
  if (f.sourceTypes.length > 0 && !f.sourceTypes.includes(library.source)) return false;
  return true;
}

/**
 * A policy names whole libraries: exactly what `parseLibraryId` reads as an id without a
 * version (`/owner/repo`), so an entry can never be a string no library could match. The
 * message names the bad value, since a list holds many.
 */
const libraryIdSchema = z
  .string()
  .trim()
  .max(300)
  .superRefine((value, ctx) => {
    const problem = libraryIdProblem(value);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${value.slice(0, 100)}" ${problem}` });
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** Why `value` is not a policy's library id, or undefined when it is one. */
export function libraryIdProblem(value: string): string | undefined {
  let parsed;
  try {
    parsed = parseLibraryId(value);
  } catch {
    return 'is not a library id (like /owner/repo)';
  }
  if (parsed.version !== undefined || value.replace(/\/+$/, '') !== parsed.libraryId)
    return `names a version; a policy lists whole libraries (${parsed.libraryId})`;
  return undefined;
}
const libraryList = z
  .array(libraryIdSchema)
  .max(10_000)
  .transform((ids) => [...new Set(ids)]);

/** The body of `PATCH /v2/policies`: any subset of `libraryFilters`, nothing else. */
export const policyPatchSchema = z
  .object({
    libraryFilters: z
      .object({
        mode: z.enum(['quality', 'select']),
        blockedLibraries: libraryList,
        exceptedLibraries: libraryList,
        minTrustScore: z.number().min(0).max(10).nullable(),
        allowedLibraries: libraryList,
        sourceTypes: z
          .array(z.enum(POLICY_SOURCE_TYPES))
          .max(POLICY_SOURCE_TYPES.length)
          .transform((s) => [...new Set(s)]),
      })
      .partial()
      .strict(),
  })
  .strict();

export type PolicyPatch = z.infer<typeof policyPatchSchema>;

/** Applies a validated patch to a policy. */
export function applyPolicyPatch(policy: LibraryPolicy, patch: PolicyPatch): LibraryPolicy {
  return { libraryFilters: { ...policy.libraryFilters, ...patch.libraryFilters } };
}
