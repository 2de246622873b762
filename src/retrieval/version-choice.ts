/**
 * Which indexed version answers a request, and why. A version is never substituted silently:
 * an exact version (from the library id, `/o/r/3.2.0` or `@3.2.0`, or from `version`) is
 * served as it is or refused with 404 `tag_not_found` listing the indexed ones; another
 * version is served only when the caller asks for one — a semver range (`^4`, `~8.2`,
 * `>=2 <3`, `4.x`: the newest indexed version in it) or `closest` (`closest:2.15.0`, or
 * `closest` beside a version in the id: the indexed version nearest to it, same release line
 * first) — and then the answer says which version it served and why (`reason`). Pure.
 */
import semver from 'semver';
import { TagNotFoundError, ValidationError } from '../errors';
import { clientLibraryId, resolveVersion, versionNames } from '../store/libraries';
import type { LibraryRecord, LibraryVersionRecord } from '../store/models/library';
import { nearestVersion } from '../domain/version-rule';

/** How the served version was chosen (`pinned`: the version a project's lockfile pins, projects/project-version.ts). */
export type VersionResolution = 'default' | 'exact' | 'range' | 'closest' | 'pinned';

export interface VersionChoice {
  record: LibraryVersionRecord;
  /** What the caller asked for (`null`: nothing, the default version). */
  requested: string | null;
  resolution: VersionResolution;
  /** The version served, as a client names it: its tag (a branch version's first tag), else its name. */
  served: string;
  /** Why this version, in a sentence (for range and closest; empty otherwise). */
  reason: string;
}

/** What a `version` value asks for. */
export type VersionAsk =
  | { kind: 'default' }
  | { kind: 'exact'; version: string }
  | { kind: 'range'; range: string }
  | { kind: 'closest'; target: string | undefined };

const RANGE_SYNTAX = /[\^~*<>=|]|\.x\b|\bx\b|\s-\s/i;

/** Reads a `version` value: `latest`, an exact version, a semver range, or `closest[:<version>]`. */
export function parseVersionAsk(raw: string | undefined): VersionAsk {
  const text = raw?.trim() ?? '';
  if (text === '' || text.toLowerCase() === 'latest') return { kind: 'default' };
  const closest = /^closest(?::\s*(.+))?$/i.exec(text);
  if (closest) return { kind: 'closest', target: closest[1]?.trim() || undefined };
  if (text.length > 100) throw new ValidationError('version is too long (at most 100 characters).', 'version');
  if (RANGE_SYNTAX.test(text)) {
    const range = semver.validRange(text.replace(/\bv(?=\d)/g, ''));
    if (range === null)
      throw new ValidationError(`version "${text}" is neither a version nor a semver range (e.g. "3.2.0", "^3", "~8.2", "closest:2.15").`, 'version');
    return { kind: 'range', range: text };
  }
  if (!/^[A-Za-z0-9_.][A-Za-z0-9_.+-]*$/.test(text))
    throw new ValidationError(`version "${text}" is not a version name (letters, digits and . _ + -), a semver range or closest.`, 'version');
  return { kind: 'exact', version: text };
}

/** The release a version name stands for (`v3.2.0` → 3.2.0), or null. */
function releaseOf(name: string): semver.SemVer | null {
  return semver.parse(name.replace(/^v(?=\d)/, ''));
}

/** The name a client addresses a version record by: its own, or (a branch) the first tag on its commit. */
export function servedName(record: Pick<LibraryVersionRecord, 'version' | 'tags'>): string {
  return record.version === 'latest' ? (record.tags?.[0] ?? 'latest') : record.version;
}

function byName(lib: Pick<LibraryRecord, 'versions'>, name: string): LibraryVersionRecord | undefined {
  return lib.versions.find((v) => v.generation > 0 && (v.version === name || (v.tags ?? []).includes(name)));
}

/**
 * The version record that serves a request: `fromId` is the version the library id names,
 * `ask` the `version` input. Both naming different versions is a 400; an unknown exact version
 * a 404 `tag_not_found`; a range nothing indexed satisfies too.
 */
export function chooseVersion(lib: Pick<LibraryRecord, '_id' | 'versions'>, fromId: string | undefined, rawAsk: string | undefined): VersionChoice | undefined {
  let ask = parseVersionAsk(rawAsk);
  if (fromId !== undefined) {
    if (ask.kind === 'closest' && ask.target === undefined) ask = { kind: 'closest', target: fromId };
    else if (ask.kind === 'default' && rawAsk === undefined) ask = { kind: 'exact', version: fromId };
    else if (!(ask.kind === 'exact' && ask.version.replace(/^v/, '') === fromId.replace(/^v/, ''))) {
      throw new ValidationError(
        `The library id names version "${fromId}" and version is "${rawAsk}": name the version once (in the id or in version).`,
        'version',
      );
    }
  }
  const available = versionNames({ versions: lib.versions.filter((v) => v.generation > 0) });
  const id = clientLibraryId(lib._id);
  if (ask.kind === 'default') {
    const record = resolveVersion(lib, undefined);
    return record && { record, requested: rawAsk?.trim() ? rawAsk.trim() : null, resolution: 'default', served: servedName(record), reason: '' };
  }
  if (ask.kind === 'exact') {
    const record = resolveVersion(lib, ask.version);
    return record && { record, requested: ask.version, resolution: 'exact', served: servedName(record), reason: '' };
  }
  if (ask.kind === 'range') {
    const range = ask.range.replace(/\bv(?=\d)/g, '');
    const matching = available
      .map((name) => ({ name, v: releaseOf(name) }))
      .filter((c): c is { name: string; v: semver.SemVer } => c.v !== null && semver.satisfies(c.v, range))
      .sort((a, b) => semver.rcompare(a.v, b.v));
    const best = matching[0];
    const record = best && byName(lib, best.name);
    if (!best || !record) throw new TagNotFoundError(id, ask.range, available, null);
    return {
      record,
      requested: ask.range,
      resolution: 'range',
      served: best.name,
      reason: `${best.name} is the newest indexed version in the range "${ask.range}".`,
    };
  }
  if (ask.target === undefined)
    throw new ValidationError('version "closest" needs a version to be close to: "closest:2.15.0", or a version in the library id.', 'version');
  const exact = byName(lib, ask.target) ?? tryResolve(lib, ask.target);
  if (exact) return { record: exact, requested: `closest:${ask.target}`, resolution: 'exact', served: servedName(exact), reason: '' };
  const nearest = nearestVersion(ask.target, available);
  const record = nearest === null ? undefined : byName(lib, nearest);
  if (!nearest || !record) throw new TagNotFoundError(id, ask.target, available, null);
  return {
    record,
    requested: `closest:${ask.target}`,
    resolution: 'closest',
    served: nearest,
    reason: `${ask.target} is not indexed; ${nearest} is the closest indexed version${sameLine(ask.target, nearest) ? ' (same release line)' : ''}.`,
  };
}

function tryResolve(lib: Pick<LibraryRecord, '_id' | 'versions'>, name: string): LibraryVersionRecord | undefined {
  try {
    return resolveVersion(lib, name);
  } catch {
    return undefined;
  }
}

function sameLine(a: string, b: string): boolean {
  const x = semver.coerce(a);
  const y = semver.coerce(b);
  return x !== null && y !== null && x.major === y.major;
}
