/** The scale bench's table: one row per catalogue size, the first size as the baseline of the ratios. */
import type { RunFigures, SizeFigures } from './measure';

const at = (runs: readonly RunFigures[], clients: number) => runs.find((r) => r.clients === clients);
const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1));

export function formatCurve(curve: readonly SizeFigures[]): string {
  const base = curve[0];
  const clientCounts = [...new Set(curve.flatMap((s) => s.search.map((r) => r.clients)))].sort((a, b) => a - b);
  const head = [
    'libraries',
    'snippets',
    ...clientCounts.flatMap((c) => [`search@${c} p50/p99`, `context@${c} p50/p99`]),
    'ctx@8 vs first',
    'RSS MB (peak)',
    'ES heap MB',
    'ES disk MB',
    'load lib/s',
    'load avg',
  ];
  const rows = curve.map((s) => {
    const ctx8 = at(s.context, 8)?.p50;
    const base8 = base && at(base.context, 8)?.p50;
    return [
      String(s.libraries),
      String(s.snippets),
      ...clientCounts.flatMap((c) => [
        `${ms(at(s.search, c)?.p50)} / ${ms(at(s.search, c)?.p99)}`,
        `${ms(at(s.context, c)?.p50)} / ${ms(at(s.context, c)?.p99)}`,
      ]),
      ctx8 !== undefined && base8 ? `${(ctx8 / base8).toFixed(2)}x` : '-',
      `${s.serverRssMb} (${s.serverPeakRssMb})`,
      `${s.esHeapUsedMb}/${s.esHeapMaxMb}`,
      String(s.esDiskMb),
      s.load
        ? `${s.load.perSecond} (${s.load.libraries} in ${s.load.seconds.toFixed(0)} s${s.load.mergeSeconds !== undefined ? `, merge ${s.load.mergeSeconds.toFixed(0)} s` : ''})`
        : '-',
      s.loadAverage,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
