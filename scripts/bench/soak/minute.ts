/**
 * What the soak records and how one minute of it is summarised (pure). Samples are kept
 * per minute only: once summarised, a minute's samples are dropped, so a soak of hours
 * holds one minute of samples plus the per-kind latency lists.
 */
import { percentile } from '../harness/stats';

/**
 * How an answer counts:
 * - ok: the status the call is meant to get (2xx; a bad input's own 4xx is `expected`);
 * - expected: a planned refusal (a bad input's 4xx, an add still running after
 *   ADD_WAIT_SECONDS answering 504 `timeout`);
 * - rate-limited: 429, expected under any load;
 * - tolerated: a 503 (or an MCP tool error) while a chaos window is open;
 * - unexpected: anything else, including transport failures (refused, reset);
 * - wedge: no answer within the deadline (10 s).
 */
export type Outcome = 'ok' | 'expected' | 'rate-limited' | 'tolerated' | 'unexpected' | 'wedge';

export interface RequestSample {
  /** ms since the soak's clock started. */
  at: number;
  kind: string;
  server: string;
  /** HTTP status; 0 = no answer (transport failure or wedge). */
  status: number;
  ms: number;
  outcome: Outcome;
  /** Why an unexpected answer is one (status, error code, path), for the report. */
  detail?: string;
}

export type StoreName = 'elasticsearch' | 'mongodb';
export const STORES: readonly StoreName[] = ['elasticsearch', 'mongodb'];

export interface StoreRead {
  store: StoreName;
  up: boolean;
  /** The read's duration as the server measured it (latencyMs of /healthz). */
  latencyMs: number | null;
}

export interface HealthSample {
  at: number;
  server: string;
  /** HTTP status of /healthz; 0 = no answer. */
  status: number;
  /** No answer within the deadline. */
  wedge: boolean;
  /** Taken while a chaos window was open. */
  chaos: boolean;
  /** Empty when /healthz did not answer with a readable body. */
  stores: StoreRead[];
  /**
   * Round trip of `/livez` (no store I/O) just before: how responsive the server itself was.
   * A store read's latency is timed inside the server, so it includes the server's own
   * event-loop delays; a slow /livez beside a slow read points at the server, not the store.
   */
  livezMs: number | null;
}

export interface MinuteBucket {
  /** 1-based. */
  minute: number;
  requests: RequestSample[];
  health: HealthSample[];
  /** RSS samples (kB) per server, in order. */
  rssKb: Record<string, number[]>;
  /** Open jobs seen by each /v2/jobs poll. */
  openJobs: number[];
  /** A chaos window was open at some point of the minute. */
  chaos: boolean;
}

export function newBucket(minute: number, servers: readonly string[]): MinuteBucket {
  return { minute, requests: [], health: [], rssKb: Object.fromEntries(servers.map((s) => [s, []])), openJobs: [], chaos: false };
}

export interface StoreMinute {
  reads: number;
  failed: number;
  p50Ms: number | null;
  p99Ms: number | null;
  /** p99 of the good reads taken outside chaos windows (what the 50 ms rule judges). */
  p99OutsideChaosMs: number | null;
  readsOutsideChaos: number;
}

export interface MinuteSummary {
  minute: number;
  requests: number;
  /** Answers by status class; `none` = no answer (transport failure or wedge). */
  byClass: { '2xx': number; '4xx': number; '429': number; '5xx': number; none: number };
  byOutcome: Record<Outcome, number>;
  /** Unexpected answers with a 5xx status. */
  unexpected5xx: number;
  /** Unexpected answers of any other kind (a wrong 2xx/4xx, a transport failure). */
  unexpectedOther: number;
  /** Requests and health reads without an answer within the deadline. */
  wedges: number;
  healthWedges: number;
  /** Latency of the answered requests (any status), ms. */
  p50Ms: number | null;
  p99Ms: number | null;
  /** Last RSS sample of the minute per server, MB. */
  rssMb: Record<string, number | null>;
  stores: Record<StoreName, StoreMinute>;
  /** p99 of the /livez round trips (server responsiveness without store I/O), ms. */
  livezP99Ms: number | null;
  openJobs: { max: number; last: number } | null;
  chaos: boolean;
  /** Up to five details of unexpected answers or wedges. */
  examples: string[];
}

const OUTCOMES: readonly Outcome[] = ['ok', 'expected', 'rate-limited', 'tolerated', 'unexpected', 'wedge'];

const round1 = (v: number): number => Math.round(v * 10) / 10;
const pct = (values: readonly number[], p: number): number | null => (values.length === 0 ? null : round1(percentile(values, p)));

export function statusClass(status: number): keyof MinuteSummary['byClass'] {
  if (status === 429) return '429';
  if (status >= 200 && status < 300) return '2xx';
  if (status >= 400 && status < 500) return '4xx';
  if (status >= 500) return '5xx';
  return 'none';
}

function summarizeStore(health: readonly HealthSample[], store: StoreName): StoreMinute {
  const reads = health.flatMap((h) => h.stores.filter((s) => s.store === store).map((s) => ({ ...s, chaos: h.chaos })));
  const good = reads.filter((r) => r.up && r.latencyMs !== null);
  const outside = good.filter((r) => !r.chaos);
  return {
    reads: reads.length,
    failed: reads.length - good.length,
    p50Ms: pct(
      good.map((r) => r.latencyMs ?? 0),
      50,
    ),
    p99Ms: pct(
      good.map((r) => r.latencyMs ?? 0),
      99,
    ),
    p99OutsideChaosMs: pct(
      outside.map((r) => r.latencyMs ?? 0),
      99,
    ),
    readsOutsideChaos: outside.length,
  };
}

/** One minute's line of figures from its samples. */
export function summarizeMinute(bucket: MinuteBucket): MinuteSummary {
  const byClass: MinuteSummary['byClass'] = { '2xx': 0, '4xx': 0, '429': 0, '5xx': 0, none: 0 };
  const byOutcome = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  let unexpected5xx = 0;
  let unexpectedOther = 0;
  const examples: string[] = [];
  const answered: number[] = [];
  for (const r of bucket.requests) {
    byClass[statusClass(r.status)]++;
    byOutcome[r.outcome]++;
    if (r.outcome === 'unexpected') {
      if (r.status >= 500) unexpected5xx++;
      else unexpectedOther++;
    }
    if ((r.outcome === 'unexpected' || r.outcome === 'wedge') && examples.length < 5) examples.push(`${r.server} ${r.kind}: ${r.detail ?? r.status}`);
    if (r.status > 0) answered.push(r.ms);
  }
  const healthWedges = bucket.health.filter((h) => h.wedge).length;
  for (const h of bucket.health) if (h.wedge && examples.length < 5) examples.push(`${h.server} /healthz: no answer within the deadline`);
  const rssMb = Object.fromEntries(Object.entries(bucket.rssKb).map(([server, kb]) => [server, kb.length === 0 ? null : round1(kb[kb.length - 1] / 1024)]));
  return {
    minute: bucket.minute,
    requests: bucket.requests.length,
    byClass,
    byOutcome,
    unexpected5xx,
    unexpectedOther,
    wedges: byOutcome.wedge + healthWedges,
    healthWedges,
    p50Ms: pct(answered, 50),
    p99Ms: pct(answered, 99),
    rssMb,
    stores: { elasticsearch: summarizeStore(bucket.health, 'elasticsearch'), mongodb: summarizeStore(bucket.health, 'mongodb') },
    livezP99Ms: pct(
      bucket.health.flatMap((h) => (h.livezMs === null ? [] : [h.livezMs])),
      99,
    ),
    openJobs: bucket.openJobs.length === 0 ? null : { max: Math.max(...bucket.openJobs), last: bucket.openJobs[bucket.openJobs.length - 1] },
    chaos: bucket.chaos,
    examples,
  };
}

/** Counts and latencies of one request kind over the whole run. */
export interface KindTotals {
  kind: string;
  count: number;
  statuses: Record<string, number>;
  outcomes: Record<Outcome, number>;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

/** Accumulates every request by kind for the run's summary (latencies of answered requests). */
export class KindAccumulator {
  private readonly kinds = new Map<string, { statuses: Record<string, number>; outcomes: Record<Outcome, number>; ms: number[] }>();

  add(r: RequestSample): void {
    let k = this.kinds.get(r.kind);
    if (!k) {
      k = { statuses: {}, outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>, ms: [] };
      this.kinds.set(r.kind, k);
    }
    k.statuses[r.status] = (k.statuses[r.status] ?? 0) + 1;
    k.outcomes[r.outcome]++;
    if (r.status > 0) k.ms.push(r.ms);
  }

  totals(): KindTotals[] {
    return [...this.kinds.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, k]) => ({
        kind,
        count: Object.values(k.statuses).reduce((n, v) => n + v, 0),
        statuses: k.statuses,
        outcomes: k.outcomes,
        p50Ms: pct(k.ms, 50),
        p99Ms: pct(k.ms, 99),
        maxMs: k.ms.length === 0 ? null : round1(k.ms.reduce((m, v) => Math.max(m, v), 0)),
      }));
  }
}
