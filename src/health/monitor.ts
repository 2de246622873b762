/**
 * What the server knows about its stores, from real reads: every second each store answers
 * a bounded read (MongoDB: a find on a small collection over a connection of its own;
 * Elasticsearch: a search on the snippets alias), made in a thread of its own so that a
 * busy main thread neither inflates the latency nor fails a read (health/probe-thread.ts).
 * `ping` is not enough: a wedged FerretDB answers ping while every query hangs.
 *
 * A store that failed two probes in a row (or that a request found unreachable and the
 * next probe confirmed) is down, and the gate makes requests that need it fail at once
 * with 503 instead of each waiting out the store timeout; one good probe brings it back.
 */
import type { Logger } from '../logger';
import { StoreUnavailableError } from '../errors';

export type StoreName = 'mongodb' | 'elasticsearch';

/** A bounded real read of one store; resolves with its latency (ms), rejects when it failed. */
export interface StoreProbe {
  name: StoreName;
  read(timeoutMs: number): Promise<number>;
}

export interface StoreReading {
  status: 'up' | 'down';
  /** Duration of the latest read, ms (null before the first). */
  latencyMs: number | null;
  /** Percentiles of the reads of the last minutes, ms. */
  p50Ms: number | null;
  p99Ms: number | null;
  checkedAt: string | null;
  /** Why the latest read failed. */
  error?: string;
}

/**
 * The fail-fast switch, shared with the stores' clients before the monitor exists (the
 * MongoDB plugin is installed when the connection is made).
 */
export class StoreGate {
  private readonly down = new Set<StoreName>();

  isDown(name: StoreName): boolean {
    return this.down.has(name);
  }

  /** Throws the 503 of a store known to be down. */
  assertUp(name: StoreName): void {
    if (this.down.has(name)) throw new StoreUnavailableError(name);
  }

  set(name: StoreName, up: boolean): void {
    if (up) this.down.delete(name);
    else this.down.add(name);
  }
}

export interface MonitorOptions {
  probes: StoreProbe[];
  gate: StoreGate;
  log: Logger;
  /** Time between probes (default 1 s). */
  intervalMs?: number;
  /**
   * Time between probes while nothing uses the stores (default 30 s): an idle server costs the
   * stores nothing much, and Elasticsearch's shards, not searched for 30 s, stop refreshing.
   * Requests `touch` the monitor; the first after an idle spell probes at once.
   */
  idleIntervalMs?: number;
  /** How long without a request counts as idle (default 30 s). */
  idleAfterMs?: number;
  /** How long a probe may take (default 2 s). */
  timeoutMs?: number;
  /** Consecutive failed probes that make a store down (default 2). */
  downAfter?: number;
}

const WINDOW = 300;

interface StoreState {
  probe: StoreProbe;
  failures: number;
  reading: StoreReading;
  recent: number[];
  running: Promise<StoreReading> | undefined;
}

export class StoreMonitor {
  private readonly stores = new Map<StoreName, StoreState>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly intervalMs: number;
  private readonly idleIntervalMs: number;
  private readonly idleAfterMs: number;
  private lastTouch = 0;
  private checking = false;
  private readonly timeoutMs: number;
  private readonly downAfter: number;

  constructor(private readonly options: MonitorOptions) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.idleIntervalMs = Math.max(this.intervalMs, options.idleIntervalMs ?? 30_000);
    this.idleAfterMs = options.idleAfterMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.downAfter = options.downAfter ?? 2;
    for (const probe of options.probes) {
      this.stores.set(probe.name, {
        probe,
        failures: 0,
        recent: [],
        running: undefined,
        reading: { status: 'up', latencyMs: null, p50Ms: null, p99Ms: null, checkedAt: null },
      });
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  /** A request is being served: probe at the short interval (at once, after an idle spell). */
  touch(now = Date.now()): void {
    const wasIdle = this.idle(now);
    this.lastTouch = now;
    if (wasIdle && !this.stopped && !this.checking) {
      clearTimeout(this.timer);
      this.schedule(0);
    }
  }

  private idle(now = Date.now()): boolean {
    return now - this.lastTouch > this.idleAfterMs;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(delay?: number): void {
    if (this.stopped) return;
    // A store that is down is probed at the short interval whatever the traffic (to reopen the gate soon).
    const anyDown = [...this.stores.values()].some((s) => s.reading.status === 'down');
    const ms = delay ?? (anyDown || !this.idle() ? this.intervalMs : this.idleIntervalMs);
    this.timer = setTimeout(() => {
      this.checking = true;
      void this.check().finally(() => {
        this.checking = false;
        this.schedule();
      });
    }, ms);
    this.timer.unref();
  }

  /** Reads every store now (a read already running is joined) and returns what it found. */
  async check(): Promise<Record<StoreName, StoreReading>> {
    const entries = await Promise.all([...this.stores.entries()].map(async ([name, s]) => [name, await this.probeOnce(s)] as const));
    return Object.fromEntries(entries) as Record<StoreName, StoreReading>;
  }

  /**
   * A request found `name` unreachable: probe it now, so the gate closes as soon as the
   * store is confirmed down rather than after the next two probes.
   */
  suspect(name: StoreName): void {
    const s = this.stores.get(name);
    if (!s) return;
    s.failures = Math.max(s.failures, this.downAfter - 1);
    void this.probeOnce(s);
  }

  reading(name: StoreName): StoreReading | undefined {
    return this.stores.get(name)?.reading;
  }

  private probeOnce(s: StoreState): Promise<StoreReading> {
    s.running ??= this.runProbe(s).finally(() => (s.running = undefined));
    return s.running;
  }

  private async runProbe(s: StoreState): Promise<StoreReading> {
    const started = performance.now();
    let error: string | undefined;
    let measured: number | undefined;
    try {
      measured = await s.probe.read(this.timeoutMs);
    } catch (e) {
      error = (e as Error).message || String(e);
    }
    const latency = Math.round((measured ?? performance.now() - started) * 10) / 10;
    const name = s.probe.name;
    const wasUp = s.reading.status === 'up';
    if (error === undefined) {
      s.failures = 0;
      s.recent.push(latency);
      if (s.recent.length > WINDOW) s.recent.shift();
      if (!wasUp) this.options.log.info({ store: name, latencyMs: latency }, `${name} answers reads again`);
      this.options.gate.set(name, true);
      s.reading = { status: 'up', latencyMs: latency, ...percentiles(s.recent), checkedAt: new Date().toISOString() };
    } else {
      s.failures++;
      const down = s.failures >= this.downAfter || !wasUp;
      if (down && wasUp) this.options.log.warn({ store: name, err: error }, `${name} does not answer reads; requests that need it fail fast until it does`);
      this.options.gate.set(name, !down);
      s.reading = { status: down ? 'down' : 'up', latencyMs: latency, ...percentiles(s.recent), checkedAt: new Date().toISOString(), error };
    }
    return s.reading;
  }
}

function percentiles(values: number[]): { p50Ms: number | null; p99Ms: number | null } {
  if (values.length === 0) return { p50Ms: null, p99Ms: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;
  return { p50Ms: at(0.5), p99Ms: at(0.99) };
}
