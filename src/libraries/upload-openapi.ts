/**
 * Use case "upload an OpenAPI specification": parse and check it (limits, safety,
 * structure), turn each operation into a snippet and publish it through the same
 * generation step as Git builds. Runs inline: parsing even the 3.4 MB OpenAI document takes
 * seconds, and a bad document must be refused with its reason before anything is written.
 */
import type { Services } from '../services';
import type { Principal } from '../auth/principal';
import { canSeeLibrary } from '../auth/authorize';
import { AccessDeniedError, DuplicateRepoError, ForbiddenError, ValidationError } from '../errors';
import { OpenApiError, openApiToSnippets, parseOpenApiDocument } from '../indexing/openapi';
import { finishSnippets } from '../indexing/snippets/finish';
import { DEFAULT_TRUST_SCORES } from '../indexing/snippets/quality';
import { newGeneration, publishGeneration } from '../indexing/pipeline/publish';
import { sha256 } from '../util/hash';

export const MAX_OPENAPI_BYTES = 10 * 1024 * 1024;

export interface UploadInput {
  file: Buffer;
  fileName: string;
  libraryTitle?: string;
  description?: string;
  force: boolean;
}

export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

export async function uploadOpenApi(services: Services, principal: Principal, input: UploadInput): Promise<{ libraryName: string; message: string }> {
  const teamId = principal.kind === 'user' ? principal.defaultTeamId : null;
  if (principal.kind === 'user' && !teamId) throw new ForbiddenError('Uploading an OpenAPI specification needs a team project: ask an admin to add you to a team.');
  let parsed;
  try {
    parsed = await parseOpenApiDocument(input.file, { maxBytes: MAX_OPENAPI_BYTES });
  } catch (error) {
    if (error instanceof OpenApiError) throw new ValidationError(`openapiFile: ${error.message}`, 'openapiFile');
    throw error;
  }
  const title = input.libraryTitle?.trim() || parsed.title;
  const slug = slugify(title);
  if (!slug) throw new ValidationError('libraryTitle (or the document title) must contain letters or digits.', 'libraryTitle');
  const libraryId = `/openapi/${slug}`;

  const policy = await services.policies.forPrincipal(principal);
  if (!policy.allows({ id: libraryId, source: 'openapi', trustScore: DEFAULT_TRUST_SCORES.openapi })) throw new AccessDeniedError(libraryId);
  const existing = await services.libraries.get(libraryId, { fresh: true });
  if (existing && (!input.force || !canSeeLibrary(principal, existing) || existing.source !== 'openapi')) {
    throw new DuplicateRepoError(`A library named ${libraryId} already exists${existing.source === 'openapi' ? '; send force=true to replace it' : ''}.`);
  }

  const started = Date.now();
  const generation = newGeneration();
  const parsedSnippets = openApiToSnippets(parsed, { sourceName: input.fileName, rawText: parsed.rawText });
  const snippets = finishSnippets(parsedSnippets, {
    libraryId,
    version: 'latest',
    fileUrl: (p, line) => `openapi:${libraryId}/${encodeURIComponent(p)}#L${line}`,
    fileHashes: new Map([[input.fileName, sha256(input.file)]]),
  });
  if (snippets.length === 0) throw new ValidationError('openapiFile has no operations or descriptions to index.', 'openapiFile');

  await services.libraries.ensure({
    _id: libraryId,
    source: 'openapi',
    title,
    description: input.description?.trim() || parsed.description?.slice(0, 300) || '',
    repoUrl: '',
    cloneUrl: '',
    branch: '',
    private: false,
    teamId,
    trustScore: DEFAULT_TRUST_SCORES.openapi,
    options: { skipVersionFiltering: false, generateDocs: false },
  });
  try {
    const totals = await publishGeneration(services.publishDeps(), {
      libraryId,
      version: 'latest',
      ref: parsed.version,
      tags: parsed.version ? [parsed.version] : [],
      commit: sha256(input.file).slice(0, 40),
      generation,
      snippets,
      files: [{ p: input.fileName, h: sha256(input.file) }],
      meta: { title, description: input.description?.trim() || parsed.description?.slice(0, 300) || '', branch: '' },
    });
    await services.jobs.record({
      kind: 'openapi',
      libraryId,
      version: 'latest',
      teamId,
      createdBy: principal.kind === 'user' ? principal.userId : null,
      message: `uploaded ${input.fileName} (${parsed.specVersion}, ${Math.round(input.file.length / 1024)} KB): ${totals.totalSnippets} snippets in ${Date.now() - started} ms`,
      snippets: totals.totalSnippets,
    });
  } catch (error) {
    if (!existing) {
      await services.libraries.delete(libraryId);
      await services.snippets.deleteGenerations({ libraryId });
    }
    throw error;
  }
  return { libraryName: libraryId, message: `${libraryId} (${parsed.title} ${parsed.version}) was indexed and is ready to query.` };
}
