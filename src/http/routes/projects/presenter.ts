/** A project as the API presents it: its mapping rate, pins, and the unmatched packages with how to add each. */
import type { ProjectPackageRecord, ProjectRecord } from '../../../store/models/project';
import { goModuleRepository, registryAlias } from '../../../projects/map-packages';
import { mappingOf } from '../../../projects/pins';

/** At most this many unmatched packages are listed. */
const MAX_UNMATCHED = 500;

/** The call that adds a package's library, and what to do after it so the package maps to it. */
export function addActionFor(p: Pick<ProjectPackageRecord, 'ecosystem' | 'name'>) {
  const repo = p.ecosystem === 'go' ? goModuleRepository(p.name) : null;
  const host = p.name.startsWith('gitlab.com/') ? 'gitlab' : p.name.startsWith('bitbucket.org/') ? 'bitbucket' : 'github';
  const web = repo ? `https://${p.name.split('/')[0]}${repo}` : '<the repository URL of the docs>';
  return {
    method: 'POST' as const,
    path: `/v2/add/repo/${host}`,
    body: { docsRepoUrl: web },
    // biome-ignore lint/suspicious/noThenProperty: the published field name (what to do after the add); this object is never awaited
    then: repo
      ? 'POST /v2/projects/{projectId}/remap once it is indexed'
      : `PATCH /v2/libraries/{id} with aliases ["${registryAlias(p)}"] (admins), then POST /v2/projects/{projectId}/remap`,
  };
}

export function presentProject(project: ProjectRecord, options: { unmatched?: boolean; packages?: boolean } = {}) {
  const pkgs = project.packages;
  const knowsDirect = pkgs.some((p) => p.direct);
  const counted = knowsDirect ? pkgs.filter((p) => p.direct) : pkgs;
  return {
    id: project._id,
    name: project.name,
    teamId: project.teamId,
    createdBy: project.createdBy,
    lockfiles: project.lockfiles.map((l) => ({
      filename: l.filename,
      kind: l.kind,
      sha256: l.sha256,
      uploadedAt: new Date(l.uploadedAt).toISOString(),
      packages: l.packages,
      url: l.url ?? null,
    })),
    webhook: { configured: Boolean(project.webhook), createdAt: project.webhook ? new Date(project.webhook.createdAt).toISOString() : null },
    // Counted at every write (projects/pins.ts mappingOf): a list reads no packages.
    mapping: project.mapping ?? mappingOf(pkgs),
    pins: project.pins.map((p) => ({ libraryId: p.libraryId, version: p.version, package: p.package, ecosystem: p.ecosystem, lockfile: p.lockfile })),
    ...(options.unmatched
      ? {
          unmatched: counted
            .filter((p) => p.libraryId === null)
            .slice(0, MAX_UNMATCHED)
            .map((p) => ({ ecosystem: p.ecosystem, name: p.name, version: p.version, direct: p.direct, lockfile: p.lockfile, add: addActionFor(p) })),
        }
      : {}),
    ...(options.packages
      ? {
          packages: pkgs.map((p) => ({
            ecosystem: p.ecosystem,
            name: p.name,
            version: p.version,
            direct: p.direct,
            lockfile: p.lockfile,
            libraryId: p.libraryId,
            matchedBy: p.matchedBy,
            alternatives: p.alternatives,
          })),
        }
      : {}),
    mappedAt: new Date(project.mappedAt).toISOString(),
    createdAt: new Date(project.createdAt).toISOString(),
    updatedAt: new Date(project.updatedAt).toISOString(),
  };
}
