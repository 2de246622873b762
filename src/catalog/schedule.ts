/**
 * Schedules as pure functions: a library's interval (its own, or its source kind's default),
 * when its next check is due, and how a failing library backs off. The scheduler
 * (scheduler.ts) and the libraries routes share them, so the dashboard shows what the
 * scheduler will do.
 */
import { z } from 'zod';
import { SCHEDULED_SOURCES, type Config, type ScheduledSource } from '../config';
import type { LibraryCheckState, LibraryRecord, LibrarySchedule } from '../store/models/library';

const HOUR_MS = 3_600_000;
/** A failing library waits at most this long between attempts (a week). */
export const MAX_BACKOFF_MS = 7 * 24 * HOUR_MS;

export const DEFAULT_SCHEDULE: LibrarySchedule = { mode: 'default', everyHours: 0 };
export const EMPTY_CHECK: LibraryCheckState = { lastCheckedAt: null, nextCheckAt: null, failures: 0, lastError: null, pendingJobId: null };

/** `PATCH /v2/libraries/{id}` `schedule`: "default", "never", or hours between refreshes. */
export const scheduleInput = z.union(
  [
    z.literal('default'),
    z.literal('never'),
    z
      .number({ invalid_type_error: 'schedule must be "default", "never" or a number of hours' })
      .int('schedule hours must be a whole number')
      .min(1, 'schedule hours must be at least 1')
      .max(8760, 'schedule hours must be at most 8760 (a year)'),
  ],
  {
    errorMap: () => ({ message: 'schedule must be "default", "never" or a whole number of hours from 1 to 8760' }),
  },
);
export type ScheduleInput = z.infer<typeof scheduleInput>;

export function scheduleFromInput(input: ScheduleInput): LibrarySchedule {
  if (input === 'default') return DEFAULT_SCHEDULE;
  if (input === 'never') return { mode: 'never', everyHours: 0 };
  return { mode: 'every', everyHours: input };
}

/** Hours between refreshes of `lib` (0: never). Uploads are never refreshed by a schedule. */
export function effectiveHours(lib: Pick<LibraryRecord, 'source' | 'schedule'>, defaults: Config['refreshDefaultHours']): number {
  if (!(SCHEDULED_SOURCES as readonly string[]).includes(lib.source)) return 0;
  const schedule = lib.schedule ?? DEFAULT_SCHEDULE;
  if (schedule.mode === 'never') return 0;
  if (schedule.mode === 'every') return schedule.everyHours;
  return defaults[lib.source as ScheduledSource] ?? 0;
}

/** The last time the library was known current: its last check, else its newest build. */
export function lastKnownCurrent(lib: Pick<LibraryRecord, 'check' | 'versions' | 'updatedAt'>): Date {
  if (lib.check?.lastCheckedAt) return new Date(lib.check.lastCheckedAt);
  const builds = lib.versions.map((v) => new Date(v.lastUpdateDate).getTime()).filter(Number.isFinite);
  return builds.length > 0 ? new Date(Math.max(...builds)) : new Date(lib.updatedAt ?? Date.now());
}

/** When a library with `hours` between checks that was current at `from` is next due (null: never). */
export function nextCheckAfter(from: Date, hours: number): Date | null {
  return hours > 0 ? new Date(from.getTime() + hours * HOUR_MS) : null;
}

/**
 * The wait after the `failures`-th failed check in a row: the interval doubled per failure
 * (the first failure waits one interval), at most a week, so a broken library stops
 * costing a clone every interval without being forgotten.
 */
export function backoffMs(hours: number, failures: number): number {
  return Math.min(hours * HOUR_MS * 2 ** Math.max(0, failures - 1), Math.max(MAX_BACKOFF_MS, hours * HOUR_MS));
}

/** The schedule and check state as clients see them. */
export function presentSchedule(lib: LibraryRecord, defaults: Config['refreshDefaultHours']) {
  const schedule = lib.schedule ?? DEFAULT_SCHEDULE;
  const check = { ...EMPTY_CHECK, ...(lib.check ?? {}) };
  const hours = effectiveHours(lib, defaults);
  return {
    mode: schedule.mode,
    everyHours: hours > 0 ? hours : null,
    lastCheckedAt: check.lastCheckedAt ? new Date(check.lastCheckedAt).toISOString() : null,
    nextCheckAt: hours > 0 ? ((check.nextCheckAt ? new Date(check.nextCheckAt) : nextCheckAfter(lastKnownCurrent(lib), hours))?.toISOString() ?? null) : null,
    failures: check.failures,
    lastError: check.lastError,
  };
}
