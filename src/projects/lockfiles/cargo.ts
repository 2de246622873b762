/** Cargo.lock (TOML, smol-toml): a workspace's members are the entries without a `source`. */
import { parse as parseToml } from 'smol-toml';
import type { LockedPackage } from './types';
import { LockfileError } from './errors';

type Toml = Record<string, unknown>;

export function parseCargoLock(text: string): LockedPackage[] {
  let doc: Toml;
  try {
    doc = parseToml(text) as Toml;
  } catch (error) {
    throw new LockfileError(`Cargo.lock is not valid TOML (${(error as Error).message.split('\n')[0]}).`);
  }
  if (!Array.isArray(doc.package)) throw new LockfileError('Cargo.lock has no [[package]] entries.');
  const packages = (doc.package as unknown[]).filter(
    (p): p is Toml => typeof p === 'object' && p !== null && typeof (p as Toml).name === 'string' && typeof (p as Toml).version === 'string',
  );
  const members = packages.filter((p) => p.source === undefined);
  // A dependency is `name` or `name version` (when several versions are locked).
  const direct = new Set(members.flatMap((m) => (Array.isArray(m.dependencies) ? m.dependencies.map((d) => String(d).split(' ')[0]) : [])));
  return packages
    .filter((p) => p.source !== undefined)
    .map((p) => ({ ecosystem: 'cargo' as const, name: p.name as string, version: p.version as string, direct: direct.has(p.name as string) }));
}
