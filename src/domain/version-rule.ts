/**
 * A library's version rule: which of its repository's tags are indexed as versions, applied
 * on every check of the library (libraries/version-discovery.ts). Three forms:
 * - `{ kind: "minors", count: N }`: the latest patch of each of the last N minor lines;
 * - `{ kind: "range", range: ">=2 <4" }`: every release tag in a semver range;
 * - `{ kind: "pattern", pattern: "release-*" }`: every tag matching a glob (`*` any run, `?` one).
 * Tags are read as semver leniently (a leading "v" is fine); pre-releases are left out of
 * `minors` and `range` (a release line is what clients ask for).
 */
import semver from 'semver';
import { z } from 'zod';
import { isAddressableVersion } from './library-ids';

export type VersionRule = { kind: 'minors'; count: number } | { kind: 'range'; range: string } | { kind: 'pattern'; pattern: string };

const RULE_FORMS =
  'versionRule must be null, {"kind":"minors","count":1-50}, {"kind":"range","range":"<semver range>"} or {"kind":"pattern","pattern":"<glob>"}';

const ruleSchema = z.union([
  z.object({ kind: z.literal('minors'), count: z.number().int().min(1).max(50) }).strict(),
  z
    .object({ kind: z.literal('range'), range: z.string().min(1).max(200) })
    .strict()
    .refine((r) => semver.validRange(r.range) !== null, 'versionRule.range is not a semver range (e.g. ">=2.0.0 <4")'),
  z.object({ kind: z.literal('pattern'), pattern: z.string().min(1).max(200) }).strict(),
  z.null(),
]);

/** `PATCH /v2/libraries/{id}` `versionRule`; one message that names the field and its forms. */
export const versionRuleInput = z.unknown().transform((value, ctx): VersionRule | null => {
  const r = ruleSchema.safeParse(value);
  if (r.success) return r.data;
  const specific = r.error.issues.map((i) => i.message).find((m) => m.startsWith('versionRule'));
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: specific ?? RULE_FORMS });
  return z.NEVER;
});

/** The release a tag names (`v1.2.3` → 1.2.3), or null for other tags. */
function releaseOf(tag: string): semver.SemVer | null {
  const v = semver.parse(tag.replace(/^v(?=\d)/, ''));
  return v && v.prerelease.length === 0 ? v : null;
}

function globToRegex(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/** The tags the rule selects from `tags` (only names a client can address), newest first. */
export function selectVersions(rule: VersionRule, tags: readonly string[]): string[] {
  const addressable = tags.filter(isAddressableVersion);
  if (rule.kind === 'pattern') {
    const re = globToRegex(rule.pattern);
    return addressable.filter((t) => re.test(t)).sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
  }
  const releases = addressable.map((tag) => ({ tag, v: releaseOf(tag) })).filter((r): r is { tag: string; v: semver.SemVer } => r.v !== null);
  releases.sort((a, b) => semver.rcompare(a.v, b.v) || a.tag.localeCompare(b.tag));
  if (rule.kind === 'range') return releases.filter((r) => semver.satisfies(r.v, rule.range)).map((r) => r.tag);
  const lines = new Map<string, string>();
  for (const r of releases) {
    const line = `${r.v.major}.${r.v.minor}`;
    if (!lines.has(line)) lines.set(line, r.tag); // sorted newest first: the line's latest patch
  }
  return [...lines.values()].slice(0, rule.count);
}

/**
 * Whether one newly pushed tag is selected by the rule on its own (range and pattern rules);
 * a minors rule depends on every tag, so it is decided by a full check.
 */
export function tagMatches(rule: VersionRule, tag: string): boolean | 'check' {
  if (rule.kind === 'minors') return 'check';
  return selectVersions(rule, [tag]).length === 1;
}

/** The indexed version closest to `requested` (same release line first, else by name), or null. */
export function nearestVersion(requested: string, available: readonly string[]): string | null {
  if (available.length === 0) return null;
  const want = semver.coerce(requested);
  if (want) {
    const scored = available
      .map((name) => ({ name, v: semver.coerce(name) }))
      .filter((c): c is { name: string; v: semver.SemVer } => c.v !== null)
      .map((c) => ({ name: c.name, d: Math.abs(c.v.major - want.major) * 1e6 + Math.abs(c.v.minor - want.minor) * 1e3 + Math.abs(c.v.patch - want.patch) }));
    scored.sort((a, b) => a.d - b.d);
    if (scored.length > 0) return scored[0].name;
  }
  return [...available].sort((a, b) => commonPrefix(b, requested) - commonPrefix(a, requested))[0];
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The newest release among tags (semver, pre-releases left out), as the tag is spelled; null when none is a release. */
export function newestRelease(tags: readonly string[]): string | null {
  let best: { tag: string; v: semver.SemVer } | null = null;
  for (const tag of tags) {
    const v = releaseOf(tag);
    if (v && (!best || semver.gt(v, best.v))) best = { tag, v };
  }
  return best?.tag ?? null;
}
