/**
 * Use cases "list the catalogue" and "update a library" (`GET /v2/libraries`, `PATCH
 * /v2/libraries/{id}`): what a caller may see of the catalogue, and the settings an admin or a
 * team owner changes on a library — title, description, trust score, aliases, schedule,
 * version rule, source settings. Every change
 * is one revision of the record, so the caches and the catalogue index follow it (store/libraries.ts).
 */
import type { Principal } from '../auth/principal';
import type { Config } from '../config';
import type { LibraryCheckState, LibraryRecord, LibrarySchedule } from '../store/models/library';
import type { LibraryRepository } from '../store/libraries';
import type { VersionRule } from '../domain/version-rule';
import { canSeeLibrary } from '../auth/authorize';
import { ForbiddenError, LibraryNotFoundError, ValidationError } from '../errors';
import { authorize } from '../auth/permissions';
import { isAdminLike } from '../auth/principal';
import type { JobRecord } from '../store/models/job';
import type { SourceOptionsInput } from './change-source';
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
  title?: string | null;
  description?: string | null;
  trustScore?: number;
  aliases?: string[];
  schedule?: ScheduleInput;
  versionRule?: VersionRule | null;
  sourceOptions?: SourceOptionsInput;
}

/** Record fields only admins set; a team's owners change only the source settings of its copy. */
const ADMIN_FIELDS = ['title', 'description', 'trustScore', 'aliases', 'schedule', 'versionRule'] as const;

/**
 * Applies `changes` to the copy of `clientId` the caller addresses (or a team's, with `teamId`);
 * 404 when there is none it may see. New source settings are a build (`changeSource`, queued
 * before the record changes); they are stored when it publishes (catalog/change-source.ts).
 */
export async function updateLibrary(
  ports: CatalogPorts,
  principal: Principal,
  clientId: string,
  changes: LibraryChanges,
  options: { teamId?: string; changeSource?: (lib: LibraryRecord, input: SourceOptionsInput) => Promise<JobRecord | null> } = {},
): Promise<{ library: LibraryRecord; job: JobRecord | null }> {
  const lib = await findLibraryFor(ports, principal, clientId, { fresh: true, teamId: options.teamId });
  if (!lib) throw new LibraryNotFoundError(clientId);
  authorize(principal, 'libraries.update', lib);
  const adminFields = ADMIN_FIELDS.filter((f) => changes[f] !== undefined);
  if (adminFields.length > 0 && !isAdminLike(principal)) {
    throw new ForbiddenError(`Only admins set ${adminFields.join(', ')}; a team's owners change the source settings of its copy (sourceOptions).`);
  }
  const schedule = changes.schedule === undefined ? undefined : scheduleFromInput(changes.schedule);
  if (schedule && schedule.mode !== 'default' && lib.source === 'openapi') {
    throw new ValidationError(`${clientId} was uploaded as an OpenAPI document; it has no source a schedule could refresh from.`, 'schedule');
  }
  const job = changes.sourceOptions && options.changeSource ? await options.changeSource(lib, changes.sourceOptions) : null;
  const updated = await ports.libraries.modify(lib._id, (current) =>
    adminFields.length === 0
      ? null
      : {
          ...(changes.trustScore !== undefined ? { trustScore: changes.trustScore, trustScoreSetByAdmin: true } : {}),
          // A title or description set here stays across builds; null hands it back to the docs (at the next build).
          ...(changes.title !== undefined ? (changes.title === null ? { titleSetByAdmin: false } : { title: changes.title, titleSetByAdmin: true }) : {}),
          ...(changes.description !== undefined
            ? changes.description === null
              ? { descriptionSetByAdmin: false }
              : { description: changes.description, descriptionSetByAdmin: true }
            : {}),
          ...(changes.aliases !== undefined ? { aliases: changes.aliases } : {}),
          ...(schedule ? { schedule, check: rescheduled(current, schedule, ports.config.refreshDefaultHours) } : {}),
          ...(changes.versionRule !== undefined ? { versionRule: changes.versionRule } : {}),
        },
  );
  if (!updated) throw new LibraryNotFoundError(clientId);
  return { library: updated, job };
}

/** A new schedule's check state: the next check counted from when the library was last current. */
function rescheduled(lib: LibraryRecord, schedule: LibrarySchedule, defaults: Config['refreshDefaultHours']): LibraryCheckState {
  const check = { ...EMPTY_CHECK, ...(lib.check ?? {}) };
  return { ...check, nextCheckAt: nextCheckAfter(lastKnownCurrent(lib), effectiveHours({ source: lib.source, schedule }, defaults)) };
}
