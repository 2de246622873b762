/**
 * The soak's pass/fail rules (pure). Each rule gives pass, fail, or "not judged" with the
 * reason (a run too short to judge memory says so instead of passing silently).
 */
import { median } from '../harness/stats';
import type { HealthSample, MinuteSummary, StoreName } from './minute';
import { STORES } from './minute';

/** A store read may fail this long, outside chaos windows, before the soak fails. */
export const MAX_STORE_OUTAGE_MS = 30_000;
/** Store read p99 per minute, outside chaos windows. */
export const MAX_STORE_P99_MS = 50;
/** RSS growth from the baseline to the end. */
export const MAX_RSS_GROWTH = 0.1;
/** A kill must be answered through every server within this. */
export const MAX_RECOVERY_MS = 30_000;
/** RSS baseline: after 5 minutes in runs of 10 minutes or more, else after this warm-up. */
export const WARMUP_MS = 60_000;
export const LONG_RUN_BASELINE_MS = 5 * 60_000;
/** Memory is judged only over at least this much time after the baseline. */
export const MIN_MEMORY_SPAN_MS = 2 * 60_000;
/** Baseline and end RSS are the median of the samples in a window this long (GC sawtooth). */
const RSS_WINDOW_MS = 30_000;

export interface StoreOutage {
  server: string;
  store: StoreName;
  /** ms since the start of the soak. */
  from: number;
  ms: number;
}

/**
 * Follows each server's reads of each store and reports every run of failed reads that
 * lasted longer than {@link MAX_STORE_OUTAGE_MS} outside chaos windows (a read taken in a
 * window ends the run: chaos recovery has its own rule). A /healthz without a readable body
 * says nothing about the stores (a wedge is its own rule) and is skipped.
 */
export class OutageTracker {
  private readonly current = new Map<string, StoreOutage>();
  readonly long: StoreOutage[] = [];

  feed(h: HealthSample): void {
    for (const read of h.stores) {
      const key = `${h.server}\u0000${read.store}`;
      if (h.chaos || read.up) {
        this.current.delete(key);
        continue;
      }
      let outage = this.current.get(key);
      if (!outage) {
        outage = { server: h.server, store: read.store, from: h.at, ms: 0 };
        this.current.set(key, outage);
      }
      outage.ms = h.at - outage.from;
      if (outage.ms > MAX_STORE_OUTAGE_MS && !this.long.includes(outage)) this.long.push(outage);
    }
  }

  /** Outages still running at the end last until then. */
  finish(at: number): void {
    for (const outage of this.current.values()) {
      outage.ms = Math.max(outage.ms, at - outage.from);
      if (outage.ms > MAX_STORE_OUTAGE_MS && !this.long.includes(outage)) this.long.push(outage);
    }
  }
}

export interface RssPoint {
  at: number;
  kb: number;
}

export type MemoryJudgement =
  | { server: string; judged: true; baselineAtMs: number; baselineMb: number; endMb: number; growth: number }
  | { server: string; judged: false; reason: string };

/** Compares a server's RSS after the warm-up (or the first 5 minutes) with its RSS at the end. */
export function judgeMemory(server: string, points: readonly RssPoint[], runMs: number): MemoryJudgement {
  const baselineAt = runMs >= 2 * LONG_RUN_BASELINE_MS ? LONG_RUN_BASELINE_MS : WARMUP_MS;
  const span = runMs - baselineAt;
  if (span < MIN_MEMORY_SPAN_MS) {
    return {
      server,
      judged: false,
      reason: `run too short to judge memory: ${(Math.max(0, span) / 60_000).toFixed(1)} min after the ${baselineAt / 60_000}-min warm-up, need ${MIN_MEMORY_SPAN_MS / 60_000}`,
    };
  }
  const base = points.filter((p) => p.at >= baselineAt && p.at < baselineAt + RSS_WINDOW_MS).map((p) => p.kb);
  const end = points.filter((p) => p.at > runMs - RSS_WINDOW_MS).map((p) => p.kb);
  if (base.length === 0 || end.length === 0) return { server, judged: false, reason: 'no RSS samples at the baseline or at the end' };
  const baselineKb = median(base);
  const endKb = median(end);
  const mb = (kb: number) => Math.round(kb / 102.4) / 10;
  return {
    server,
    judged: true,
    baselineAtMs: baselineAt,
    baselineMb: mb(baselineKb),
    endMb: mb(endKb),
    growth: Math.round((endKb / baselineKb - 1) * 1000) / 1000,
  };
}

export interface KillResult {
  target: 'ferretdb' | 'elasticsearch';
  /** ms since the start of the soak; undefined when the kill could not be made. */
  killedAt?: number;
  pid?: number;
  /** Context and search answered 200 through every server this long after the kill; null = not within the limit. */
  recoveredMs: number | null;
  /** The killed store's reads were up in /healthz of every server this long after the kill. */
  storeBackMs: number | null;
  /** Jobs in cloning/parsing/indexing when the kill was made. */
  runningJobsAtKill: number;
  error?: string;
}

export interface InvariantReport {
  jobs: number;
  stuck: string[];
  failed: string[];
  ranTwice: string[];
  /** Retries a chaos window explains (attempts > 1, "resumed by" lines, alive during a window). */
  explainedRetries: string[];
  halfBuilt: string[];
  checkedLibraries: number;
  /** Why the invariants were not (fully) checked, if they were not. */
  skipped?: string;
}

export interface VerdictInput {
  minutes: readonly MinuteSummary[];
  longOutages: readonly StoreOutage[];
  memory: readonly MemoryJudgement[];
  chaos: boolean;
  kills: readonly KillResult[];
  invariants: InvariantReport;
  /** Servers that exited during the run. */
  serverExits: readonly string[];
}

export type CheckStatus = 'pass' | 'fail' | 'not judged';

export interface Check {
  rule: string;
  status: CheckStatus;
  detail: string;
}

const sum = (minutes: readonly MinuteSummary[], f: (m: MinuteSummary) => number) => minutes.reduce((n, m) => n + f(m), 0);
const check = (rule: string, failed: boolean, detail: string): Check => ({ rule, status: failed ? 'fail' : 'pass', detail });
const list = (items: readonly string[], max = 5) => `${items.slice(0, max).join('; ')}${items.length > max ? `; … ${items.length - max} more` : ''}`;

/** Every rule, in the order the report prints them. */
export function verdict(input: VerdictInput): Check[] {
  const { minutes } = input;
  const checks: Check[] = [];
  const wedges = sum(minutes, (m) => m.wedges);
  checks.push(
    check(
      'no wedge (every request and health read answered within 10 s)',
      wedges > 0,
      wedges > 0 ? `${wedges} without an answer: ${list(minutes.flatMap((m) => m.examples.filter((e) => /no answer within|only after/.test(e))))}` : 'none',
    ),
  );
  const u5 = sum(minutes, (m) => m.unexpected5xx);
  checks.push(
    check(
      'no unexpected 5xx',
      u5 > 0,
      u5 > 0
        ? `${u5}: ${list(minutes.flatMap((m) => m.examples.filter((e) => /: 5\d\d/.test(e))))}`
        : `none (${sum(minutes, (m) => m.byOutcome.tolerated)} tolerated in chaos windows)`,
    ),
  );
  const uo = sum(minutes, (m) => m.unexpectedOther);
  checks.push(
    check(
      'no other unexpected answer (wrong status, refused connection, MCP tool error outside chaos)',
      uo > 0,
      uo > 0 ? `${uo}: ${list(minutes.flatMap((m) => m.examples.filter((e) => !/: 5\d\d|no answer within|only after/.test(e))))}` : 'none',
    ),
  );
  checks.push(
    check(
      'no store read failing for more than 30 s outside a chaos window',
      input.longOutages.length > 0,
      input.longOutages.length > 0
        ? list(input.longOutages.map((o) => `${o.server} ${o.store} from ${(o.from / 1000).toFixed(0)} s for ${(o.ms / 1000).toFixed(0)} s`))
        : 'none',
    ),
  );
  for (const store of STORES) {
    const judged = minutes.filter((m) => m.stores[store].p99OutsideChaosMs !== null);
    const slow = judged.filter((m) => (m.stores[store].p99OutsideChaosMs ?? 0) > MAX_STORE_P99_MS);
    if (judged.length === 0)
      checks.push({
        rule: `${store} read p99 ≤ ${MAX_STORE_P99_MS} ms in every minute outside chaos`,
        status: 'not judged',
        detail: 'no successful store read outside chaos windows',
      });
    else
      checks.push(
        check(
          `${store} read p99 ≤ ${MAX_STORE_P99_MS} ms in every minute outside chaos`,
          slow.length > 0,
          slow.length > 0
            ? list(slow.map((m) => `minute ${m.minute}: ${m.stores[store].p99OutsideChaosMs} ms (server /livez p99 ${m.livezP99Ms ?? '-'} ms)`))
            : `worst ${Math.max(...judged.map((m) => m.stores[store].p99OutsideChaosMs ?? 0))} ms over ${judged.length} minutes`,
        ),
      );
  }
  for (const m of input.memory) {
    if (!m.judged) checks.push({ rule: `server ${m.server} RSS growth ≤ 10%`, status: 'not judged', detail: m.reason });
    else
      checks.push(
        check(
          `server ${m.server} RSS growth ≤ 10%`,
          m.growth > MAX_RSS_GROWTH,
          `${m.baselineMb} MB after ${m.baselineAtMs / 60_000} min → ${m.endMb} MB at the end (${m.growth >= 0 ? '+' : ''}${(m.growth * 100).toFixed(1)}%)`,
        ),
      );
  }
  checks.push(check('every server process kept running', input.serverExits.length > 0, input.serverExits.length > 0 ? list(input.serverExits) : 'yes'));
  if (input.chaos) {
    for (const k of input.kills) {
      const rule = `${k.target} killed and answered again within 30 s`;
      if (k.killedAt === undefined) checks.push(check(rule, true, `not killed: ${k.error ?? 'unknown'}`));
      else
        checks.push(
          check(
            rule,
            k.recoveredMs === null || k.recoveredMs > MAX_RECOVERY_MS,
            `${k.recoveredMs === null ? 'no recovery within the limit' : `context + search 200 on every server after ${(k.recoveredMs / 1000).toFixed(1)} s`}; store reads up after ${k.storeBackMs === null ? '-' : `${(k.storeBackMs / 1000).toFixed(1)} s`}; ${k.runningJobsAtKill} job(s) running at the kill`,
          ),
        );
    }
  }
  const inv = input.invariants;
  if (inv.skipped) checks.push({ rule: 'job and library invariants', status: 'not judged', detail: inv.skipped });
  else {
    checks.push(
      check('every job reached a terminal state (none stuck)', inv.stuck.length > 0, inv.stuck.length > 0 ? list(inv.stuck) : `${inv.jobs} jobs, all ended`),
    );
    checks.push(
      check('no job failed or was cancelled (the soak only sends valid work)', inv.failed.length > 0, inv.failed.length > 0 ? list(inv.failed) : 'none'),
    );
    checks.push(
      check(
        'no job ran twice (attempts 1, or a retry a chaos window explains)',
        inv.ranTwice.length > 0,
        inv.ranTwice.length > 0
          ? list(inv.ranTwice)
          : inv.explainedRetries.length > 0
            ? `none; retried in a chaos window: ${list(inv.explainedRetries)}`
            : 'none',
      ),
    );
    checks.push(
      check(
        'no half-built library (every listed version serves snippets)',
        inv.halfBuilt.length > 0,
        inv.halfBuilt.length > 0 ? list(inv.halfBuilt) : `${inv.checkedLibraries} libraries checked`,
      ),
    );
  }
  return checks;
}

export const passed = (checks: readonly Check[]): boolean => checks.every((c) => c.status !== 'fail');
