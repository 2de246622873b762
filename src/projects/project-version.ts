/**
 * The version a project pins, as the `version` input of a request that names none: context,
 * search across libraries and the MCP docs tools call `versionFromProject` before choosing a
 * version, and `asPinned` marks the choice so provenance says why ("pinned by project …").
 * A version named by the caller (in the id or in `version`) always wins over the pin.
 */
import type { Principal } from '../auth/principal';
import { TagNotFoundError } from '../errors';
import { clientLibraryId } from '../domain/library-keys';
import type { ProjectPinRecord } from '../store/models/project';
import type { VersionChoice } from '../retrieval/version-choice';
import { parseVersionAsk } from '../retrieval/version-choice';
import { projectFor, type ProjectPorts } from './projects';
import { pinFor, pinReason } from './pins';

export interface ProjectPinUse {
  projectId: string;
  pin: ProjectPinRecord;
}

/** The project a request is answered for: the `projectId` input, else the one its API key is bound to. */
export function requestProject(principal: Principal, projectId: string | undefined): string | undefined {
  return projectId ?? (principal.kind === 'user' ? principal.projectId : undefined);
}

/**
 * The `version` input with the project's pin in place when the caller named no version (bare
 * `closest` becomes `closest:<pinned>`), and the pin used; unchanged without a project or pin.
 */
export async function versionFromProject(
  ports: Pick<ProjectPorts, 'projects'>,
  principal: Principal,
  projectId: string | undefined,
  library: { _id: string },
  fromId: string | undefined,
  version: string | undefined,
): Promise<{ version: string | undefined; pinned?: ProjectPinUse }> {
  if (projectId === undefined) return { version };
  const project = await projectFor(ports, principal, projectId, { packages: false });
  return pinnedVersion(project, library, fromId, version);
}

/** versionFromProject on a project already read (search across libraries reads it once). */
export function pinnedVersion(
  project: { _id: string; pins: readonly ProjectPinRecord[] },
  library: { _id: string },
  fromId: string | undefined,
  version: string | undefined,
): { version: string | undefined; pinned?: ProjectPinUse } {
  const ask = parseVersionAsk(version);
  const bareClosest = ask.kind === 'closest' && ask.target === undefined;
  if (fromId !== undefined || !(ask.kind === 'default' || bareClosest) || (version !== undefined && version.trim().toLowerCase() === 'latest'))
    return { version };
  const pin = pinFor(project.pins, clientLibraryId(library._id));
  if (!pin) return { version };
  return { version: bareClosest ? `closest:${pin.version}` : pin.version, pinned: { projectId: project._id, pin } };
}

/** The choice as the pin made it: provenance's resolution `pinned` (or `closest`, asked) and why. */
export function asPinned(choice: VersionChoice, pinned: ProjectPinUse | undefined): VersionChoice {
  if (!pinned) return choice;
  const why = pinReason(pinned.projectId, pinned.pin);
  return {
    ...choice,
    requested: pinned.pin.version,
    resolution: choice.resolution === 'closest' ? 'closest' : 'pinned',
    reason: choice.reason ? `${why}; ${choice.reason}` : `${why}.`,
  };
}

/** A pinned version that is not indexed: the 404 says which project pins it and what to do. */
export function pinnedNotIndexed(error: unknown, pinned: ProjectPinUse | undefined): unknown {
  if (!pinned || !(error instanceof TagNotFoundError)) return error;
  const d = error.details;
  const advice = `Project ${pinned.projectId} pins ${pinned.pin.package} ${pinned.pin.version} (${pinned.pin.lockfile}); ask version=closest for the nearest indexed version, or index ${pinned.pin.version} (a version rule: PATCH /v2/libraries/{id} versionRule).`;
  return new TagNotFoundError(d.libraryId ?? '', d.requested ?? pinned.pin.version, d.availableVersions ?? [], d.nearest ?? null, advice);
}

/** The pins of the request's project (none without one): library search shows them as `pinnedVersion`. */
export async function projectPins(
  ports: Pick<ProjectPorts, 'projects'>,
  principal: Principal,
  projectId: string | undefined,
): Promise<readonly ProjectPinRecord[]> {
  const id = requestProject(principal, projectId);
  return id === undefined ? [] : (await projectFor(ports, principal, id, { packages: false })).pins;
}

/** A library search result with the version the project pins, when it pins one. */
export function withPin<T extends { id: string }>(result: T, pins: readonly ProjectPinRecord[]): T & { pinnedVersion?: string } {
  const pin = pinFor(pins, result.id);
  return pin ? { ...result, pinnedVersion: pin.version } : result;
}
