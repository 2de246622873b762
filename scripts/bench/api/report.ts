/** The benchmark's console tables. */
import { fixed, formatTable } from '../../eval/table';
import { ratio, type LatencySummary } from '../harness/stats';
import type { CpuProcess } from '../harness/cpu';

export interface RunResult {
  target: string;
  concurrency: number;
  summary: LatencySummary;
  statuses: Record<string, number>;
  errors: string[];
  /** CPU milliseconds per request of each process that could be found (see cpu.ts). */
  cpuMsPerRequest?: Partial<Record<CpuProcess, number>>;
}

const CPU_COLUMNS: ReadonlyArray<[CpuProcess, string]> = [
  ['server', 'server'],
  ['elasticsearch', 'Elasticsearch'],
  ['mongodb', 'FerretDB/MongoDB'],
  ['bench', 'bench client'],
];

/** CPU ms per request of each process, per run (runs without figures are left out). */
export function formatCpu(runs: readonly RunResult[]): string {
  const rows = runs.filter((r) => r.cpuMsPerRequest && Object.keys(r.cpuMsPerRequest).length > 0);
  if (rows.length === 0) return '';
  return formatTable(
    ['target', 'clients', ...CPU_COLUMNS.map(([, label]) => label), 'total'],
    rows.map((r) => {
      const cpu = r.cpuMsPerRequest ?? {};
      const total = Object.values(cpu).reduce((n, v) => n + (v ?? 0), 0);
      return [r.target, String(r.concurrency), ...CPU_COLUMNS.map(([key]) => (cpu[key] === undefined ? '-' : fixed(cpu[key], 2))), fixed(total, 2)];
    }),
  );
}

const ms = (v: number) => fixed(v, 1);

export function formatRuns(runs: readonly RunResult[]): string {
  const head = ['target', 'clients', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'ok', 'failed'];
  return formatTable(
    head,
    runs.map((r) => [
      r.target,
      String(r.concurrency),
      fixed(r.summary.rps, 0),
      ms(r.summary.p50),
      ms(r.summary.p95),
      ms(r.summary.p99),
      ms(r.summary.max),
      String(r.summary.ok),
      String(r.summary.failed),
    ]),
  );
}

/** Each server target's p50 over the Elasticsearch floor p50, per concurrency. */
export function floorRatios(
  runs: readonly RunResult[],
  serverTargets: readonly string[],
  floorTarget: string,
): Array<{ target: string; concurrency: number; serverP50: number; floorP50: number; ratio: number }> {
  return serverTargets.flatMap((target) =>
    runs
      .filter((r) => r.target === target)
      .flatMap((s) => {
        const f = runs.find((r) => r.target === floorTarget && r.concurrency === s.concurrency);
        return f ? [{ target, concurrency: s.concurrency, serverP50: s.summary.p50, floorP50: f.summary.p50, ratio: ratio(s.summary.p50, f.summary.p50) }] : [];
      }),
  );
}

export function formatRatios(rows: ReturnType<typeof floorRatios>): string {
  return formatTable(
    ['target', 'clients', 'server p50', 'ES p50', 'server / ES'],
    rows.map((r) => [r.target, String(r.concurrency), ms(r.serverP50), ms(r.floorP50), fixed(r.ratio, 2)]),
  );
}

/** Each auth mode at one client, with its p50 against the mode it is compared to on the same server. */
export function formatAuth(runs: readonly RunResult[], baselines: Readonly<Record<string, string>>): string {
  return formatTable(
    ['mode', 'p50 ms', 'p95 ms', 'req/s', 'Δ p50', 'compared with'],
    runs.map((r) => {
      const base = runs.find((b) => b.target === baselines[r.target]);
      const delta = base ? r.summary.p50 - base.summary.p50 : Number.NaN;
      return [
        r.target,
        ms(r.summary.p50),
        ms(r.summary.p95),
        fixed(r.summary.rps, 0),
        Number.isFinite(delta) ? `${delta >= 0 ? '+' : ''}${ms(delta)} ms` : '-',
        base?.target ?? '-',
      ];
    }),
  );
}
