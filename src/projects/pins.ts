/**
 * Which version a project pins for a library (pure): among its packages mapped to the library
 * (a monorepo's: regex, regex-syntax and regex-automata are /rust-lang/regex), the one named
 * like the repository (regex: the docs are its docs), then the one matched by the surest rule
 * (the table, the repository, the name), then one the project asks for itself, then the
 * highest version (a lockfile may hold several versions of one package).
 */
import semver from 'semver';
import type { ProjectMappingRecord, ProjectPackageRecord, ProjectPinRecord } from '../store/models/project';
import { normalizeName } from '../search/catalog';
import { packageNames } from './map-packages';

function newer(a: string, b: string): number {
  const x = semver.coerce(a, { loose: true });
  const y = semver.coerce(b, { loose: true });
  if (x && y) return semver.compare(y, x);
  return b.localeCompare(a, undefined, { numeric: true });
}

const RULES = ['registry-name', 'repository', 'name'];
const RULE_RANK = (p: ProjectPackageRecord) => (RULES.includes(p.matchedBy ?? '') ? RULES.indexOf(p.matchedBy ?? '') : RULES.length);
const NAMED_LIKE_REPOSITORY = (p: ProjectPackageRecord) =>
  packageNames(p).some((n) => normalizeName(n) === normalizeName(p.libraryId?.split('/').filter(Boolean)[1] ?? '')) ? 0 : 1;

export function pinsOf(packages: readonly ProjectPackageRecord[]): ProjectPinRecord[] {
  const byLibrary = new Map<string, ProjectPackageRecord[]>();
  for (const p of packages) {
    if (!p.libraryId || p.version === '') continue;
    byLibrary.set(p.libraryId, [...(byLibrary.get(p.libraryId) ?? []), p]);
  }
  return [...byLibrary.entries()]
    .map(([libraryId, list]) => {
      const best = [...list].sort(
        (a, b) =>
          NAMED_LIKE_REPOSITORY(a) - NAMED_LIKE_REPOSITORY(b) ||
          RULE_RANK(a) - RULE_RANK(b) ||
          Number(b.direct) - Number(a.direct) ||
          newer(a.version, b.version),
      )[0] as ProjectPackageRecord;
      return { libraryId, version: best.version, package: best.name, ecosystem: best.ecosystem, lockfile: best.lockfile };
    })
    .sort((a, b) => a.libraryId.localeCompare(b.libraryId));
}

/** How much of a project maps: of its direct packages (of all, when its lockfiles do not say which are direct). */
export function mappingOf(packages: readonly Pick<ProjectPackageRecord, 'direct' | 'libraryId'>[]): ProjectMappingRecord {
  const direct = packages.filter((p) => p.direct);
  const counted = direct.length > 0 ? direct : packages;
  const mappedCounted = counted.filter((p) => p.libraryId !== null).length;
  return {
    packages: packages.length,
    mapped: packages.filter((p) => p.libraryId !== null).length,
    direct: direct.length,
    directMapped: direct.filter((p) => p.libraryId !== null).length,
    rate: counted.length === 0 ? 0 : Math.round((mappedCounted / counted.length) * 1000) / 1000,
  };
}

/** The pin of a library (by client id, case-insensitively), or undefined. */
export function pinFor(pins: readonly ProjectPinRecord[], libraryId: string): ProjectPinRecord | undefined {
  const want = libraryId.toLowerCase();
  return pins.find((p) => p.libraryId.toLowerCase() === want);
}

/** What provenance says of a pin: "pinned by project prj_… (package-lock.json: koa 2.16.4)". */
export function pinReason(projectId: string, pin: ProjectPinRecord): string {
  return `pinned by project ${projectId} (${pin.lockfile}: ${pin.package} ${pin.version})`;
}
