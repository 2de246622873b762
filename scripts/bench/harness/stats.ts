/**
 * Latency and throughput summaries for the benchmark (and the eval's median latency).
 * Pure functions; percentiles use the nearest-rank method, so every reported value is a
 * latency that was actually measured.
 */

/**
 * The p-th percentile (0 < p ≤ 100) of `values` by nearest rank: the smallest value with at
 * least p% of the values at or below it. NaN for an empty list.
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
}

/** The middle value (mean of the two middle ones for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((n, v) => n + v, 0) / values.length;
}

export interface LatencySummary {
  /** Requests that completed with a 2xx status (the latencies below are theirs). */
  ok: number;
  /** Requests that completed with another status or failed in transport. */
  failed: number;
  /** Completed 2xx requests per second of wall-clock time. */
  rps: number;
  min: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Summarises the 2xx latencies (ms) of one run that lasted `elapsedMs`. */
export function summarizeLatencies(latenciesMs: readonly number[], failed: number, elapsedMs: number): LatencySummary {
  const round = (v: number) => (Number.isNaN(v) ? v : Math.round(v * 100) / 100);
  return {
    ok: latenciesMs.length,
    failed,
    rps: elapsedMs > 0 ? round((latenciesMs.length * 1000) / elapsedMs) : 0,
    min: round(latenciesMs.length === 0 ? Number.NaN : latenciesMs.reduce((m, v) => Math.min(m, v), Infinity)),
    mean: round(mean(latenciesMs)),
    p50: round(percentile(latenciesMs, 50)),
    p95: round(percentile(latenciesMs, 95)),
    p99: round(percentile(latenciesMs, 99)),
    max: round(latenciesMs.length === 0 ? Number.NaN : latenciesMs.reduce((m, v) => Math.max(m, v), -Infinity)),
  };
}

/** a / b, or NaN when either is missing or b is 0 (printed as "-"). */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : Number.NaN;
}
