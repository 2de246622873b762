/**
 * The messages between a worker and the process it runs a job in (process-runner.ts ↔
 * job-process.ts), over Node's IPC channel with structured cloning (`serialization:
 * 'advanced'`: dates survive). The job's context stays with the worker — its lease, its
 * writes, its cancellation — and the process calls it: each JobContext method is a `call`
 * answered by a `reply`. Errors cross as data and are rebuilt as the classes the worker and
 * the build tell apart (a job failure with its code, a stop, a store outage, anything else).
 */
import type { Config } from '../../config';
import { errorFromParts, isErrorCode, StoreUnavailableError, type ErrorDetails } from '../../errors';
import type { JobLogEntry, JobRecord } from '../../store/models/job';
import { JobFailure } from './failure';
import { JobCancelledError } from './worker';

/** The JobContext methods a job's process calls (log and the job record travel otherwise). */
export type ContextMethod = 'setState' | 'progress' | 'report' | 'checkpoint' | 'commit';

export type ToJobProcess =
  | { t: 'init'; config: Readonly<Config> }
  | { t: 'run'; job: JobRecord }
  | { t: 'reply'; id: number; ok: true }
  | { t: 'reply'; id: number; ok: false; error: WireError }
  | { t: 'abort'; error: WireError };

export type FromJobProcess =
  | { t: 'ready' }
  | { t: 'init-failed'; message: string }
  | { t: 'call'; id: number; method: ContextMethod; args: unknown[] }
  | { t: 'log'; level: JobLogEntry['level']; message: string }
  | { t: 'poke' }
  | { t: 'done'; rss: number }
  | { t: 'failed'; error: WireError; rss: number };

/** An error as data. */
export type WireError =
  | { kind: 'failure'; code: JobFailure['code']; message: string; details: ErrorDetails }
  | { kind: 'stop'; reason: 'cancelled' | 'lost'; message: string }
  | { kind: 'store'; store: 'elasticsearch' | 'mongodb'; message: string }
  | { kind: 'app'; code: string; message: string; details: ErrorDetails }
  | { kind: 'other'; message: string };

/** `storeOf` tells a store outage (the job is tried again later) from other errors. */
export function toWire(error: unknown, storeOf: (error: unknown) => 'elasticsearch' | 'mongodb' | undefined): WireError {
  if (error instanceof JobFailure) return { kind: 'failure', code: error.code, message: error.message, details: { ...error.details } };
  if (error instanceof JobCancelledError) return { kind: 'stop', reason: error.reason, message: error.message };
  const store = storeOf(error);
  if (store) return { kind: 'store', store, message: (error as Error).message };
  const app = error as { code?: unknown; status?: unknown; details?: unknown; message?: unknown };
  if (error instanceof Error && typeof app.code === 'string' && typeof app.status === 'number') {
    return { kind: 'app', code: app.code, message: error.message, details: (app.details ?? {}) as ErrorDetails };
  }
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
}

export function fromWire(wire: WireError): Error {
  switch (wire.kind) {
    case 'failure':
      return new JobFailure(wire.code, wire.message, wire.details);
    case 'stop':
      return new JobCancelledError(wire.message, wire.reason);
    case 'store':
      return new StoreUnavailableError(wire.store, new Error(wire.message));
    case 'app':
      return isErrorCode(wire.code) ? errorFromParts(wire.code, wire.message, wire.details) : new Error(wire.message);
    case 'other':
      return new Error(wire.message);
  }
}
