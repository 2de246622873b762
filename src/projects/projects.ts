/**
 * Use cases of projects: create one from a lockfile (uploaded, or fetched from a URL), upload
 * a lockfile again, refresh the fetched ones (by hand or on a push delivery, refresh.ts), map
 * again against the catalogue as it is now, read, list, delete. A project belongs to a team
 * (its members use and upload; its owners, its creator and admins delete) or, for a user
 * without a team, to its creator. Its packages are mapped as its team sees the catalogue
 * (visibility and the team's policy), whoever uploads.
 */
import crypto from 'node:crypto';
import type { Principal, UserPrincipal } from '../auth/principal';
import { isAdminLike } from '../auth/principal';
import { ForbiddenError, NotFoundError, TeamNotFoundError, ValidationError } from '../errors';
import type { ProjectStore } from '../store/projects';
import type { ProjectPackageRecord, ProjectRecord } from '../store/models/project';
import type { FindPorts } from '../catalog/find';
import type { Config } from '../config';
import { parseLockfile } from './lockfiles';
import { mapPackages } from './map-packages';
import { mappingOf, pinsOf } from './pins';
import { fetchLockfile, sha256Of, type LockfileUpload } from './lockfile-source';

export type { LockfileUpload };

/** A project holds at most this many lockfiles and packages (a large monorepo has a few thousand). */
export const MAX_LOCKFILES = 20;
export const MAX_PACKAGES = 20_000;

export interface ProjectPorts extends Pick<FindPorts, 'catalogIndex' | 'policies'> {
  projects: ProjectStore;
  config: Pick<Config, 'web' | 'secret'>;
}

/** A lockfile to add: its content, or a URL to fetch it from. */
export type LockfileInput = { upload: LockfileUpload } | { url: string; filename?: string };

export const PROJECT_ID = /^prj_[a-z0-9]{16}$/;

/** The project the caller addresses: 404 `not_found` alike when absent or not theirs. */
export async function projectFor(
  ports: Pick<ProjectPorts, 'projects'>,
  principal: Principal,
  projectId: string,
  options: { packages?: boolean } = {},
): Promise<ProjectRecord> {
  const boundKey = principal.kind === 'user' && principal.projectId === projectId;
  const missing = new NotFoundError(
    boundKey
      ? `Project ${projectId}, which this API key is bound to, no longer exists or you no longer have access to it: make a key without it (or for another project), or pass projectId.`
      : `Project ${projectId} does not exist or you have no access to it.`,
  );
  if (!PROJECT_ID.test(projectId) || principal.kind === 'anonymous') throw missing;
  const project = options.packages === false ? await ports.projects.pins(projectId) : await ports.projects.get(projectId);
  if (!project || !canUseProject(principal, project)) throw missing;
  return { packages: [], ...project };
}

export function canUseProject(principal: Principal, project: Pick<ProjectRecord, 'teamId' | 'createdBy'>): boolean {
  if (isAdminLike(principal)) return true;
  if (principal.kind !== 'user') return false;
  return project.teamId !== null ? principal.teamIds.includes(project.teamId) : project.createdBy === principal.userId;
}

/** The catalogue as the project's team sees it (its creator's own view for a personal project). */
export function projectViewer(project: Pick<ProjectRecord, 'teamId' | 'createdBy'>): UserPrincipal {
  const teams = project.teamId ? [project.teamId] : [];
  return { kind: 'user', userId: project.createdBy ?? 'project', username: '', role: 'member', teamIds: teams, defaultTeamId: project.teamId, via: 'api_key' };
}

function decodeLockfile(upload: LockfileUpload): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(upload.content);
  } catch {
    throw new ValidationError(`${upload.filename} is not UTF-8 text.`, 'lockfile');
  }
}

function cleanName(name: string | undefined, fallback: string): string {
  const trimmed = (name ?? '').trim() || fallback;
  if (trimmed.length > 200) throw new ValidationError('name is too long (at most 200 characters).', 'name');
  return trimmed;
}

export function cleanFilename(raw: string): string {
  const filename = raw.replace(/\\/g, '/').replace(/^\/+/, '');
  if (filename === '' || filename.length > 300 || filename.split('/').includes('..'))
    throw new ValidationError('The lockfile needs a file name such as "package-lock.json" (at most 300 characters, no "..").', 'filename');
  return filename;
}

/** The upload a lockfile input stands for (fetched when it is a URL). */
export async function receiveLockfile(ports: Pick<ProjectPorts, 'config'>, input: LockfileInput): Promise<LockfileUpload> {
  return 'upload' in input ? input.upload : fetchLockfile(ports.config.web, input.url, input.filename);
}

/** A lockfile's packages, mapped, and the project with them in place of that file's old ones. */
export async function withLockfile(ports: ProjectPorts, project: ProjectRecord, upload: LockfileUpload): Promise<ProjectRecord> {
  const filename = cleanFilename(upload.filename);
  const { kind, packages } = parseLockfile(filename, decodeLockfile(upload));
  const others = project.packages.filter((p) => p.lockfile !== filename);
  if (others.length + packages.length > MAX_PACKAGES)
    throw new ValidationError(`A project holds at most ${MAX_PACKAGES} packages; this lockfile would make ${others.length + packages.length}.`, 'lockfile');
  const lockfiles = project.lockfiles.filter((l) => l.filename !== filename);
  if (lockfiles.length >= MAX_LOCKFILES) throw new ValidationError(`A project holds at most ${MAX_LOCKFILES} lockfiles.`, 'lockfile');
  const matches = await mapPackages(ports, projectViewer(project), packages);
  const added: ProjectPackageRecord[] = packages.map((p, i) => ({
    ...p,
    lockfile: filename,
    libraryId: matches[i]?.libraryId ?? null,
    matchedBy: matches[i]?.matchedBy ?? null,
    alternatives: matches[i]?.alternatives ?? [],
  }));
  const all = [...others, ...added];
  return {
    ...project,
    lockfiles: [...lockfiles, { filename, kind, sha256: sha256Of(upload.content), uploadedAt: new Date(), packages: added.length, url: upload.url ?? null }],
    packages: all,
    pins: pinsOf(all),
    mapping: mappingOf(all),
    mappedAt: new Date(),
  };
}

export async function createProject(
  ports: ProjectPorts,
  principal: Principal,
  input: { name?: string; teamId?: string; lockfile: LockfileInput },
): Promise<ProjectRecord> {
  if (principal.kind !== 'user') throw new ForbiddenError('Projects belong to a user or team: sign in or use a personal API key.');
  const teamId = input.teamId ?? principal.defaultTeamId;
  if (teamId && !principal.teamIds.includes(teamId) && !isAdminLike(principal)) throw new TeamNotFoundError(teamId);
  const now = new Date();
  const upload = await receiveLockfile(ports, input.lockfile);
  const empty: ProjectRecord = {
    _id: `prj_${crypto.randomBytes(10).toString('hex').slice(0, 16)}`,
    name: cleanName(input.name, upload.filename),
    teamId: teamId ?? null,
    createdBy: principal.userId,
    lockfiles: [],
    packages: [],
    pins: [],
    mapping: mappingOf([]),
    webhook: null,
    mappedAt: now,
    rev: 0,
    createdAt: now,
    updatedAt: now,
  };
  // Parsed and mapped before anything is written: a bad lockfile leaves no project behind.
  const project = await withLockfile(ports, empty, upload);
  await ports.projects.insert(project);
  return project;
}

/** Adds a lockfile to a project: new, or in place of the one of the same file name (an upload's refresh). */
export async function uploadLockfile(ports: ProjectPorts, principal: Principal, projectId: string, input: LockfileInput): Promise<ProjectRecord> {
  const project = await projectFor(ports, principal, projectId);
  return ports.projects.replace(await withLockfile(ports, project, await receiveLockfile(ports, input)));
}

/** Maps a project's packages again: libraries added to the catalogue since now match. */
export async function remapProject(ports: ProjectPorts, principal: Principal, projectId: string): Promise<ProjectRecord> {
  const project = await projectFor(ports, principal, projectId);
  const matches = await mapPackages(ports, projectViewer(project), project.packages);
  const packages = project.packages.map((p, i) => ({
    ...p,
    libraryId: matches[i]?.libraryId ?? null,
    matchedBy: matches[i]?.matchedBy ?? null,
    alternatives: matches[i]?.alternatives ?? [],
  }));
  return ports.projects.replace({ ...project, packages, pins: pinsOf(packages), mapping: mappingOf(packages), mappedAt: new Date() });
}

export async function deleteProject(ports: Pick<ProjectPorts, 'projects'>, principal: Principal, projectId: string): Promise<void> {
  const project = await projectFor(ports, principal, projectId, { packages: false });
  const mayDelete =
    isAdminLike(principal) ||
    (principal.kind === 'user' &&
      (project.createdBy === principal.userId || (project.teamId !== null && principal.ownerOf?.includes(project.teamId) === true)));
  if (!mayDelete) throw new ForbiddenError("Only the project's creator, its team's owners and admins may delete it.");
  await ports.projects.delete(project._id);
}

export async function listProjects(ports: Pick<ProjectPorts, 'projects'>, principal: Principal): Promise<ProjectRecord[]> {
  if (principal.kind === 'anonymous') return [];
  if (principal.kind === 'service') return ports.projects.listFor({ teamIds: [], userId: null, all: true });
  return ports.projects.listFor({ teamIds: principal.teamIds, userId: principal.userId, all: principal.role === 'admin' });
}
