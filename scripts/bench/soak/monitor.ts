/**
 * What the soak watches besides its own calls: each server's `/healthz` (its stores' real
 * reads) every few seconds, each server's RSS from /proc, and the open jobs from
 * `GET /v2/jobs`.
 */
import http from 'node:http';
import { sendRequest } from '../harness/load';
import { readProcMemory } from '../harness/rss';
import { WEDGE_MS } from './classify';
import { STORES, type HealthSample, type StoreRead } from './minute';
import type { Recorder } from './recorder';
import type { Server, SoakClient, Stopper } from './traffic';

/** Job states that are not finished. */
export const RUNNING_STATES = ['cloning', 'parsing', 'indexing'];
export const OPEN_STATES = ['queued', ...RUNNING_STATES];

/** The store reads in a /healthz body (`stores.<name>.status`, `latencyMs`); [] when unreadable. */
export function storeReadsOf(body: string): StoreRead[] {
  let parsed: { stores?: Record<string, { status?: unknown; latencyMs?: unknown }> };
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  if (!parsed.stores) return [];
  return STORES.flatMap((store) => {
    const s = parsed.stores?.[store];
    if (!s) return [];
    return [{ store, up: s.status === 'up', latencyMs: typeof s.latencyMs === 'number' ? s.latencyMs : null }];
  });
}

export interface JobView {
  id: string;
  kind: string;
  libraryId: string;
  version: string;
  state: string;
  attempts: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export class Monitor {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  /** Jobs in each state at the last poll. */
  lastJobs: JobView[] = [];

  constructor(
    private readonly servers: readonly Server[],
    private readonly recorder: Recorder,
    private readonly clock: () => number,
    private readonly chaosOpen: () => boolean,
    private readonly stopper: Stopper,
  ) {}

  /** One /healthz read of a server. */
  async readHealth(server: Server): Promise<HealthSample> {
    const live = await sendRequest(this.agent, { method: 'GET', url: new URL('/livez', server.url) }, { timeoutMs: WEDGE_MS });
    const at = this.clock();
    const chaosBefore = this.chaosOpen();
    const answer = await sendRequest(
      this.agent,
      { method: 'GET', url: new URL('/healthz', server.url), headers: { accept: 'application/json' } },
      { timeoutMs: WEDGE_MS, keepBody: true },
    );
    const wedge = (answer.status === 0 && answer.error === 'timed out') || answer.ms >= WEDGE_MS;
    return {
      at,
      server: server.name,
      status: answer.status,
      wedge,
      chaos: chaosBefore || this.chaosOpen(),
      stores: answer.status > 0 ? storeReadsOf(answer.body ?? '') : [],
      livezMs: live.status === 200 ? Math.round(live.ms * 10) / 10 : null,
    };
  }

  /** Every server's /healthz every `intervalMs`, spread over the interval. */
  async healthLoop(intervalMs: number): Promise<void> {
    await Promise.all(
      this.servers.map(async (server, i) => {
        await this.stopper.sleep((i * intervalMs) / this.servers.length);
        while (!this.stopper.stopped) {
          const started = Date.now();
          this.recorder.health(await this.readHealth(server));
          await this.stopper.sleep(intervalMs - (Date.now() - started));
        }
      }),
    );
  }

  /** RSS of each server process every `intervalMs` (servers without a pid are skipped). */
  async rssLoop(pids: Readonly<Record<string, number>>, intervalMs: number): Promise<void> {
    while (!this.stopper.stopped) {
      for (const [server, pid] of Object.entries(pids)) {
        const m = readProcMemory(pid);
        if (m) this.recorder.rssSample(server, m.rssKb);
      }
      await this.stopper.sleep(intervalMs);
    }
  }

  /** `GET /v2/jobs?limit=200` every `intervalMs` through `client` (so it counts as an admin call). */
  async jobsLoop(client: SoakClient, key: string, intervalMs: number): Promise<void> {
    let n = 0;
    while (!this.stopper.stopped) {
      const started = Date.now();
      await this.pollJobs(client, key, this.servers[n++ % this.servers.length]);
      await this.stopper.sleep(intervalMs - (Date.now() - started));
    }
  }

  async pollJobs(client: SoakClient, key: string, server: Server): Promise<JobView[] | undefined> {
    const sent = await client.send(
      {
        kind: 'jobs (poll)',
        spec: { method: 'GET', url: new URL('/v2/jobs?limit=200', server.url), headers: { accept: 'application/json', authorization: `Bearer ${key}` } },
        expect: { ok: [200] },
      },
      server,
    );
    if (sent.sample.status !== 200) return undefined;
    const jobs = (JSON.parse(sent.body) as { jobs: JobView[] }).jobs;
    this.lastJobs = jobs;
    this.recorder.openJobs(jobs.filter((j) => OPEN_STATES.includes(j.state)).length);
    return jobs;
  }

  /** The jobs, read without counting the call (for the chaos controller's wait for a running job). */
  async pollJobsQuietly(server: Server, key: string): Promise<JobView[] | undefined> {
    const answer = await sendRequest(
      this.agent,
      { method: 'GET', url: new URL('/v2/jobs?limit=200', server.url), headers: { accept: 'application/json', authorization: `Bearer ${key}` } },
      { timeoutMs: WEDGE_MS, keepBody: true },
    );
    if (answer.status !== 200) return undefined;
    return (JSON.parse(answer.body ?? '{}') as { jobs?: JobView[] }).jobs;
  }

  close(): void {
    this.agent.destroy();
  }
}
