/**
 * The end checks, through the API once the traffic has stopped: every job ended (after a
 * bounded wait), none failed, none ran twice unless a chaos window explains the retry, and
 * every listed library version serves snippets (no half-built library).
 */
import http from 'node:http';
import { sendRequest } from '../harness/load';
import { inWindow, type Window } from './chaos';
import { OPEN_STATES, type JobView } from './monitor';
import type { InvariantReport } from './rules';
import type { Server } from './traffic';

export const TERMINAL_STATES = ['finalized', 'failed', 'cancelled'];
/** A job's log line that says another attempt took it up (src/indexing/jobs/worker.ts). */
const RESUMED = /^resumed by /;

export interface JobVerdict {
  stuck?: string;
  failed?: string;
  ranTwice?: string;
  explainedRetry?: string;
}

/**
 * What one job says about the invariants. A job with more than one attempt ran twice unless
 * a chaos window explains the retry: its log has "resumed by" lines and it was alive during
 * a window (created before the window closed, finished after it opened). The lines are kept
 * in the verdict: "after N store outage(s)" (put back by its worker) and "after the previous
 * worker stopped" (its lease lapsed: the worker could not record the interruption) read
 * differently.
 */
export function judgeJob(job: JobView, log: readonly string[] | undefined, windows: readonly Window[], startedAtMs: number, nowMs: number): JobVerdict {
  const name = `${job.id} (${job.kind} ${job.libraryId}@${job.version})`;
  const out: JobVerdict = {};
  if (!TERMINAL_STATES.includes(job.state)) out.stuck = `${name} still ${job.state}`;
  else if (job.state !== 'finalized') out.failed = `${name} ${job.state}: ${(job.error ?? '').slice(0, 160)}`;
  if (job.attempts > 1) {
    const created = Date.parse(job.createdAt) - startedAtMs;
    const finished = job.finishedAt ? Date.parse(job.finishedAt) - startedAtMs : nowMs;
    const overlaps = windows.some((w) => created <= (w.end ?? nowMs) && finished >= w.start) || inWindow(windows, created);
    const resumed = (log ?? []).filter((l) => RESUMED.test(l));
    const why = resumed.length > 0 ? ` (${resumed.map((l) => l.replace(/^resumed by \S+ /, '')).join('; ')})` : ' (no "resumed by" line in its log)';
    if (overlaps && resumed.length > 0) out.explainedRetry = `${name}: ${job.attempts} attempts${why}`;
    else out.ranTwice = `${name}: ${job.attempts} attempts${overlaps ? '' : ', outside any chaos window'}${why}`;
  }
  return out;
}

interface LibraryView {
  id: string;
  builds: Array<{ version: string; totalSnippets: number }>;
}

export interface InvariantDeps {
  servers: readonly Server[];
  key: string;
  windows: readonly Window[];
  /** Date.now() when the soak's clock started. */
  startedAtMs: number;
  /** A question to ask a library (its own when known). */
  questionFor: (libraryId: string) => string;
  /** Libraries the soak added: each must be listed and serve snippets. */
  added: readonly string[];
  log: (line: string) => void;
}

export class InvariantChecker {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  constructor(private readonly deps: InvariantDeps) {}

  private async get<T>(path: string, server = this.deps.servers[0]): Promise<{ status: number; body?: T; text: string }> {
    const a = await sendRequest(
      this.agent,
      { method: 'GET', url: new URL(path, server.url), headers: { accept: 'application/json', authorization: `Bearer ${this.deps.key}` } },
      { timeoutMs: 30_000, keepBody: true },
    );
    let body: T | undefined;
    try {
      body = a.status === 200 ? (JSON.parse(a.body ?? '') as T) : undefined;
    } catch {
      body = undefined;
    }
    return { status: a.status, body, text: (a.body ?? a.error ?? '').slice(0, 200) };
  }

  /** Waits until no job is open, up to `maxMs`; returns the open count at the end. */
  async drain(maxMs: number): Promise<number> {
    const until = Date.now() + maxMs;
    let lastSaid = 0;
    for (;;) {
      const r = await this.get<{ jobs: JobView[] }>('/v2/jobs?limit=200');
      const open = r.body ? r.body.jobs.filter((j) => OPEN_STATES.includes(j.state)).length : -1;
      if (open === 0 || Date.now() >= until) return open;
      if (Date.now() - lastSaid > 10_000) {
        this.deps.log(`  waiting for ${open < 0 ? 'the jobs list' : `${open} open job(s)`} to end (up to ${Math.round((until - Date.now()) / 1000)} s more) …`);
        lastSaid = Date.now();
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  }

  /** The jobs found by the last check, and the logs of those with more than one attempt, for the JSON report. */
  jobs: JobView[] = [];
  readonly retriedLogs: Record<string, string[]> = {};

  async check(): Promise<InvariantReport> {
    const libs = await this.get<{ libraries: LibraryView[] }>('/v2/libraries');
    if (!libs.body)
      return {
        jobs: 0,
        stuck: [],
        failed: [],
        ranTwice: [],
        explainedRetries: [],
        halfBuilt: [],
        checkedLibraries: 0,
        skipped: `GET /v2/libraries answered ${libs.status}: ${libs.text}`,
      };
    const jobs = new Map<string, JobView>();
    for (const path of ['/v2/jobs?limit=200', ...libs.body.libraries.map((l) => `/v2/jobs?limit=200&libraryId=${encodeURIComponent(l.id)}`)]) {
      for (const j of (await this.get<{ jobs: JobView[] }>(path)).body?.jobs ?? []) jobs.set(j.id, j);
    }
    this.jobs = [...jobs.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const report: InvariantReport = { jobs: jobs.size, stuck: [], failed: [], ranTwice: [], explainedRetries: [], halfBuilt: [], checkedLibraries: 0 };
    const now = Date.now() - this.deps.startedAtMs;
    for (const job of jobs.values()) {
      const log = job.attempts > 1 ? (await this.get<{ log: Array<{ at: string; message: string }> }>(`/v2/jobs/${job.id}`)).body?.log : undefined;
      if (log) this.retriedLogs[job.id] = log.map((l) => `${l.at} ${l.message}`);
      const v = judgeJob(
        job,
        log?.map((l) => l.message),
        this.deps.windows,
        this.deps.startedAtMs,
        now,
      );
      if (v.stuck) report.stuck.push(v.stuck);
      if (v.failed) report.failed.push(v.failed);
      if (v.ranTwice) report.ranTwice.push(v.ranTwice);
      if (v.explainedRetry) report.explainedRetries.push(v.explainedRetry);
    }
    const listed = new Set(libs.body.libraries.map((l) => l.id));
    for (const id of this.deps.added) if (!listed.has(id)) report.halfBuilt.push(`${id}: added by the soak but not in GET /v2/libraries`);
    for (const [i, lib] of libs.body.libraries.entries()) {
      report.checkedLibraries++;
      for (const build of lib.builds) {
        const id = build.version === 'latest' ? lib.id : `${lib.id}/${build.version}`;
        const query = encodeURIComponent(this.deps.questionFor(lib.id));
        const server = this.deps.servers[i % this.deps.servers.length];
        const r = await this.get<{ snippets?: unknown[] }>(`/v2/context?type=json&libraryId=${encodeURIComponent(id)}&query=${query}`, server);
        const n = r.body?.snippets?.length ?? 0;
        if (r.status !== 200 || n === 0)
          report.halfBuilt.push(
            `${id} (listed, ${build.totalSnippets} snippets) answers ${r.status} with ${n} snippets through ${server.name}${r.status !== 200 ? `: ${r.text}` : ''}`,
          );
      }
    }
    return report;
  }

  close(): void {
    this.agent.destroy();
  }
}
