/**
 * Scheduled refreshes. Every instance ticks (`SCHEDULE_TICK_SECONDS`); a tick's work belongs
 * to the instance that inserts the lease lock `schedule:tick:<slot>` for its time slot, and
 * each due check of a library is enqueued by whoever inserts `schedule:<key>@<due ms>`.
 * Both are inserts under a unique id (store/locks.ts): FerretDB does not isolate
 * conditional updates, so "the first to set nextCheckAt" could be two instances. The
 * library lock alone guarantees one refresh per due check (instances with skewed clocks
 * tick in different slots); the tick lease spares the other instances the reads.
 *
 * A tick enqueues at most `SCHEDULE_MAX_PER_TICK` refreshes (after a bulk import every
 * library may be due at once); the rest are due still and go at the next ticks.
 *
 * A check's outcome is recorded by a later tick from the job it enqueued: success sets
 * the next check one interval later; a failure backs off (schedule.ts `backoffMs`) and
 * keeps its reason in `check.lastError` for the dashboard. The tick's leader also removes
 * old scheduler locks and webhook delivery locks (catalog/webhooks.ts).
 */
import type { Ports } from '../ports';

/** What the scheduler reads and writes. */
export type SchedulerPorts = Pick<Ports, 'config' | 'log' | 'libraries' | 'jobs' | 'locks' | 'pokeWorker'>;
import type { LibraryRecord } from '../store/models/library';
import { TERMINAL_JOB_STATES, type JobRecord, type JobState } from '../store/models/job';
import { INSTANCE_ID } from '../store/locks';
import { publicJobError } from './job-error';
import { enqueueRefresh } from './add-repo';
import { isGitHost } from '../domain/library-ids';
import { ValidationError } from '../errors';
import { DELIVERY_RETENTION_MS } from './webhooks';
import { backoffMs, EMPTY_CHECK, effectiveHours, lastKnownCurrent, nextCheckAfter } from './schedule';

/** Scheduler locks older than this are removed (a tick slot or a due check is long past). */
const LOCK_RETENTION_MS = 2 * 24 * 3_600_000;

export interface TickResult {
  /** Whether this instance held the tick's lease. */
  leader: boolean;
  /** Library keys whose refresh this instance enqueued. */
  enqueued: string[];
  /** Library keys whose pending check's outcome this instance recorded. */
  recorded: string[];
}

/** How often the tick's leader removes old scheduler and webhook locks (a read of the whole lock collection on FerretDB). */
const PURGE_EVERY_MS = 3_600_000;

/**
 * What the last scan of the catalogue found: nothing needs looking at again before
 * `nextDueAt` unless the catalogue changed (its generation) or a pending check's job ended.
 */
interface ScanMemo {
  generation: string;
  nextDueAt: number;
  /** The jobs of the checks pending at the scan (read alone by the next ticks, not the catalogue). */
  pending: Set<string>;
}

export class RefreshScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private memo: ScanMemo | undefined;
  private purgedAt = 0;

  constructor(
    private readonly services: SchedulerPorts,
    private readonly holder = INSTANCE_ID,
  ) {}

  private get tickMs(): number {
    return this.services.config.scheduleTickSeconds * 1000;
  }

  start(): void {
    if (this.tickMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running !== undefined) return;
      this.running = this.tick()
        .catch((error: unknown) => this.services.log.warn({ err: (error as Error).message }, 'scheduled refresh tick failed; trying again next tick'))
        .finally(() => (this.running = undefined));
    }, this.tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One tick: does the work only when this instance wins the slot's lease. */
  async tick(now = new Date()): Promise<TickResult> {
    const slot = Math.floor(now.getTime() / Math.max(this.tickMs, 1000));
    if (!(await this.services.locks.acquire(`schedule:tick:${slot}`, this.holder))) return { leader: false, enqueued: [], recorded: [] };
    if (now.getTime() - this.purgedAt >= PURGE_EVERY_MS) {
      this.purgedAt = now.getTime();
      await this.services.locks.releaseOlderThan('schedule:', new Date(now.getTime() - LOCK_RETENTION_MS));
      await this.services.locks.releaseOlderThan('webhook:', new Date(now.getTime() - DELIVERY_RETENTION_MS));
      // Jobs that ended before their logs were kept apart (or whose move failed) leave theirs.
      await this.services.jobs.setLogsApart();
    }
    // At rest (nothing changed or due) a tick reads one small document and, in one read, the states of pending checks' jobs, not the catalogue.
    const generation = await this.services.libraries.generation();
    const memo = this.memo;
    if (memo && memo.generation === generation && now.getTime() < memo.nextDueAt && !(await this.anyEnded(memo.pending)))
      return { leader: true, enqueued: [], recorded: [] };
    return { leader: true, ...(await this.runDue(now, generation)) };
  }

  /** Whether one of these jobs ended (or is gone): its check's outcome is to be recorded. */
  private async anyEnded(jobIds: ReadonlySet<string>): Promise<boolean> {
    if (jobIds.size === 0) return false;
    const states = await this.services.jobs.states(jobIds);
    return [...jobIds].some((id) => ended(states.get(id)));
  }

  /**
   * Records the outcome of finished checks, then enqueues every due one this instance wins.
   * Safe to run on several instances at once (the tests do): each due check has one winner.
   */
  async runDue(now = new Date(), generation?: string): Promise<Omit<TickResult, 'leader'>> {
    const defaults = this.services.config.refreshDefaultHours;
    const enqueued: string[] = [];
    const recorded: string[] = [];
    const memo: ScanMemo = { generation: generation ?? '', nextDueAt: Number.POSITIVE_INFINITY, pending: new Set() };
    for await (const page of this.services.libraries.scan()) {
      // The page's pending checks in one read of their jobs' states; only ended jobs are read whole.
      const states = await this.services.jobs.states(page.flatMap((lib) => (lib.check?.pendingJobId ? [lib.check.pendingJobId] : [])));
      for (const listed of page) {
        let lib: LibraryRecord | null = listed;
        const hours = effectiveHours(lib, defaults);
        const pending = lib.check?.pendingJobId;
        if (pending) {
          if (!ended(states.get(pending))) {
            memo.pending.add(pending);
            continue;
          }
          const job = await this.services.jobs.get(pending);
          const outcome = await this.record(lib, pending, job, hours, now);
          if (outcome.wrote) recorded.push(lib._id);
          lib = outcome.lib;
          if (!lib || lib.check?.pendingJobId) continue;
        }
        // A library with nothing to fetch is tried once, so it says why (check.lastError), then skipped.
        if (hours <= 0 || !lib.versions.some((v) => v.generation > 0) || (!refreshable(lib) && lib.check?.lastError)) continue;
        const due = lib.check?.nextCheckAt ? new Date(lib.check.nextCheckAt) : nextCheckAfter(lastKnownCurrent(lib), hours);
        if (due && due > now) memo.nextDueAt = Math.min(memo.nextDueAt, due.getTime());
        if (!due || due > now) continue;
        // A bulk import can make thousands due at once: a few each tick, the rest at the next ones.
        if (enqueued.length >= this.services.config.scheduleMaxPerTick) {
          memo.nextDueAt = now.getTime();
          continue;
        }
        if (!(await this.services.locks.acquire(`schedule:${lib._id}@${due.getTime()}`, this.holder))) continue;
        let job: JobRecord;
        try {
          job = await enqueueRefresh(this.services, lib, {
            ref: undefined,
            encryptedToken: lib.private ? await this.services.jobs.lastToken(lib._id) : null,
            createdBy: null,
            trigger: 'schedule',
          });
        } catch (error) {
          // Nothing to refresh from (a library imported without a repository this server may
          // clone): said on the library, checked again an interval later, the others go on.
          if (!(error instanceof ValidationError)) throw error;
          await this.services.libraries.modify(lib._id, (current) => ({
            check: { ...EMPTY_CHECK, ...(current.check ?? {}), lastError: error.message, nextCheckAt: nextCheckAfter(now, hours) },
          }));
          continue;
        }
        await this.services.libraries.modify(lib._id, (current) => ({
          check: { ...EMPTY_CHECK, ...(current.check ?? {}), pendingJobId: job._id, nextCheckAt: nextCheckAfter(now, hours) },
        }));
        this.services.log.info({ libraryId: lib._id, jobId: job._id }, 'scheduled refresh enqueued');
        enqueued.push(lib._id);
        memo.pending.add(job._id);
      }
    }
    if (generation !== undefined) this.memo = memo;
    return { enqueued, recorded };
  }

  /**
   * Writes a finished check's outcome once (a recorder that loses the revision re-reads and
   * finds no pending job); returns the library as it is now.
   */
  private async record(
    lib: LibraryRecord,
    jobId: string,
    job: JobRecord | null,
    hours: number,
    now: Date,
  ): Promise<{ wrote: boolean; lib: LibraryRecord | null }> {
    let wrote = false;
    const updated = await this.services.libraries.modify(lib._id, (current) => {
      const check = { ...EMPTY_CHECK, ...(current.check ?? {}) };
      wrote = check.pendingJobId === jobId;
      if (!wrote) return null;
      const at = job?.finishedAt ? new Date(job.finishedAt) : now;
      // Its record was removed (the dashboard tidies ended jobs): the outcome is unknown, so
      // no failure is counted; the next check comes one interval on.
      if (!job) return { check: { ...check, pendingJobId: null, nextCheckAt: nextCheckAfter(now, hours) } };
      if (job.state === 'finalized') {
        return { check: { ...check, pendingJobId: null, lastCheckedAt: at, failures: 0, lastError: null, nextCheckAt: nextCheckAfter(at, hours) } };
      }
      const failures = check.failures + 1;
      const reason = publicJobError(job) ?? `the refresh was ${job.state}`;
      const retry = hours > 0 ? new Date(at.getTime() + backoffMs(hours, failures)) : null;
      return { check: { ...check, pendingJobId: null, lastCheckedAt: at, failures, lastError: reason, nextCheckAt: retry } };
    });
    return { wrote, lib: updated };
  }
}

/** Whether a job in this state (absent: its record is gone) has ended. */
function ended(state: JobState | undefined): boolean {
  return state === undefined || TERMINAL_JOB_STATES.includes(state);
}

/**
 * Whether the library has a source a refresh can fetch: a Git library its clone URL, any other
 * its source parameters. A library imported from a bundle has neither (a path on the exporting
 * server is left out of the bundle): scheduling it would only queue refreshes that fail.
 */
export function refreshable(lib: Pick<LibraryRecord, 'source' | 'cloneUrl' | 'sourceParams'>): boolean {
  if (isGitHost(lib.source)) return lib.cloneUrl !== '';
  return lib.source !== 'openapi' && lib.sourceParams !== null && lib.sourceParams !== undefined;
}
