/**
 * Use cases "list the catalogue" and "update a library" (`GET /v2/libraries`, `PATCH
 * /v2/libraries/{id}`): what a caller may see of the catalogue, and the settings an admin or a
 * team owner changes on a library — trust score, aliases, schedule, version rule. Every change
 * is one revision of the record, so the caches and the catalogue index follow it (store/libraries.ts).
 */
import type { Principal } from '../auth/principal';
import type { Config } from '../config';
import type { LibraryCheckState, LibraryRecord, LibrarySchedule } from '../store/models/library';
import type { LibraryRepository } from '../store/libraries';
import type { VersionRule } from '../domain/version-rule';
import { canSeeLibrary } from '../auth/authorize';
import { LibraryNotFoundError, ValidationError } from '../errors';
import { findLibraryFor } from './access';
import { EMPTY_CHECK, effectiveHours, lastKnownCurrent, nextCheckAfter, scheduleFromInput, type ScheduleInput } from './schedule';

export interface CatalogPorts {
  libraries: LibraryRepository;
  config: Pick<Config, 'refreshDefaultHours'>;
}

/** The library copies a caller may see (admins: every team's). */
export async function listLibraries(ports: Pick<CatalogPorts, 'libraries'>, principal: Principal): Promise<LibraryRecord[]> {
  return (await ports.libraries.list()).filter((l) => canSeeLibrary(principal, l));
}

export interface LibraryChanges {
  trustScore?: number;
  aliases?: string[];
  schedule?: ScheduleInput;
  versionRule?: VersionRule | null;
}

/** Applies `changes` to the copy of `clientId` the caller addresses (or a team's, with `teamId`); 404 when there is none it may see. */
export async function updateLibrary(ports: CatalogPorts, principal: Principal, clientId: string, changes: LibraryChanges, options: { teamId?: string } = {}): Promise<LibraryRecord> {
  const schedule = changes.schedule === undefined ? undefined : scheduleFromInput(changes.schedule);
  const lib = await findLibraryFor(ports, principal, clientId, { fresh: true, teamId: options.teamId });
  if (lib && schedule && schedule.mode !== 'default' && lib.source === 'openapi') {
    throw new ValidationError(`${clientId} was uploaded as an OpenAPI document; it has no source a schedule could refresh from.`, 'schedule');
  }
  const updated = lib && (await ports.libraries.modify(lib._id, (current) => ({
    ...(changes.trustScore !== undefined ? { trustScore: changes.trustScore, trustScoreSetByAdmin: true } : {}),
    ...(changes.aliases !== undefined ? { aliases: changes.aliases } : {}),
    ...(schedule ? { schedule, check: rescheduled(current, schedule, ports.config.refreshDefaultHours) } : {}),
    ...(changes.versionRule !== undefined ? { versionRule: changes.versionRule } : {}),
  })));
  if (!updated) throw new LibraryNotFoundError(clientId);
  return updated;
}

/** A new schedule's check state: the next check counted from when the library was last current. */
function rescheduled(lib: LibraryRecord, schedule: LibrarySchedule, defaults: Config['refreshDefaultHours']): LibraryCheckState {
  const check = { ...EMPTY_CHECK, ...(lib.check ?? {}) };
  return { ...check, nextCheckAt: nextCheckAfter(lastKnownCurrent(lib), effectiveHours({ source: lib.source, schedule }, defaults)) };
}
