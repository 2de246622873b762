/**
 * Closed-loop load: N clients, each sending its next request as soon as the previous one is
 * answered, over N keep-alive connections (`http.Agent({ keepAlive, maxSockets: N })`), for
 * a fixed time. A short warm-up at the same concurrency opens the connections and is not
 * measured. Bounded in time (duration + one request timeout) and in count (maxRequests).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface RequestSpec {
  method: 'GET' | 'POST';
  url: URL;
  headers?: Record<string, string>;
  body?: string;
}

export interface Answer {
  /** 0 when the request failed in transport (refused, reset, timed out). */
  status: number;
  ms: number;
  body?: string;
  error?: string;
}

/** Sends one request on `agent` and reads the whole answer (the body only when asked). */
export function sendRequest(agent: http.Agent, spec: RequestSpec, options: { timeoutMs?: number; keepBody?: boolean } = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...spec.headers };
    if (spec.body !== undefined) headers['content-length'] = String(Buffer.byteLength(spec.body));
    if (spec.url.username)
      headers.authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(spec.url.username)}:${decodeURIComponent(spec.url.password)}`).toString('base64')}`;
    const req = http.request(
      { agent, method: spec.method, host: spec.url.hostname, port: spec.url.port || undefined, path: `${spec.url.pathname}${spec.url.search}`, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (options.keepBody) chunks.push(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            ...(options.keepBody ? { body: Buffer.concat(chunks).toString('utf8') } : {}),
          }),
        );
        res.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, error: error.message }));
      },
    );
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error('timed out')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, ms: performance.now() - started, error: error.code ?? error.message }));
    req.end(spec.body);
  });
}

export interface LoadRun {
  concurrency: number;
  elapsedMs: number;
  /** Latencies (ms) of 2xx answers. */
  latencies: number[];
  /** Count of answers per status ("0" = transport failure). */
  statuses: Record<string, number>;
  /** A few distinct transport errors, for the report. */
  errors: string[];
}

export interface LoadOptions {
  concurrency: number;
  durationMs: number;
  warmupMs?: number;
  maxRequests?: number;
  timeoutMs?: number;
  /** The requests, cycled; each client takes the next one. */
  requests: readonly RequestSpec[];
  /** Index of the first request (to spread short slices over the whole list). */
  startAt?: number;
  /** Called when the warm-up ends and measuring begins. */
  onMeasureStart?: () => void;
  /** Which answers are timed (default: 2xx; library search's 404 with suggestions is an answer too). */
  timed?: (status: number) => boolean;
}

/** Runs the closed loop and returns what was measured after the warm-up. */
export async function runClosedLoop(options: LoadOptions): Promise<LoadRun> {
  const { concurrency, durationMs, requests } = options;
  if (requests.length === 0) throw new Error('runClosedLoop needs at least one request');
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const maxRequests = options.maxRequests ?? 2_000_000;
  let cursor = options.startAt ?? 0;
  const nextSpec = () => requests[cursor++ % requests.length];
  try {
    const warmupEnd = performance.now() + (options.warmupMs ?? Math.min(1000, durationMs / 5));
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < warmupEnd) await sendRequest(agent, nextSpec(), { timeoutMs: options.timeoutMs });
      }),
    );
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    const errors = new Set<string>();
    let sent = 0;
    options.onMeasureStart?.();
    const started = performance.now();
    const deadline = started + durationMs;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline && sent < maxRequests) {
          sent++;
          const answer = await sendRequest(agent, nextSpec(), { timeoutMs: options.timeoutMs });
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (options.timed ? options.timed(answer.status) : answer.status >= 200 && answer.status < 300) latencies.push(answer.ms);
          else if (answer.error && errors.size < 5) errors.add(answer.error);
        }
      }),
    );
    return { concurrency, elapsedMs: performance.now() - started, latencies, statuses, errors: [...errors] };
  } finally {
    agent.destroy();
  }
}

/** Answers that were not 2xx. */
export function failedCount(run: Pick<LoadRun, 'statuses'>): number {
  return Object.entries(run.statuses).reduce((n, [status, count]) => (Number(status) >= 200 && Number(status) < 300 ? n : n + count), 0);
}

/** One run from several slices of the same target (latencies joined, times and counts summed). */
export function mergeRuns(runs: readonly LoadRun[]): LoadRun {
  const statuses: Record<string, number> = {};
  for (const r of runs) for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
  return {
    concurrency: runs[0]?.concurrency ?? 0,
    elapsedMs: runs.reduce((n, r) => n + r.elapsedMs, 0),
    latencies: runs.flatMap((r) => r.latencies),
    statuses,
    errors: [...new Set(runs.flatMap((r) => r.errors))].slice(0, 5),
  };
}
