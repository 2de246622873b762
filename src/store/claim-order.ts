/**
 * Which claimable jobs a worker's lane tries first (store/jobs.ts `claim`): the oldest of
 * requesters that run nothing now, then the others' — so one team's long jobs cannot starve
 * another's — and, in a lane of several slots, none of a requester already holding all but
 * one of them.
 */
import type { JobRecord } from './models/job';

/** The sources a worker's lane claims, and how many slots it has (see WorkerLane). */
export interface ClaimLane {
  sources: readonly string[];
  slots: number;
}

/** Whom a job is fair to: the team of a private copy, else the user who started it ('system' for schedules). */
export function requesterOf(job: Pick<JobRecord, 'teamId' | 'createdBy'>): string {
  return job.teamId ? `team:${job.teamId}` : job.createdBy ? `user:${job.createdBy}` : 'system';
}

/** `found` (oldest first) in the order to try; `running` counts live jobs per requester. */
export function fairOrder(found: readonly JobRecord[], running: ReadonlyMap<string, number>, lane?: ClaimLane): JobRecord[] {
  const cap = lane && lane.slots > 1 ? lane.slots - 1 : Infinity;
  const busy = (j: JobRecord) => running.get(requesterOf(j)) ?? 0;
  // Array sort is stable: the age order holds within each group.
  return found.filter((j) => busy(j) < cap).sort((a, b) => Number(busy(a) > 0) - Number(busy(b) > 0));
}
