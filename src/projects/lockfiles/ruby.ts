/**
 * Gemfile.lock, read here: Bundler's own format (indented sections) has no maintained JS
 * parser. Resolved gems are the four-space `name (version[-platform])` lines of the GEM, GIT
 * and PATH sections' specs; DEPENDENCIES lists what the Gemfile asks for.
 */
import type { LockedPackage } from './types';
import { LockfileError } from './errors';

export function parseGemfileLock(text: string): LockedPackage[] {
  const lines = text.split(/\r?\n/);
  if (!lines.some((l) => /^(GEM|GIT|PATH)$/.test(l))) throw new LockfileError('Gemfile.lock has no GEM, GIT or PATH section.');
  const direct = new Set<string>();
  const found = new Map<string, LockedPackage>();
  let section = '';
  for (const line of lines) {
    if (/^[A-Z][A-Z ]*$/.test(line)) {
      section = line;
      continue;
    }
    if (section === 'DEPENDENCIES') {
      const m = /^ {2}([^\s!(]+)/.exec(line);
      if (m?.[1]) direct.add(m[1]);
      continue;
    }
    if (!['GEM', 'GIT', 'PATH'].includes(section)) continue;
    const spec = /^ {4}([^\s(]+) \(([^)]+)\)$/.exec(line);
    if (!spec?.[1] || !spec[2]) continue;
    const version = spec[2].replace(/-(x86|arm|aarch|java|universal|x64|mingw|mswin).*$/, '');
    if (!found.has(spec[1])) found.set(spec[1], { ecosystem: 'rubygems', name: spec[1], version, direct: false });
  }
  for (const p of found.values()) p.direct = direct.has(p.name);
  return [...found.values()];
}
