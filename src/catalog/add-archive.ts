/**
 * Use case "upload built docs": a zip or tar.gz of a static site or a Markdown folder, for
 * docs that cannot be crawled. The archive is read whole and checked before anything is
 * written (sources/archive/read.ts: zip-slip, absolute paths, links, device files,
 * decompression bombs); only then is it kept under `<dataDir>/archives/<sha256>.<format>`
 * and built by a durable job like an added repository (the caller waits up to
 * ADD_WAIT_SECONDS; 504 while it carries on; a never-built library is removed on failure).
 * The file lives as long as a library builds from it (archive-files.ts: deleted with the
 * library, or when a forced upload replaces it, unless another library shares the bytes).
 *
 * Visibility as for OpenAPI uploads (upload-openapi.ts): a team's upload is the team's
 * private copy unless `public` is set, which only admins (and the service key) may do.
 * Library id: `/archives/<slug of libraryTitle, else the file name>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { isAdminLike } from '../auth/principal';
import { DuplicateRepoError, ForbiddenError, PayloadTooLargeError, ValidationError } from '../errors';
import { requirePolicyAllows } from './access';
import { DEFAULT_TRUST_SCORES } from '../indexing/snippets/quality';
import { ArchiveError, DEFAULT_ARCHIVE_LIMITS, readArchive, sniffArchive } from '../indexing/sources/archive/read';
import { archivePath } from '../indexing/sources/archive/source';
import type { ArchiveJobParams } from '../domain/job-params';
import { sha256 } from '../util/hash';
import { awaitJob, type AddResult } from './add-repo';
import { releaseArchive } from './archive-files';
import { slugify, type UploadInput } from './upload-openapi';

export const MAX_ARCHIVE_BYTES = 50 * 1024 * 1024;

/** The same form fields as an OpenAPI upload. */
export type ArchiveUploadInput = UploadInput;

/** What `addArchive` reaches (ports.ts). */
export type AddArchivePorts = Pick<Ports, 'config' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'pokeWorker' | 'policies' | 'snippets'>;

export async function addArchive(
  services: AddArchivePorts,
  principal: Principal,
  input: ArchiveUploadInput,
  options: { waitMs?: number } = {},
): Promise<AddResult> {
  const teamId = principal.kind === 'user' ? principal.defaultTeamId : null;
  if (principal.kind === 'user' && !teamId) throw new ForbiddenError('Uploading docs needs a team project: ask an admin to add you to a team.');
  const isPublic = input.public ?? teamId === null;
  if (isPublic && !isAdminLike(principal))
    throw new ForbiddenError('Only admins can publish an uploaded archive to every caller (public=true); without it the library is private to your team.');
  const scope = isPublic ? null : teamId;

  const format = sniffArchive(input.file);
  if (!format) throw new ValidationError('archiveFile must be a zip or a tar.gz (gzip-compressed tar) archive.', 'archiveFile');
  try {
    await readArchive(input.file, format, { ...DEFAULT_ARCHIVE_LIMITS, maxFileBytes: 0 });
  } catch (error) {
    if (error instanceof ArchiveError && error.reason === 'too_large') throw new PayloadTooLargeError(`archiveFile: ${error.message}`, 'archiveFile');
    if (error instanceof ArchiveError) throw new ValidationError(`archiveFile: ${error.message}`, 'archiveFile');
    throw error;
  }
  const title = input.libraryTitle?.trim() || input.fileName.replace(/\.(zip|tgz|tar\.gz)$/i, '');
  const slug = slugify(title);
  if (!slug) throw new ValidationError('libraryTitle (or the file name) must contain letters or digits.', 'libraryTitle');
  const libraryId = `/archives/${slug}`;

  await requirePolicyAllows(services, principal, { id: libraryId, source: 'archive', trustScore: DEFAULT_TRUST_SCORES.archive });
  const existing = await services.libraries.findCopy(libraryId, scope, { fresh: true });
  if (existing && (!input.force || existing.source !== 'archive')) {
    const where = scope === null ? 'public library' : 'library in your team';
    throw new DuplicateRepoError(`A ${where} named ${libraryId} already exists${existing.source === 'archive' ? '; send force=true to replace it' : ''}.`);
  }
  const key = existing?._id ?? (await services.libraries.keyForNewCopy(libraryId, scope));

  const params: ArchiveJobParams = { source: 'archive', sha256: sha256(input.file), format, fileName: input.fileName };
  keepArchive(services.config.dataDir, params, input.file);
  await services.libraries.ensure({
    _id: key,
    source: 'archive',
    title,
    description: input.description?.trim() ?? '',
    repoUrl: '',
    cloneUrl: '',
    branch: '',
    private: scope !== null,
    teamId: scope,
    trustScore: DEFAULT_TRUST_SCORES.archive,
    options: { skipVersionFiltering: false, generateDocs: false },
    sourceParams: params,
  });
  // A title or description the uploader typed is the library's: builds keep it (the docs' own
  // README title would otherwise replace it, and the field would only have named the id).
  const typed = {
    ...(input.libraryTitle?.trim() ? { title, titleSetByAdmin: true } : {}),
    ...(input.description?.trim() ? { description: input.description.trim(), descriptionSetByAdmin: true } : {}),
  };
  if (Object.keys(typed).length > 0) await services.libraries.modify(key, () => typed);
  if (existing) {
    // The replacing upload is what the library builds from from now on (a refresh reads it):
    // the file it supersedes goes, unless another library still uses the same bytes.
    await services.libraries.modify(key, () => ({ sourceParams: params }));
    if (existing.sourceParams?.source === 'archive' && existing.sourceParams.sha256 !== params.sha256) await releaseArchive(services, existing.sourceParams);
  }
  const job = await services.jobs.enqueue({
    kind: 'add-archive',
    params,
    libraryId: key,
    version: 'latest',
    teamId: scope,
    createdBy: principal.kind === 'user' ? principal.userId : null,
  });
  services.pokeWorker();
  await awaitJob(services, job, options.waitMs ?? services.config.addWaitSeconds * 1000, !existing);
  return { libraryName: libraryId, message: `${libraryId} was indexed and is ready to query.`, jobId: job._id };
}

/** Writes the archive under its hash (a temporary name renamed into place: never half a file). */
function keepArchive(dataDir: string, params: ArchiveJobParams, data: Buffer): void {
  const target = archivePath(dataDir, params);
  if (fs.existsSync(target)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, target);
}
