/**
 * One build of a library version at a time: `build:<library key>@<version>` is held by the
 * job (`job:<id>`) or inline build (`inline:<random>`, an OpenAPI upload) building it. Two
 * builds of one version at once would each delete the other's generation when publishing
 * (the soak found libraries listed but serving nothing after two servers refreshed one
 * library together). A holder that finished or vanished (a job in a terminal state or
 * gone; an inline build older than two minutes) is broken by the next taker.
 */
import crypto from 'node:crypto';
import type { JobState } from './models/job';
import { TERMINAL_JOB_STATES } from './models/job';
import type { LockStore } from './locks';

const slotKey = (libraryKey: string, version: string) => `build:${libraryKey}@${version}`;
/** An inline build that has held its slot this long died. */
const INLINE_BUILD_STALE_MS = 120_000;

/** Another build of the library version did not end in time (an inline build gives up). */
export class BuildBusyError extends Error {
  constructor(readonly libraryKey: string) {
    super(`another build of ${libraryKey} is running`);
  }
}

export class BuildSlots {
  constructor(
    private readonly locks: LockStore,
    /** A job's state, or null when it does not exist. */
    private readonly jobState: (jobId: string) => Promise<JobState | null>,
  ) {}

  /** Whether `holder` could take the slot now (free, its own, or abandoned). */
  async isFree(libraryKey: string, version: string, holder: string): Promise<boolean> {
    const held = await this.locks.get(slotKey(libraryKey, version));
    return !held || held.holder === holder || (await this.isAbandoned(held.holder, held.at));
  }

  /** Takes the slot for `holder`; re-entrant for the same holder (a job resumed after a crash). */
  async take(libraryKey: string, version: string, holder: string): Promise<boolean> {
    const key = slotKey(libraryKey, version);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.locks.acquire(key, holder)) return true;
      const held = await this.locks.get(key);
      if (!held) continue;
      if (held.holder === holder) return true;
      if (!(await this.isAbandoned(held.holder, held.at))) return false;
      await this.locks.breakIfStale(held, 0);
    }
    return false;
  }

  async free(libraryKey: string, version: string, holder: string): Promise<void> {
    await this.locks.releaseIf(slotKey(libraryKey, version), holder);
  }

  /** Runs `build` holding the slot, waiting up to `waitMs` for it. */
  async run<T>(libraryKey: string, version: string, waitMs: number, build: () => Promise<T>): Promise<T> {
    const holder = `inline:${crypto.randomBytes(6).toString('hex')}`;
    const until = Date.now() + waitMs;
    while (!(await this.take(libraryKey, version, holder))) {
      if (Date.now() >= until) throw new BuildBusyError(libraryKey);
      await new Promise((r) => setTimeout(r, 250));
    }
    try {
      return await build();
    } finally {
      await this.free(libraryKey, version, holder).catch(() => undefined);
    }
  }

  private async isAbandoned(holder: string, at: Date): Promise<boolean> {
    if (holder.startsWith('job:')) {
      const state = await this.jobState(holder.slice(4));
      return state === null || TERMINAL_JOB_STATES.includes(state);
    }
    return Date.now() - new Date(at).getTime() > INLINE_BUILD_STALE_MS;
  }
}
