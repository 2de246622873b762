/**
 * Python: requirements.txt (pip's format, read here: no maintained JS parser exists; only
 * pinned `name==version` lines give a version, others are kept without one), poetry.lock and
 * uv.lock (TOML, smol-toml).
 */
import { parse as parseToml } from 'smol-toml';
import type { LockedPackage } from './types';
import { LockfileError } from './errors';

/** PEP 503: names compare lowercased with runs of `-_.` as one `-`. */
export function pythonName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_.]+/g, '-');
}

export function parseRequirements(text: string): LockedPackage[] {
  const out: LockedPackage[] = [];
  for (const raw of text.split(/\r?\n/)) {
    // Comments, options (-r, -e, --hash continuation lines), URLs and paths are not packages.
    const line = raw
      .replace(/(^|\s)#.*$/, '')
      .replace(/\\$/, '')
      .trim();
    if (line === '' || line.startsWith('-') || /^[a-z+]+:\/\//i.test(line) || line.startsWith('.') || line.startsWith('/')) continue;
    const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$/.exec(line.split(';')[0] ?? '');
    if (!m?.[1]) continue;
    const spec = (m[3] ?? '').trim();
    const pinned = /^===?\s*([A-Za-z0-9.+!_-]+)(\s*,.*)?$/.exec(spec);
    out.push({ ecosystem: 'pypi', name: pythonName(m[1]), version: pinned?.[1] ?? '', direct: true });
  }
  return out;
}

type Toml = Record<string, unknown>;

function readToml(text: string, file: string): Toml {
  try {
    return parseToml(text) as Toml;
  } catch (error) {
    throw new LockfileError(`${file} is not valid TOML (${(error as Error).message.split('\n')[0]}).`);
  }
}

function packagesOf(doc: Toml, file: string): Toml[] {
  const list = doc.package;
  if (!Array.isArray(list)) throw new LockfileError(`${file} has no [[package]] entries.`);
  return list.filter((p): p is Toml => typeof p === 'object' && p !== null);
}

export function parsePoetryLock(text: string): LockedPackage[] {
  // poetry.lock does not say which packages pyproject.toml asks for: none is marked direct.
  return packagesOf(readToml(text, 'poetry.lock'), 'poetry.lock').flatMap((p) =>
    typeof p.name === 'string' && typeof p.version === 'string'
      ? [{ ecosystem: 'pypi' as const, name: pythonName(p.name), version: p.version, direct: false }]
      : [],
  );
}

export function parseUvLock(text: string): LockedPackage[] {
  const packages = packagesOf(readToml(text, 'uv.lock'), 'uv.lock');
  // The project's own packages are the editable/virtual ones; what they depend on is direct.
  const own = packages.filter((p) => typeof p.source === 'object' && p.source !== null && ('editable' in p.source || 'virtual' in p.source));
  const direct = new Set<string>();
  for (const p of own) {
    const groups = [
      p.dependencies,
      ...Object.values((p['dev-dependencies'] as Toml | undefined) ?? {}),
      ...Object.values((p['optional-dependencies'] as Toml | undefined) ?? {}),
    ];
    for (const group of groups) {
      if (!Array.isArray(group)) continue;
      for (const d of group) if (d && typeof d === 'object' && typeof (d as Toml).name === 'string') direct.add(pythonName((d as Toml).name as string));
    }
  }
  return packages.flatMap((p) => {
    if (own.includes(p) || typeof p.name !== 'string' || typeof p.version !== 'string') return [];
    const name = pythonName(p.name);
    return [{ ecosystem: 'pypi' as const, name, version: p.version, direct: direct.has(name) }];
  });
}
