/** Plain-text tables for the eval and bench reports (first column left, the rest right). */

import path from 'node:path';

export function formatTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A number with fixed decimals, or "-" when it is missing. */
export function fixed(value: number | undefined, digits = 3): string {
  return value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits);
}

/** A path for messages: relative to the working directory when it lies inside it. */
export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}
