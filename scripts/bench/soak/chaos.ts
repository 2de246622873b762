/**
 * `--chaos`: `kill -9` of FerretDB and, later, of Elasticsearch while jobs run; the
 * supervisor started by `services.sh up` restarts each on its port. A chaos window opens
 * at the kill and closes {@link GRACE_MS} after recovery (context and search 200 through
 * every server, and every server's /healthz reading the killed store again), or
 * {@link GIVE_UP_MS} after the kill when it does not recover.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { sendRequest } from '../harness/load';
import { storePids } from '../harness/cpu';
import { benchSpec, contextOp, searchOp, type Question } from './mix';
import { RUNNING_STATES, storeReadsOf, type Monitor } from './monitor';
import type { KillResult } from './rules';
import type { Server, Stopper } from './traffic';

export type KillTarget = KillResult['target'];

/** After recovery, the window stays open this long (gates reopen, pools reconnect). */
export const GRACE_MS = 10_000;
/** A kill not recovered after this closes its window anyway (and fails the recovery rule). */
export const GIVE_UP_MS = 90_000;
/** How long the soak waits for a job to be running before a kill. */
const JOB_WAIT_MS = 15_000;

/**
 * When the work for each kill starts: FerretDB at 30% of the run (≥ 45 s), Elasticsearch
 * 35% later (≥ 60 s). The kill follows as soon as a job runs (within 15 s).
 */
export function chaosSchedule(runMs: number): Array<{ target: KillTarget; atMs: number }> {
  const first = Math.max(45_000, Math.round(runMs * 0.3));
  return [
    { target: 'ferretdb', atMs: first },
    { target: 'elasticsearch', atMs: first + Math.max(60_000, Math.round(runMs * 0.35)) },
  ];
}

export interface Window {
  target: KillTarget;
  start: number;
  end?: number;
}

/** Whether `at` falls in a window (an open window has no end yet). */
export function inWindow(windows: readonly Window[], at: number): boolean {
  return windows.some((w) => at >= w.start && (w.end === undefined || at <= w.end));
}

/** Throws with what to do when services.sh reports no running supervisor (nothing would restart a killed store). */
export function assertSupervisor(rootDir: string): string {
  let status: string;
  try {
    status = execFileSync('bash', [path.join(rootDir, 'scripts', 'stores', 'services.sh'), 'status'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(
      `--chaos: \`bash scripts/stores/services.sh status\` failed (${(error as Error).message.split('\n')[0]}): start the local stores with \`npm run services -- up\`.`,
    );
  }
  if (!/^supervisor: running/m.test(status)) {
    throw new Error(
      `--chaos needs the store supervisor, which restarts a killed store, and \`bash scripts/stores/services.sh status\` says:\n${status.trim()}\nStart it with \`npm run services -- up\` (or \`restart\`) and run the soak again.`,
    );
  }
  return status.trim();
}

export interface ChaosDeps {
  servers: readonly Server[];
  monitor: Monitor;
  stopper: Stopper;
  clock: () => number;
  dataDir: string;
  elasticsearchUrl: string;
  /**
   * Questions to probe recovery with; before each kill the first one every server answers
   * with 200 is chosen (a library a soak write just broke must not pass for an outage).
   */
  candidates: () => Question[];
  /** Starts indexing work, so jobs run during the kill. */
  startJobs: () => Promise<void>;
  /** An admin key to see the jobs (without one the kill does not wait for a running job). */
  key: string | undefined;
  log: (line: string) => void;
}

export class Chaos {
  readonly windows: Window[] = [];
  readonly kills: KillResult[] = [];
  private readonly agent = new http.Agent({ keepAlive: false });

  constructor(private readonly deps: ChaosDeps) {}

  isOpen(at = this.deps.clock()): boolean {
    return inWindow(this.windows, at);
  }

  /** Kills at the scheduled times (relative to the soak's clock) until stopped. */
  async run(runMs: number): Promise<void> {
    for (const { target, atMs } of chaosSchedule(runMs)) {
      await this.deps.stopper.sleep(atMs - this.deps.clock());
      if (this.deps.stopper.stopped) return;
      const probe = await this.chooseProbe();
      if (!probe) this.deps.log(`chaos: no question answered 200 on every server before the ${target} kill; its recovery is judged on /healthz alone`);
      void this.deps.startJobs().catch(() => undefined);
      const running = await this.waitForRunningJob(JOB_WAIT_MS);
      if (this.deps.stopper.stopped) return;
      this.kills.push(await this.kill(target, running, probe));
    }
  }

  private async waitForRunningJob(maxMs: number): Promise<number> {
    const key = this.deps.key;
    if (!key) return 0;
    const until = Date.now() + maxMs;
    let n = 0;
    for (;;) {
      const jobs = (await this.deps.monitor.pollJobsQuietly(this.deps.servers[n++ % this.deps.servers.length], key)) ?? [];
      const running = jobs.filter((j) => RUNNING_STATES.includes(j.state)).length;
      if (running > 0 || Date.now() >= until || this.deps.stopper.stopped) return running;
      await this.deps.stopper.sleep(300);
    }
  }

  private async kill(target: KillTarget, runningJobsAtKill: number, probe: Question | undefined): Promise<KillResult> {
    const pids = storePids(this.deps.dataDir, this.deps.elasticsearchUrl);
    const pid = target === 'ferretdb' ? pids.mongodb : pids.elasticsearch;
    if (pid === undefined)
      return { target, recoveredMs: null, storeBackMs: null, runningJobsAtKill, error: `no live ${target} pid under ${path.join(this.deps.dataDir, 'run')}` };
    const window: Window = { target, start: this.deps.clock() };
    this.windows.push(window);
    try {
      process.kill(pid, 'SIGKILL');
    } catch (error) {
      window.end = this.deps.clock();
      return { target, pid, recoveredMs: null, storeBackMs: null, runningJobsAtKill, error: `kill -9 ${pid} failed: ${(error as Error).message}` };
    }
    this.deps.log(`chaos: kill -9 ${target} (pid ${pid}) at ${(window.start / 1000).toFixed(0)} s with ${runningJobsAtKill} job(s) running`);
    const store = target === 'ferretdb' ? 'mongodb' : 'elasticsearch';
    let storeBackMs: number | null = null;
    let recoveredMs: number | null = null;
    while (this.deps.clock() - window.start < GIVE_UP_MS && !this.deps.stopper.stopped) {
      await this.deps.stopper.sleep(500);
      const round = await this.probeRound(store, probe);
      const elapsed = this.deps.clock() - window.start;
      if (round.storeUp && storeBackMs === null) storeBackMs = elapsed;
      if (round.storeUp && round.served) {
        recoveredMs = elapsed;
        break;
      }
    }
    window.end = this.deps.clock() + (recoveredMs === null ? 0 : GRACE_MS);
    this.deps.log(
      `chaos: ${target} ${recoveredMs === null ? `not recovered after ${GIVE_UP_MS / 1000} s` : `recovered after ${(recoveredMs / 1000).toFixed(1)} s`}`,
    );
    return { target, killedAt: window.start, pid, recoveredMs, storeBackMs, runningJobsAtKill };
  }

  /** The first candidate question that context and search answer with 200 on every server. */
  private async chooseProbe(): Promise<Question | undefined> {
    for (const q of this.deps.candidates()) {
      const answers = await Promise.all(
        this.deps.servers.flatMap((s) =>
          [contextOp(s.url, q, 'json', undefined), searchOp(s.url, q, undefined)].map((op) => sendRequest(this.agent, benchSpec(op.spec), { timeoutMs: 5000 })),
        ),
      );
      if (answers.every((a) => a.status === 200)) return q;
    }
    return undefined;
  }

  /** Context and search through every server, and whether every /healthz reads `store`. */
  private async probeRound(store: 'mongodb' | 'elasticsearch', q: Question | undefined): Promise<{ served: boolean; storeUp: boolean }> {
    const ok = (status: number) => status === 200;
    const results = await Promise.all(
      this.deps.servers.flatMap((s) => [
        q
          ? sendRequest(this.agent, benchSpec(contextOp(s.url, q, 'json', undefined).spec), { timeoutMs: 5000 }).then((a) => ok(a.status))
          : Promise.resolve(true),
        q ? sendRequest(this.agent, benchSpec(searchOp(s.url, q, undefined).spec), { timeoutMs: 5000 }).then((a) => ok(a.status)) : Promise.resolve(true),
        sendRequest(this.agent, { method: 'GET', url: new URL('/healthz', s.url) }, { timeoutMs: 5000, keepBody: true }).then((a) =>
          storeReadsOf(a.body ?? '').some((r) => r.store === store && r.up),
        ),
      ]),
    );
    const per = 3;
    const served = results.every((ok, i) => i % per === 2 || ok);
    const storeUp = results.every((ok, i) => i % per !== 2 || ok);
    return { served, storeUp };
  }

  close(): void {
    this.agent.destroy();
  }
}
