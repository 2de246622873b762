/**
 * The contract of adding, refreshing and managing libraries and their jobs (see
 * http/validate.ts). The add and refresh bodies are the use cases' own schemas
 * (catalog/add-repo.ts), so the corpus loader and HTTP accept the same input.
 */
import { z } from 'zod';
import type { ZodOpenAPIMetadata } from '@asteasolutions/zod-to-openapi';
import { addRepoBody, refreshBody } from '../../../catalog/add-repo';
import type { GitHost } from '../../../domain/library-ids';
import { scheduleInput } from '../../../catalog/schedule';
import { versionRuleInput } from '../../../domain/version-rule';
import { sourceOptionsInput } from '../../../catalog/change-source';
import { query, type RouteSchema } from '../../validate';
import { HEADER_NAMES, LIBRARY_ID_PATTERN, libraryParams, teamQuery } from '../shared-schema';

/** domain/library-ids.ts's GIT_HOSTS as a tuple zod can enumerate (checked against GitHost). */
const GIT_HOSTS = ['github', 'gitlab', 'bitbucket', 'git'] as const satisfies readonly GitHost[];
const hostParams = z.object({ host: z.enum(GIT_HOSTS, { errorMap: () => ({ message: `must be one of: ${GIT_HOSTS.join(', ')}` }) }) });
const jobParams = z.object({ id: z.string().min(1).max(200) });
const trustScoreMessage = 'trustScore must be a number from 0 to 10';

/** A semver range as the document can say it (whole versions, x-ranges, ^ ~ and comparisons, ||); semver has the last word. */
const SEMVER_PART = '(0|[1-9][0-9]{0,14}|[xX*])';
const SEMVER_COMPARATOR = `(\\^|~|>=|<=|>|<|=)? *v?${SEMVER_PART}(\\.${SEMVER_PART}){0,2}`;
const SEMVER_SET = ` *${SEMVER_COMPARATOR}( +${SEMVER_COMPARATOR})* *`;
const SEMVER_RANGE = `^${SEMVER_SET}(\\|\\|${SEMVER_SET})*$`;
/** The forms of `versionRule` (libraries/version-rule.ts), for the document. */
const VERSION_RULE_FORMS: ZodOpenAPIMetadata['anyOf'] = [
  { type: 'null' },
  {
    type: 'object',
    required: ['kind', 'count'],
    additionalProperties: false,
    properties: { kind: { type: 'string', enum: ['minors'] }, count: { type: 'integer', minimum: 1, maximum: 50 } },
  },
  {
    type: 'object',
    required: ['kind', 'range'],
    additionalProperties: false,
    properties: { kind: { type: 'string', enum: ['range'] }, range: { type: 'string', minLength: 1, maxLength: 200, pattern: SEMVER_RANGE } },
  },
  {
    type: 'object',
    required: ['kind', 'pattern'],
    additionalProperties: false,
    properties: { kind: { type: 'string', enum: ['pattern'] }, pattern: { type: 'string', minLength: 1, maxLength: 200 } },
  },
];

export const addLibraryResponse = z.object({ libraryName: z.string(), message: z.string() }).passthrough().openapi('AddLibraryResponse');

export const librarySchemas = {
  'libraries.add': {
    summary: "Add a Git repository (host: github, gitlab, bitbucket, git); a private one goes to the caller's team",
    tag: 'Add Library',
    params: hostParams,
    body: addRepoBody.extend({ docsRepoUrl: addRepoBody.shape.docsRepoUrl.openapi({ format: 'uri' }) }).openapi('AddRepoRequest'),
    response: addLibraryResponse,
    errors: ['duplicate_repo', 'access_denied', 'forbidden', 'conflict', 'timeout'],
  },
  'libraries.hosts': { summary: "The Git hosts' base URLs and the allowed URL prefixes for other Git servers (for the add form)", tag: 'Add Library' },
  'libraries.refresh': {
    summary: 'Re-fetch the latest docs of a library (or a tag with branch)',
    tag: 'Refresh',
    body: refreshBody.extend({ libraryName: refreshBody.shape.libraryName.openapi({ pattern: LIBRARY_ID_PATTERN }) }),
    response: addLibraryResponse,
    errors: ['invalid_library_id', 'library_not_found', 'access_denied', 'forbidden', 'conflict', 'timeout'],
  },
  'jobs.list': {
    summary: 'Indexing jobs the caller may see, newest first',
    tag: 'Jobs',
    query: z.object({
      libraryId: query.text(300).openapi({ description: 'Only the jobs of this library (/owner/repo)', pattern: LIBRARY_ID_PATTERN }),
      limit: query.int(1, 200, 50),
    }),
    errors: ['invalid_library_id', 'library_not_found'],
  },
  'jobs.read': { summary: 'One job with its progress and log', tag: 'Jobs', params: jobParams, errors: ['not_found'] },
  'jobs.cancel': {
    summary: "Cancel a job that has not ended; an ended job's record is removed",
    tag: 'Jobs',
    params: jobParams,
    errors: ['not_found', 'conflict'],
  },
  'libraries.list': {
    summary: "The catalogue with builds: every copy the caller may see (public ones and its teams' private ones; admins: all, each with its teamId)",
    tag: 'Libraries',
  },
  'libraries.read': {
    summary:
      "A library with its builds and recent jobs, and whether the caller's team policy lets it use the library (a member whose policy excludes it: 403 access_denied)",
    tag: 'Libraries',
    params: libraryParams,
    query: teamQuery,
    errors: ['library_not_found', 'access_denied'],
  },
  'libraries.update': {
    summary:
      "Set the title, description, trustScore, aliases, the refresh schedule or the version rule (admins; a title or description set here stays across builds until set to null), or change the source settings (sourceOptions: admins for a public library, the team's owners for its copy): a build with them is queued (jobId) and they are stored when it publishes",
    tag: 'Libraries',
    params: libraryParams,
    query: teamQuery,
    body: z
      .object({
        title: z
          .string({ invalid_type_error: 'title must be text or null' })
          .trim()
          .min(1, 'title must not be empty (null gives it back to the docs)')
          .max(200, 'title must be at most 200 characters')
          .nullable()
          .optional(),
        description: z
          .string({ invalid_type_error: 'description must be text or null' })
          .trim()
          .max(2000, 'description must be at most 2000 characters')
          .nullable()
          .optional(),
        trustScore: z.number({ invalid_type_error: trustScoreMessage }).min(0, trustScoreMessage).max(10, trustScoreMessage).optional(),
        aliases: z
          .array(z.string().max(100), { errorMap: () => ({ message: 'aliases must be a list of strings' }) })
          .max(100)
          .optional(),
        schedule: scheduleInput
          .optional()
          .openapi({ description: '"default" (the source kind\'s REFRESH_DEFAULT_HOURS), "never", or hours between refreshes (1-8760)' }),
        versionRule: versionRuleInput.optional().openapi({
          description: 'null, {"kind":"minors","count":1-50}, {"kind":"range","range":"<semver range>"} or {"kind":"pattern","pattern":"<glob>"}',
          anyOf: VERSION_RULE_FORMS,
        }),
        sourceOptions: sourceOptionsInput
          .extend({ headers: sourceOptionsInput.shape.headers.openapi(HEADER_NAMES) })
          .optional()
          .openapi({
            description:
              'A website: url (same library id), scope, maxPages, maxDepth, include, exclude, headers; an llms.txt: url; a Git repository: skipVersionFiltering, generateDocs (private only)',
          }),
      })
      .strict(),
    errors: ['library_not_found'],
  },
  'libraries.webhook': {
    summary: "Create (or replace) the push webhook of a Git library (admins; a team's owners for its copy); the answer holds its secret, shown only this once",
    tag: 'Libraries',
    status: 201,
    params: libraryParams,
    query: teamQuery,
    body: z.object({
      host: z
        .enum(GIT_HOSTS, { errorMap: () => ({ message: `host must be one of: ${GIT_HOSTS.join(', ')}` }) })
        .optional()
        .openapi({ description: "The host's signature scheme (default: the library's source)" }),
    }),
    errors: ['library_not_found'],
  },
  'webhooks.receive': {
    summary:
      "A host's push delivery (no key: verified by the host's own signature with the hook's secret: GitHub X-Hub-Signature-256, GitLab X-Gitlab-Token, Bitbucket X-Hub-Signature, git X-Shelfmark-Signature HMAC-SHA256). A push to the tracked branch queues a refresh (202); a replayed delivery id or another ref is ignored (200); an unverified delivery or unknown library is 401 invalid_signature",
    tag: 'Refresh',
    params: hostParams,
    query: z.object({ library: query.text(300).openapi({ description: 'The library key given when the hook was created' }) }),
    body: z.unknown().openapi({ type: 'object', description: "The host's push event" }),
    errors: ['invalid_signature'],
  },
  'libraries.delete': {
    summary: 'Delete a library and its snippets',
    tag: 'Libraries',
    params: libraryParams,
    query: teamQuery,
    errors: ['library_not_found'],
  },
  'libraries.export': {
    summary: 'Stream a bundle of the library (gzip NDJSON, docs/BUNDLES.md): every built version, or one',
    tag: 'Libraries',
    params: libraryParams,
    query: z.object({ teamId: query.teamId(), version: query.text(200).openapi({ description: 'Only this version or tag' }) }),
    responseType: 'application/gzip',
    errors: ['library_not_found'],
  },
  'libraries.import': {
    summary: 'Import a bundle (admins; the body is the bundle file, application/gzip) and publish it in one step; importing it again changes nothing',
    tag: 'Libraries',
    query: z.object({ force: query.flag().openapi({ description: 'Replace versions served from a newer build' }) }),
    rawBody: 'application/octet-stream',
    errors: ['conflict'],
  },
  'libraries.upload': {
    summary: "Upload an OpenAPI specification (JSON or YAML, at most 10 MB); private to the caller's team unless public=true (admins)",
    tag: 'Add Library',
    multipart: z.object({
      openapiFile: z.string().openapi({ format: 'binary' }),
      libraryTitle: z.string().max(200).optional(),
      description: z.string().max(2000).optional(),
      force: z.enum(['true', 'false']).optional().openapi({ description: 'Replace the library of the same id in the same scope (your team, or public)' }),
      public: z.enum(['true', 'false']).optional().openapi({ description: 'Publish to every caller (admins only); default false when the caller has a team' }),
    }),
    response: addLibraryResponse,
    errors: ['duplicate_repo', 'access_denied', 'forbidden'],
  },
} satisfies Record<string, RouteSchema>;
