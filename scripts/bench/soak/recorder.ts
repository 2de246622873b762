/**
 * Collects the soak's samples into the current minute and closes minutes as the clock
 * passes them. Holds the whole run's RSS series (one point per server every few seconds)
 * and per-kind totals; request samples live only until their minute is summarised.
 */
import { KindAccumulator, newBucket, summarizeMinute, type HealthSample, type MinuteBucket, type MinuteSummary, type RequestSample } from './minute';
import { OutageTracker, type RssPoint } from './rules';

export class Recorder {
  private bucket: MinuteBucket;
  readonly minutes: MinuteSummary[] = [];
  readonly kinds = new KindAccumulator();
  readonly outages = new OutageTracker();
  readonly rss: Record<string, RssPoint[]>;
  /** Every health read, compact (for the JSON report): [at ms, server, status, ES ms, Mongo ms, /livez ms] (null = down or unknown). */
  readonly healthSeries: Array<[number, string, number, number | null, number | null, number | null]> = [];

  constructor(
    private readonly servers: readonly string[],
    /** ms since the start of the soak. */
    private readonly clock: () => number,
    /** Whether a chaos window is open now. */
    private readonly chaosOpen: () => boolean,
  ) {
    this.bucket = newBucket(1, servers);
    this.rss = Object.fromEntries(servers.map((s) => [s, []]));
  }

  request(r: RequestSample): void {
    this.bucket.requests.push(r);
    this.kinds.add(r);
    if (this.chaosOpen()) this.bucket.chaos = true;
  }

  health(h: HealthSample): void {
    this.bucket.health.push(h);
    const ms = (store: string) => h.stores.find((r) => r.store === store && r.up)?.latencyMs ?? null;
    this.healthSeries.push([h.at, h.server, h.status, ms('elasticsearch'), ms('mongodb'), h.livezMs]);
    this.outages.feed(h);
    if (h.chaos) this.bucket.chaos = true;
  }

  rssSample(server: string, kb: number): void {
    this.bucket.rssKb[server]?.push(kb);
    this.rss[server]?.push({ at: this.clock(), kb });
  }

  openJobs(n: number): void {
    this.bucket.openJobs.push(n);
  }

  /** Closes the current minute and starts the next; returns the closed minute's summary. */
  closeMinute(): MinuteSummary {
    if (this.chaosOpen()) this.bucket.chaos = true;
    const summary = summarizeMinute(this.bucket);
    this.minutes.push(summary);
    this.bucket = newBucket(this.bucket.minute + 1, this.servers);
    if (this.chaosOpen()) this.bucket.chaos = true;
    return summary;
  }
}
