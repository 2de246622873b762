/**
 * go.mod, read here: its grammar is small (`require` lines and blocks, `// indirect`
 * comments, `replace`/`exclude` ignored) and no maintained JS parser of it exists.
 */
import type { LockedPackage } from './types';
import { LockfileError } from './errors';

export function parseGoMod(text: string): LockedPackage[] {
  if (!/^\s*module\s+\S+/m.test(text)) throw new LockfileError('go.mod has no module line.');
  const out: LockedPackage[] = [];
  let inRequire = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (inRequire) {
      if (line.startsWith(')')) inRequire = false;
      else addRequirement(line, out);
      continue;
    }
    if (/^require\s*\($/.test(line)) inRequire = true;
    else if (line.startsWith('require ')) addRequirement(line.slice('require '.length), out);
  }
  return out;
}

function addRequirement(line: string, out: LockedPackage[]): void {
  const m = /^("?)([^\s"]+)\1\s+(v[^\s/]+)(.*)$/.exec(line.trim());
  if (!m?.[2] || !m[3]) return;
  out.push({ ecosystem: 'go', name: m[2], version: m[3], direct: !/\/\/\s*indirect\b/.test(m[4] ?? '') });
}
