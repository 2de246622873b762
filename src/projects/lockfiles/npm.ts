/**
 * The npm ecosystem's lockfiles: package-lock.json (v1 `dependencies` tree, v2/v3 `packages`
 * map), pnpm-lock.yaml (v5 to v9; js-yaml) and yarn.lock (v1 and Berry; @yarnpkg/parsers,
 * the parser Yarn itself uses).
 */
import yaml from 'js-yaml';
import { parseSyml } from '@yarnpkg/parsers';
import type { LockedPackage } from './types';
import { LockfileError } from './errors';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parsePackageLock(text: string): LockedPackage[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new LockfileError(`package-lock.json is not valid JSON (${(error as Error).message}).`);
  }
  if (!isObject(doc)) throw new LockfileError('package-lock.json must be a JSON object.');
  const out: LockedPackage[] = [];
  if (isObject(doc.packages)) {
    const root = isObject(doc.packages['']) ? doc.packages[''] : {};
    const direct = new Set(
      ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'].flatMap((k) => (isObject(root[k]) ? Object.keys(root[k]) : [])),
    );
    for (const [path, entry] of Object.entries(doc.packages)) {
      if (path === '' || !isObject(entry) || entry.link === true) continue;
      // `node_modules/a/node_modules/@s/b` is @s/b; a workspace folder (no node_modules) is the project's own.
      const at = path.lastIndexOf('node_modules/');
      if (at < 0) continue;
      const name = typeof entry.name === 'string' ? entry.name : path.slice(at + 'node_modules/'.length);
      if (typeof entry.version !== 'string') continue;
      out.push({ ecosystem: 'npm', name, version: entry.version, direct: path === `node_modules/${name}` && direct.has(name) });
    }
    return out;
  }
  // lockfileVersion 1: a nested tree under `dependencies`. Its top level mixes what the project
  // asked for with hoisted packages, so nothing is known to be direct.
  const walk = (deps: unknown) => {
    if (!isObject(deps)) return;
    for (const [name, entry] of Object.entries(deps)) {
      if (!isObject(entry) || typeof entry.version !== 'string') continue;
      out.push({ ecosystem: 'npm', name, version: entry.version, direct: false });
      walk(entry.dependencies);
    }
  };
  walk(doc.dependencies);
  return out;
}

/** `1.2.3(peer@4.5.6)` → `1.2.3`; a `link:`/`file:`/`workspace:` version is the project's own package. */
function pnpmVersion(raw: string): string | null {
  if (/^(link|file|workspace|portal):/.test(raw)) return null;
  return raw.replace(/\(.*$/, '').replace(/_.*$/, '');
}

/** A pnpm `packages` key: `/koa@2.16.4`, `/koa/2.16.4` (v5), `koa@2.16.4(x@1)` (v9), scoped alike. */
export function pnpmKey(key: string): { name: string; version: string } | null {
  const k = key.replace(/^\//, '').replace(/\(.*$/, '');
  const at = k.lastIndexOf('@');
  if (at > 0) return { name: k.slice(0, at), version: k.slice(at + 1).replace(/_.*$/, '') };
  const slash = k.lastIndexOf('/');
  return slash > 0 ? { name: k.slice(0, slash), version: k.slice(slash + 1).replace(/_.*$/, '') } : null;
}

export function parsePnpmLock(text: string): LockedPackage[] {
  let doc: unknown;
  try {
    doc = yaml.load(text, { json: true });
  } catch (error) {
    throw new LockfileError(`pnpm-lock.yaml is not valid YAML (${(error as Error).message.split('\n')[0]}).`);
  }
  if (!isObject(doc)) throw new LockfileError('pnpm-lock.yaml must be a YAML mapping.');
  const found = new Map<string, LockedPackage>();
  const add = (name: string, version: string, direct: boolean) => {
    const key = `${name}@${version}`;
    const had = found.get(key);
    if (!had) found.set(key, { ecosystem: 'npm', name, version, direct });
    else if (direct) had.direct = true;
  };
  // Importers (workspace projects; the root alone in older single-project files): their own dependencies.
  const importers = isObject(doc.importers) ? Object.values(doc.importers) : [doc];
  for (const importer of importers) {
    if (!isObject(importer)) continue;
    for (const group of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      const deps = importer[group];
      if (!isObject(deps)) continue;
      for (const [name, spec] of Object.entries(deps)) {
        const raw = isObject(spec) ? spec.version : spec;
        const version = typeof raw === 'string' ? pnpmVersion(raw) : null;
        if (version) add(name, version, true);
      }
    }
  }
  if (isObject(doc.packages)) {
    for (const key of Object.keys(doc.packages)) {
      const parsed = pnpmKey(key);
      if (parsed) add(parsed.name, parsed.version, false);
    }
  }
  return [...found.values()];
}

export function parseYarnLock(text: string): LockedPackage[] {
  let doc: unknown;
  try {
    doc = parseSyml(text);
  } catch (error) {
    throw new LockfileError(`yarn.lock could not be read (${(error as Error).message.split('\n')[0]}).`);
  }
  if (!isObject(doc)) throw new LockfileError('yarn.lock holds no entries.');
  const found = new Map<string, LockedPackage>();
  for (const [descriptors, entry] of Object.entries(doc)) {
    if (descriptors === '__metadata' || !isObject(entry) || typeof entry.version !== 'string') continue;
    // `"koa@^2.0.0", "koa@~2.16.0"` (v1) or `koa@npm:^2.0.0` (Berry): the name is before the range's @.
    const first = descriptors.split(',')[0]?.trim().replace(/^"|"$/g, '') ?? '';
    const at = first.indexOf('@', 1);
    const name = at > 0 ? first.slice(0, at) : first;
    if (!name || /@(workspace|link|portal|file):/.test(first)) continue;
    const key = `${name}@${entry.version}`;
    if (!found.has(key)) found.set(key, { ecosystem: 'npm', name, version: entry.version, direct: false });
  }
  return [...found.values()];
}
