/**
 * Lockfiles and manifests → the packages a project uses, by the file's name. Each format is
 * read with a maintained parser where one exists (JSON, js-yaml, @yarnpkg/parsers,
 * smol-toml, linkedom); requirements.txt, go.mod and Gemfile.lock by small readers here.
 */
import type { LockedPackage, LockfileName } from './types';
import { LOCKFILE_NAMES } from './types';
import { LockfileError } from './errors';
import { parsePackageLock, parsePnpmLock, parseYarnLock } from './npm';
import { parsePoetryLock, parseRequirements, parseUvLock } from './python';
import { parseGoMod } from './go';
import { parseCargoLock } from './cargo';
import { parsePom } from './maven';
import { parseGemfileLock } from './ruby';

export { LockfileError, LOCKFILE_NAMES, type LockedPackage, type LockfileName };

/** The largest lockfile accepted (a big monorepo's pnpm-lock.yaml is a few MB). */
export const MAX_LOCKFILE_BYTES = 10 * 1024 * 1024;

const PARSERS: Record<LockfileName, (text: string) => LockedPackage[]> = {
  'package-lock.json': parsePackageLock,
  'npm-shrinkwrap.json': parsePackageLock,
  'pnpm-lock.yaml': parsePnpmLock,
  'yarn.lock': parseYarnLock,
  'requirements.txt': parseRequirements,
  'poetry.lock': parsePoetryLock,
  'uv.lock': parseUvLock,
  'go.mod': parseGoMod,
  'Cargo.lock': parseCargoLock,
  'pom.xml': parsePom,
  'Gemfile.lock': parseGemfileLock,
};

/** The format a file name stands for: its base name (`requirements-dev.txt` and `requirements/*.txt` count as requirements). */
export function lockfileKind(filename: string): LockfileName | null {
  const base = filename.split(/[\\/]/).pop() ?? '';
  if ((LOCKFILE_NAMES as readonly string[]).includes(base)) return base as LockfileName;
  if (/^requirements[\w.-]*\.txt$/i.test(base) || /(^|[\\/])requirements[\\/][\w.-]+\.txt$/i.test(filename)) return 'requirements.txt';
  return null;
}

/** The packages a lockfile names, each (ecosystem, name, version) once. */
export function parseLockfile(filename: string, text: string): { kind: LockfileName; packages: LockedPackage[] } {
  const kind = lockfileKind(filename);
  if (!kind) throw new LockfileError(`"${filename}" is not a lockfile or manifest Shelfmark reads (${LOCKFILE_NAMES.join(', ')}).`);
  if (Buffer.byteLength(text) > MAX_LOCKFILE_BYTES) throw new LockfileError(`${kind} is larger than ${MAX_LOCKFILE_BYTES / 1024 / 1024} MB.`);
  if (text.includes('\u0000')) throw new LockfileError(`${kind} is not a text file.`);
  const seen = new Map<string, LockedPackage>();
  for (const p of PARSERS[kind](text)) {
    const key = `${p.ecosystem}:${p.name}@${p.version}`;
    const had = seen.get(key);
    if (!had) seen.set(key, p);
    else if (p.direct) had.direct = true;
  }
  return { kind, packages: [...seen.values()] };
}
