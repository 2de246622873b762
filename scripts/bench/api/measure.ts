/**
 * The benchmark's measurements, with progress on stderr: a one-pass status check, one
 * closed-loop run per target and concurrency, and interleaved runs for A/B comparisons.
 */
import http from 'node:http';
import { failedCount, mergeRuns, runClosedLoop, sendRequest, type LoadRun, type RequestSpec } from '../harness/load';
import { summarizeLatencies } from '../harness/stats';
import type { RunResult } from './report';
import type { CpuMeter } from '../harness/cpu';

/** One sequential pass: the status of every request, and the first failure's body. */
export async function checkPass(requests: readonly RequestSpec[]): Promise<{ statuses: Record<string, number>; firstFailure?: string }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const statuses: Record<string, number> = {};
  let firstFailure: string | undefined;
  try {
    for (const spec of requests) {
      const a = await sendRequest(agent, spec, { keepBody: true, timeoutMs: 60_000 });
      statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      if ((a.status < 200 || a.status >= 300) && firstFailure === undefined)
        firstFailure = `${a.status} ${(a.body ?? a.error ?? '').slice(0, 300)} (${spec.method} ${spec.url.pathname}${spec.url.search.slice(0, 120)})`;
    }
  } finally {
    agent.destroy();
  }
  return { statuses, firstFailure };
}

export async function measure(target: string, requests: readonly RequestSpec[], concurrency: number, durationMs: number, cpu?: CpuMeter): Promise<RunResult> {
  process.stderr.write(`  ${target.padEnd(34)} ${String(concurrency).padStart(3)} clients, ${durationMs / 1000} s … `);
  let perRequest: ReturnType<CpuMeter['start']> | undefined;
  const run = await runClosedLoop({ concurrency, durationMs, requests, onMeasureStart: () => (perRequest = cpu?.start()) });
  const summary = summarizeLatencies(run.latencies, failedCount(run), run.elapsedMs);
  const cpuMsPerRequest = perRequest?.(run.latencies.length + failedCount(run));
  process.stderr.write(
    `${summary.rps.toFixed(0)} req/s, p50 ${summary.p50} ms${summary.failed > 0 ? `, ${summary.failed} failed ${JSON.stringify(run.statuses)}` : ''}\n`,
  );
  return { target, concurrency, summary, statuses: run.statuses, errors: run.errors, ...(cpuMsPerRequest ? { cpuMsPerRequest } : {}) };
}

/**
 * Several targets measured in alternating slices (A B A B …) for `durationMs` each in total,
 * so a change in machine load during the comparison falls on all of them alike.
 */
export async function measureInterleaved(
  targets: ReadonlyArray<{ target: string; requests: readonly RequestSpec[] }>,
  concurrency: number,
  durationMs: number,
  slices = 5,
): Promise<RunResult[]> {
  const parts = targets.map(() => [] as LoadRun[]);
  process.stderr.write(`  ${targets.map((t) => t.target).join(' / ')}: ${slices} alternating slices of ${durationMs / slices / 1000} s each …`);
  for (let i = 0; i < slices; i++) {
    for (const [j, t] of targets.entries()) {
      const startAt = Math.floor((i * t.requests.length) / slices);
      parts[j].push(await runClosedLoop({ concurrency, durationMs: durationMs / slices, warmupMs: i === 0 ? 500 : 0, requests: t.requests, startAt }));
    }
  }
  process.stderr.write('\n');
  return targets.map((t, j) => {
    const run = mergeRuns(parts[j]);
    const summary = summarizeLatencies(run.latencies, failedCount(run), run.elapsedMs);
    console.error(
      `    ${t.target}: ${summary.rps.toFixed(0)} req/s, p50 ${summary.p50} ms${summary.failed > 0 ? `, ${summary.failed} failed ${JSON.stringify(run.statuses)}` : ''}`,
    );
    return { target: t.target, concurrency, summary, statuses: run.statuses, errors: run.errors };
  });
}

/** True when at least one answer was 2xx. */
export const anySuccess = (statuses: Record<string, number>): boolean =>
  Object.entries(statuses).some(([s, n]) => Number(s) >= 200 && Number(s) < 300 && n > 0);
