/**
 * Use case "upload an OpenAPI specification": parse and check it (limits, safety,
 * structure), turn each operation into a snippet and publish it through the same
 * generation step as Git builds. Runs inline: parsing even the 3.4 MB OpenAI document takes
 * seconds, and a bad document must be refused with its reason before anything is written.
 *
 * Visibility: a team's upload is the team's private copy (store/libraries.ts, "Copies and
 * scopes") unless `public` is set, which only admins (and the service key) may do: an upload
 * is content nobody else can check, and the public catalogue is shared by every caller of the
 * installation, anonymous ones included. A caller without a team (the service key) publishes.
 */
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { isAdminLike } from '../auth/principal';
import { ConflictError, DuplicateRepoError, ForbiddenError, PayloadTooLargeError, ValidationError } from '../errors';
import { requirePolicyAllows } from './access';
import { OpenApiError, type OpenApiParseResult } from '../indexing/openapi';
import { MAX_OPENAPI_BYTES, openApiSnapshot, readOpenApiSpec } from '../indexing/sources/openapi-source';
import { BuildBusyError } from '../store/jobs';
import { DEFAULT_TRUST_SCORES } from '../indexing/snippets/quality';
import { deleteLibrary, deletePortsOf } from './delete';
import { buildVersion } from '../indexing/pipeline/build';
import { detachedContext } from '../indexing/jobs/detached';
import { JobFailure } from '../indexing/jobs/failure';

export { MAX_OPENAPI_BYTES };

export interface UploadInput {
  file: Buffer;
  fileName: string;
  libraryTitle?: string;
  description?: string;
  force: boolean;
  /** Publish to every caller instead of the caller's team (undefined: public only without a team). */
  public?: boolean;
}

export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

/** What `uploadOpenApi` reaches (ports.ts). */
export type UploadOpenApiPorts = Pick<Ports, 'buildDeps' | 'config' | 'embeddings' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'policies' | 'snippets'>;

export async function uploadOpenApi(services: UploadOpenApiPorts, principal: Principal, input: UploadInput): Promise<{ libraryName: string; message: string }> {
  const teamId = principal.kind === 'user' ? principal.defaultTeamId : null;
  if (principal.kind === 'user' && !teamId)
    throw new ForbiddenError('Uploading an OpenAPI specification needs a team project: ask an admin to add you to a team.');
  const isPublic = input.public ?? teamId === null;
  if (isPublic && !isAdminLike(principal)) {
    throw new ForbiddenError('Only admins can publish an OpenAPI upload to every caller (public=true); without it the library is private to your team.');
  }
  const scope = isPublic ? null : teamId;
  let parsed;
  try {
    parsed = await readOpenApiSpec(input.file);
  } catch (error) {
    if (error instanceof OpenApiError && error.reason === 'too_large') throw new PayloadTooLargeError(`openapiFile: ${error.message}`, 'openapiFile');
    if (error instanceof OpenApiError) throw new ValidationError(`openapiFile: ${error.message}`, 'openapiFile');
    throw error;
  }
  const title = input.libraryTitle?.trim() || parsed.title;
  const slug = slugify(title);
  if (!slug) throw new ValidationError('libraryTitle (or the document title) must contain letters or digits.', 'libraryTitle');
  const libraryId = `/openapi/${slug}`;

  await requirePolicyAllows(services, principal, { id: libraryId, source: 'openapi', trustScore: DEFAULT_TRUST_SCORES.openapi });
  // Only the copy in the upload's own scope counts: another team's copy is neither replaced
  // nor revealed.
  const seen = await services.libraries.findCopy(libraryId, scope, { fresh: true });
  const key = seen?._id ?? (await services.libraries.keyForNewCopy(libraryId, scope));
  // One build of a library version at a time (two at once would delete each other's
  // generation): an upload waits for another upload or build of this library to end, then
  // checks for a duplicate again, so of two identical uploads without force one gets 409.
  try {
    return await services.jobs.inBuildSlot(key, 'latest', UPLOAD_SLOT_WAIT_MS, async () => {
      const existing = await services.libraries.findCopy(libraryId, scope, { fresh: true });
      if (existing && (!input.force || existing.source !== 'openapi')) {
        const where = scope === null ? 'public library' : 'library in your team';
        throw new DuplicateRepoError(`A ${where} named ${libraryId} already exists${existing.source === 'openapi' ? '; send force=true to replace it' : ''}.`);
      }
      return publishUpload(services, principal, input, { parsed, libraryId, key: existing?._id ?? key, scope, teamId, title, existing: existing !== null });
    });
  } catch (error) {
    if (error instanceof BuildBusyError) throw new ConflictError(`Another upload or build of ${libraryId} is still running; try again when it has finished.`);
    throw error;
  }
}

/** How long an upload waits for another build of its library to end. */
const UPLOAD_SLOT_WAIT_MS = 60_000;

/** What `publishUpload` reaches (ports.ts). */
export type PublishUploadPorts = Pick<Ports, 'buildDeps' | 'config' | 'embeddings' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'snippets'>;

async function publishUpload(
  services: PublishUploadPorts,
  principal: Principal,
  input: UploadInput,
  target: { parsed: OpenApiParseResult; libraryId: string; key: string; scope: string | null; teamId: string | null; title: string; existing: boolean },
): Promise<{ libraryName: string; message: string }> {
  const { parsed, libraryId, key, scope, teamId, title } = target;
  // The OpenAPI source's snapshot (sources/openapi-source.ts), built here inline: the upload
  // answers with the result, and a document without content is refused before any write.
  const snap = openApiSnapshot({ file: input.file, fileName: input.fileName, title, description: input.description }, parsed, libraryId);
  const meta = snap.meta({});

  const started = Date.now();
  await services.libraries.ensure({
    _id: key,
    source: 'openapi',
    title,
    description: meta.description ?? '',
    repoUrl: '',
    cloneUrl: '',
    branch: '',
    private: scope !== null,
    teamId: scope,
    trustScore: DEFAULT_TRUST_SCORES.openapi,
    options: { skipVersionFiltering: false, generateDocs: false },
  });
  try {
    // The same build as a queued job's (pipeline/build.ts), run here so the upload answers with its result.
    const ctx = detachedContext({
      kind: 'openapi',
      params: { source: 'openapi' },
      libraryId: key,
      version: 'latest',
      teamId,
      createdBy: principal.kind === 'user' ? principal.userId : null,
    });
    const totals = await buildVersion(ctx, services.buildDeps(), snap);
    const snippets = totals?.totalSnippets ?? 0;
    await services.jobs.record({
      kind: 'openapi',
      libraryId: key,
      version: 'latest',
      teamId,
      createdBy: ctx.job.createdBy,
      message: `uploaded ${input.fileName} (${parsed.specVersion}, ${Math.round(input.file.length / 1024)} KB): ${snippets} snippets in ${Date.now() - started} ms`,
      snippets,
      snippetsEmbedded: services.embeddings ? snippets : 0,
    });
  } catch (error) {
    if (!target.existing) await deleteLibrary(deletePortsOf(services), key);
    // A document without operations or content: the upload's own field is at fault.
    if (error instanceof JobFailure && error.code === 'no_snippets_found') throw new ValidationError(snap.emptyMessage, 'openapiFile');
    throw error;
  }
  return { libraryName: libraryId, message: `${libraryId} (${parsed.title} ${parsed.version}) was indexed and is ready to query.` };
}
