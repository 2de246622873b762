/**
 * Use cases of projects: create one from a lockfile, upload a lockfile again (the refresh:
 * its packages are replaced and mapped anew), map again against the catalogue as it is now,
 * read, list, delete. A project belongs to a team (its members use and upload; its owners and
 * admins delete) or, for a user without a team, to its creator.
 */
import crypto from 'node:crypto';
import type { Principal, UserPrincipal } from '../auth/principal';
import { isAdminLike } from '../auth/principal';
import { ForbiddenError, NotFoundError, TeamNotFoundError, ValidationError } from '../errors';
import type { ProjectStore } from '../store/projects';
import type { ProjectPackageRecord, ProjectRecord } from '../store/models/project';
import type { FindPorts } from '../catalog/find';
import { parseLockfile } from './lockfiles';
import { mapPackages } from './map-packages';
import { pinsOf } from './pins';

/** A project holds at most this many lockfiles and packages (a large monorepo has a few thousand). */
export const MAX_LOCKFILES = 20;
export const MAX_PACKAGES = 20_000;

export interface ProjectPorts extends Pick<FindPorts, 'catalogIndex' | 'policies'> {
  projects: ProjectStore;
}

export interface LockfileUpload {
  filename: string;
  content: Buffer;
}

const PROJECT_ID = /^prj_[a-z0-9]{16}$/;

/** The project the caller addresses: 404 `not_found` alike when absent or not theirs. */
export async function projectFor(ports: Pick<ProjectPorts, 'projects'>, principal: Principal, projectId: string, options: { packages?: boolean } = {}): Promise<ProjectRecord> {
  const missing = new NotFoundError(`Project ${projectId} does not exist or you have no access to it.`);
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

function canDeleteProject(principal: UserPrincipal, project: Pick<ProjectRecord, 'teamId' | 'createdBy'>): boolean {
  return project.createdBy === principal.userId || (project.teamId !== null && principal.ownerOf?.includes(project.teamId) === true);
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

/** A lockfile's packages, mapped, and the project with them in place of that file's old ones. */
async function withLockfile(ports: ProjectPorts, principal: Principal, project: ProjectRecord, upload: LockfileUpload): Promise<ProjectRecord> {
  const filename = upload.filename.replace(/\\/g, '/').replace(/^\/+/, '');
  if (filename === '' || filename.length > 300 || filename.split('/').includes('..')) throw new ValidationError('The lockfile needs a file name such as "package-lock.json" (at most 300 characters, no "..").', 'filename');
  const { kind, packages } = parseLockfile(filename, decodeLockfile(upload));
  const others = project.packages.filter((p) => p.lockfile !== filename);
  if (others.length + packages.length > MAX_PACKAGES) throw new ValidationError(`A project holds at most ${MAX_PACKAGES} packages; this lockfile would make ${others.length + packages.length}.`, 'lockfile');
  const lockfiles = project.lockfiles.filter((l) => l.filename !== filename);
  if (lockfiles.length >= MAX_LOCKFILES) throw new ValidationError(`A project holds at most ${MAX_LOCKFILES} lockfiles.`, 'lockfile');
  const matches = await mapPackages(ports, principal, packages);
  const added: ProjectPackageRecord[] = packages.map((p, i) => ({ ...p, lockfile: filename, libraryId: matches[i]?.libraryId ?? null, matchedBy: matches[i]?.matchedBy ?? null, alternatives: matches[i]?.alternatives ?? [] }));
  const sha256 = crypto.createHash('sha256').update(upload.content).digest('hex');
  const all = [...others, ...added];
  return {
    ...project,
    lockfiles: [...lockfiles, { filename, kind, sha256, uploadedAt: new Date(), packages: added.length }],
    packages: all,
    pins: pinsOf(all),
    mappedAt: new Date(),
  };
}

export async function createProject(ports: ProjectPorts, principal: Principal, input: { name?: string; teamId?: string; lockfile: LockfileUpload }): Promise<ProjectRecord> {
  if (principal.kind !== 'user') throw new ForbiddenError('Projects belong to a user or team: sign in or use a personal API key.');
  const teamId = input.teamId ?? principal.defaultTeamId;
  if (teamId && !principal.teamIds.includes(teamId) && !isAdminLike(principal)) throw new TeamNotFoundError(teamId);
  const now = new Date();
  const empty: ProjectRecord = {
    _id: `prj_${crypto.randomBytes(10).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '').padEnd(16, '0').slice(0, 16)}`,
    name: cleanName(input.name, input.lockfile.filename),
    teamId: teamId ?? null,
    createdBy: principal.userId,
    lockfiles: [],
    packages: [],
    pins: [],
    mappedAt: now,
    rev: 0,
    createdAt: now,
    updatedAt: now,
  };
  // Parsed and mapped before anything is written: a bad lockfile leaves no project behind.
  const project = await withLockfile(ports, principal, empty, input.lockfile);
  await ports.projects.insert(project);
  return project;
}

/** Uploads a lockfile to a project: new, or in place of the one of the same file name (a refresh). */
export async function uploadLockfile(ports: ProjectPorts, principal: Principal, projectId: string, upload: LockfileUpload): Promise<ProjectRecord> {
  const project = await projectFor(ports, principal, projectId);
  return ports.projects.replace(await withLockfile(ports, principal, project, upload));
}

/** Maps a project's packages again: libraries added to the catalogue since now match. */
export async function remapProject(ports: ProjectPorts, principal: Principal, projectId: string): Promise<ProjectRecord> {
  const project = await projectFor(ports, principal, projectId);
  const matches = await mapPackages(ports, principal, project.packages);
  const packages = project.packages.map((p, i) => ({ ...p, libraryId: matches[i]?.libraryId ?? null, matchedBy: matches[i]?.matchedBy ?? null, alternatives: matches[i]?.alternatives ?? [] }));
  return ports.projects.replace({ ...project, packages, pins: pinsOf(packages), mappedAt: new Date() });
}

export async function deleteProject(ports: ProjectPorts, principal: Principal, projectId: string): Promise<void> {
  const project = await projectFor(ports, principal, projectId, { packages: false });
  if (principal.kind === 'user' && !isAdminLike(principal) && !canDeleteProject(principal, project)) {
    throw new ForbiddenError("Only the project's creator, its team's owners and admins may delete it.");
  }
  await ports.projects.delete(project._id);
}

export async function listProjects(ports: Pick<ProjectPorts, 'projects'>, principal: Principal): Promise<ProjectRecord[]> {
  if (principal.kind === 'anonymous') return [];
  if (principal.kind === 'service') return ports.projects.listFor({ teamIds: [], userId: null, all: true });
  return ports.projects.listFor({ teamIds: principal.teamIds, userId: principal.userId, all: principal.role === 'admin' });
}
