/**
 * Finds the source line of a key path (`paths` → `/pets` → `get`) in the uploaded text, so a
 * snippet can link to where its operation is written. One pass indexes the line of every
 * `key:` in the file; a lookup then finds each key in turn after the previous one. It is a
 * heuristic (it ignores indentation), good for the usual layouts and never worse than line 1.
 */

/** The 1-based line where the key path is written, or the closest ancestor's line (1 when unknown). */
export type LineLocator = (keys: readonly string[]) => number;

const JSON_KEY = /^\s*"((?:[^"\\]|\\.)*)"\s*:/;
const YAML_KEY = /^\s*(?:-\s+)?("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s'"#-][^#]*?)\s*:(?:\s|$)/;

/** Indexes `rawText` (JSON or YAML) for {@link LineLocator} lookups. */
export function createLineLocator(rawText: string | undefined, format: 'json' | 'yaml'): LineLocator {
  if (!rawText) return () => 1;
  const index = new Map<string, number[]>();
  const lines = rawText.split('\n');
  const pattern = format === 'json' ? JSON_KEY : YAML_KEY;
  for (let i = 0; i < lines.length; i++) {
    const match = pattern.exec(lines[i]);
    if (!match) continue;
    const key = unquote(match[1], format);
    const list = index.get(key);
    if (list) list.push(i);
    else index.set(key, [i]);
  }
  return (keys) => {
    let line = -1;
    for (const key of keys) {
      const next = firstAtOrAfter(index.get(key) ?? [], line + 1);
      if (next === undefined) break;
      line = next;
    }
    return line + 1 || 1;
  };
}

function unquote(raw: string, format: 'json' | 'yaml'): string {
  if (format === 'json' || raw.startsWith('"')) {
    try {
      return JSON.parse(format === 'json' ? `"${raw}"` : raw) as string;
    } catch {
      return raw;
    }
  }
  if (raw.startsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  return raw.trim();
}

function firstAtOrAfter(sorted: number[], from: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}
