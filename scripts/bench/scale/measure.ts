/**
 * What `npm run scale-bench` measures at each catalogue size, the same way at every size:
 * `/v2/libs/search` and `/v2/context` p50/p99 at each client count over a fixed list of
 * requests (names and questions of the corpus libraries, which every size holds, plus names
 * of libraries that only the larger catalogues hold), the server's RSS, Elasticsearch's heap
 * and disk.
 */
import type { EvalEntry } from '../../eval/dataset';
import { libraryIdOf } from '../../eval/dataset';
import { runClosedLoop, failedCount, type RequestSpec } from '../harness/load';
import { summarizeLatencies } from '../harness/stats';
import { readProcMemory } from '../harness/rss';
import { syntheticName } from './synthesize';

export interface RunFigures {
  clients: number;
  p50: number;
  p99: number;
  rps: number;
  /** Answers per status (200, 404 are both expected for library search). */
  statuses: Record<string, number>;
}

export interface SizeFigures {
  libraries: number;
  snippets: number;
  search: RunFigures[];
  context: RunFigures[];
  serverRssMb: number;
  serverPeakRssMb: number;
  esHeapUsedMb: number;
  esHeapMaxMb: number;
  esDiskMb: number;
  load?: { libraries: number; seconds: number; perSecond: number; mergeSeconds?: number };
  loadAverage: string;
}

/**
 * One catalogue's figures over several rounds (measured in turn with the other sizes, so each
 * size sees the machine's quiet and busy moments alike): per target and client count the
 * median p50 and p99, requests per second and statuses summed; the rest from the last round.
 */
export function medianOfRounds(rounds: readonly SizeFigures[]): SizeFigures {
  if (rounds.length === 0) throw new Error('no rounds to combine');
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const combine = (pick: (f: SizeFigures) => RunFigures[]): RunFigures[] =>
    pick(rounds[0]).map((first, i) => {
      const runs = rounds.map((r) => pick(r)[i]).filter((r): r is RunFigures => r !== undefined && r.clients === first.clients);
      const statuses: Record<string, number> = {};
      for (const run of runs) for (const [status, n] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
      return {
        clients: first.clients,
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        rps: median(runs.map((r) => r.rps)),
        statuses,
      };
    });
  const last = rounds[rounds.length - 1];
  return { ...last, search: combine((f) => f.search), context: combine((f) => f.context), serverPeakRssMb: Math.max(...rounds.map((r) => r.serverPeakRssMb)) };
}

/**
 * The names asked of library search: each corpus library by repository name, a typo of it,
 * its id, and a prefix; and synthetic names (present only in the larger catalogues, so a 404
 * with suggestions at 16). Half carry a question, so the content score is asked for too.
 */
export function searchNames(realIds: readonly string[], realNames: readonly string[]): Array<{ libraryName: string; query?: string }> {
  const out: Array<{ libraryName: string; query?: string }> = [];
  for (const id of realIds) {
    const repo = id.split('/')[2] ?? id;
    const typo = repo.length > 4 ? `${repo.slice(0, 2)}${repo[3]}${repo[2]}${repo.slice(4)}` : repo;
    out.push(
      { libraryName: repo },
      { libraryName: typo, query: 'getting started' },
      { libraryName: id },
      { libraryName: repo.slice(0, Math.max(3, repo.length - 2)), query: 'configuration' },
    );
  }
  for (let i = 16; i < 16 + 24; i++) out.push({ libraryName: syntheticName(i * 37, realNames).title, ...(i % 2 === 0 ? { query: 'how to install' } : {}) });
  return out;
}

export function searchSpecs(baseUrl: string, names: ReadonlyArray<{ libraryName: string; query?: string }>): RequestSpec[] {
  return names.map((n) => {
    const url = new URL('/v2/libs/search', baseUrl);
    url.search = new URLSearchParams(n.query ? { libraryName: n.libraryName, query: n.query } : { libraryName: n.libraryName }).toString();
    return { method: 'GET', url, headers: { accept: 'application/json' } };
  });
}

export function contextSpecs(baseUrl: string, entries: readonly EvalEntry[]): RequestSpec[] {
  return entries.map((e) => {
    const url = new URL('/v2/context', baseUrl);
    url.search = new URLSearchParams({ libraryId: libraryIdOf(e), query: e.query }).toString();
    return { method: 'GET', url, headers: { accept: 'text/plain' } };
  });
}

/** One target at each client count; library search's 404s count as answers. */
export async function measureTarget(
  requests: RequestSpec[],
  clients: readonly number[],
  durationMs: number,
  okStatuses: readonly number[] = [200],
): Promise<RunFigures[]> {
  const out: RunFigures[] = [];
  for (const concurrency of clients) {
    const run = await runClosedLoop({
      concurrency,
      durationMs,
      warmupMs: 3000,
      requests,
      startAt: concurrency * 7,
      timed: (status) => okStatuses.includes(status),
    });
    const failed = failedCount(run) - okStatuses.filter((s) => s >= 300).reduce((n, s) => n + (run.statuses[s] ?? 0), 0);
    const summary = summarizeLatencies(run.latencies, failed, run.elapsedMs);
    out.push({ clients: concurrency, p50: summary.p50, p99: summary.p99, rps: summary.rps, statuses: run.statuses });
  }
  return out;
}

export async function esFigures(esUrl: string, prefix: string): Promise<{ heapUsedMb: number; heapMaxMb: number; diskMb: number }> {
  const nodes = (await (await fetch(`${esUrl}/_nodes/stats/jvm`)).json()) as {
    nodes: Record<string, { jvm: { mem: { heap_used_in_bytes: number; heap_max_in_bytes: number } } }>;
  };
  const jvm = Object.values(nodes.nodes).map((n) => n.jvm.mem);
  const indices = (await (await fetch(`${esUrl}/_cat/indices/${prefix}-*?format=json&bytes=b`)).json()) as Array<{ 'store.size': string }>;
  const mb = (b: number) => Math.round(b / 1024 / 1024);
  return {
    heapUsedMb: mb(jvm.reduce((n, m) => n + m.heap_used_in_bytes, 0)),
    heapMaxMb: mb(jvm.reduce((n, m) => n + m.heap_max_in_bytes, 0)),
    diskMb: mb(indices.reduce((n, i) => n + Number(i['store.size'] ?? 0), 0)),
  };
}

export function serverMemory(pid: number): { rssMb: number; peakMb: number } {
  const m = readProcMemory(pid);
  return { rssMb: Math.round((m?.rssKb ?? 0) / 1024), peakMb: Math.round((m?.hwmKb ?? 0) / 1024) };
}
