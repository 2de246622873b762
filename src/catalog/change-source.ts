/**
 * Use case "change a library's source settings" (`PATCH /v2/libraries/{id}` `sourceOptions`;
 * see source-settings.ts for the rules): a build with the new settings, stored when it
 * publishes.
 */
import { z } from 'zod';
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import type { LibraryRecord } from '../store/models/library';
import type { JobRecord } from '../store/models/job';
import type { GitJobParams, LlmsTxtJobParams, WebsiteJobParams } from '../domain/job-params';
import { clientLibraryId } from '../store/libraries';
import { encryptSecret } from '../auth/crypto';
import { ValidationError } from '../errors';
import { isGitHost } from '../domain/library-ids';
import { addRepoBody } from './add-repo';
import { addWebsiteBody, webLibraryId } from './add-web';
import { changedWebSettings } from './source-settings';

const websiteFields = addWebsiteBody
  .pick({ url: true, scope: true, maxPages: true, maxDepth: true, include: true, exclude: true, headers: true })
  .partial().shape;
const gitFields = addRepoBody.pick({ skipVersionFiltering: true, generateDocs: true }).shape;

/** `sourceOptions` of PATCH /v2/libraries/{id}: the fields of the library's source kind. */
export const sourceOptionsInput = z.object({ ...websiteFields, ...gitFields });
export type SourceOptionsInput = z.infer<typeof sourceOptionsInput>;

const WEB_FIELDS = ['url', 'scope', 'maxPages', 'maxDepth', 'include', 'exclude', 'headers'] as const;
const FIELDS_OF: Record<string, readonly (keyof SourceOptionsInput)[]> = {
  website: WEB_FIELDS,
  llmstxt: ['url'],
  git: ['skipVersionFiltering', 'generateDocs'],
};

/**
 * Queues a build of `lib` with new source settings (stored when it publishes); null when
 * they equal the stored ones. The caller was authorized for `libraries.update` on `lib`.
 */
export async function changeSourceSettings(
  services: Pick<Ports, 'config' | 'jobs' | 'pokeWorker'>,
  principal: Principal,
  lib: LibraryRecord,
  input: SourceOptionsInput,
): Promise<JobRecord | null> {
  const id = clientLibraryId(lib._id);
  const kind = isGitHost(lib.source) ? 'git' : lib.source;
  const allowed = FIELDS_OF[kind];
  if (!allowed)
    throw new ValidationError(
      `${id} is ${lib.source === 'archive' ? 'an uploaded archive' : 'an uploaded OpenAPI document'}: it has no source settings; upload it again to change it.`,
      'sourceOptions',
    );
  for (const field of Object.keys(input) as (keyof SourceOptionsInput)[]) {
    if (input[field] !== undefined && !allowed.includes(field))
      throw new ValidationError(`sourceOptions.${field} does not apply to a ${lib.source} library (it has: ${allowed.join(', ')}).`, `sourceOptions.${field}`);
  }
  const createdBy = principal.kind === 'user' ? principal.userId : null;
  const base = { libraryId: lib._id, version: 'latest', trigger: 'settings' as const, teamId: lib.teamId, createdBy };
  let job: JobRecord;
  if (kind === 'git') {
    const generateDocs = input.generateDocs ?? lib.options?.generateDocs ?? false;
    if (generateDocs && !lib.private)
      throw new ValidationError('sourceOptions.generateDocs applies to private repositories only.', 'sourceOptions.generateDocs');
    const skipVersionFiltering = input.skipVersionFiltering ?? lib.options?.skipVersionFiltering ?? false;
    if (skipVersionFiltering === (lib.options?.skipVersionFiltering ?? false) && generateDocs === (lib.options?.generateDocs ?? false)) return null;
    if (!isGitHost(lib.source)) return null;
    const params: GitJobParams = {
      source: 'git',
      host: lib.source,
      cloneUrl: lib.cloneUrl,
      webUrl: lib.repoUrl,
      skipVersionFiltering,
      generateDocs,
      followPreviousVersions: true,
    };
    const encryptedToken = lib.private ? await services.jobs.lastToken(lib._id) : null;
    job = await services.jobs.enqueue({ ...base, kind: 'add-repo', params, encryptedToken });
  } else {
    const stored = lib.sourceParams;
    if (!stored || (stored.source !== 'website' && stored.source !== 'llmstxt'))
      throw new ValidationError(`${id} has no source settings to change; add it again.`, 'sourceOptions');
    if (input.url !== undefined && webLibraryId(stored.source === 'website' ? 'websites' : 'llmstxt', input.url) !== id) {
      throw new ValidationError(
        `sourceOptions.url names another library (${webLibraryId(stored.source === 'website' ? 'websites' : 'llmstxt', input.url)}); a library's URL can only change within its own id.`,
        'sourceOptions.url',
      );
    }
    if (changedWebSettings(stored, input).length === 0) return null;
    const headers =
      input.headers === undefined
        ? await services.jobs.lastHeaders(lib._id)
        : Object.keys(input.headers).length > 0
          ? encryptSecret(JSON.stringify(input.headers), services.config.secret)
          : null;
    if (stored.source === 'website') {
      const params: WebsiteJobParams = {
        ...stored,
        ...Object.fromEntries(WEB_FIELDS.filter((f) => f !== 'headers' && input[f] !== undefined).map((f) => [f, input[f]])),
      };
      job = await services.jobs.enqueue({ ...base, kind: 'add-website', params, encryptedHeaders: headers });
    } else {
      const params: LlmsTxtJobParams = { source: 'llmstxt', url: input.url ?? stored.url };
      job = await services.jobs.enqueue({ ...base, kind: 'add-llmstxt', params, encryptedHeaders: headers });
    }
  }
  services.pokeWorker();
  return job;
}
