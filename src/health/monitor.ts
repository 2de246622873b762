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
  private readonly timeoutMs: number;
  private readonly downAfter: number;

  constructor(private readonly options: MonitorOptions) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.downAfter = options.downAfter ?? 2;
    for (const probe of options.probes) {
      this.stores.set(probe.name, { probe, failures: 0, recent: [], running: undefined, reading: { status: 'up', latencyMs: null, p50Ms: null, p99Ms: null, checkedAt: null } });
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.check().finally(() => this.schedule());
    }, this.intervalMs);
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
