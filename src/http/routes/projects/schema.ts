/** The projects routes' contract (see http/validate.ts). */
import { z } from 'zod';
import { query, type RouteSchema } from '../../validate';
import { LOCKFILE_NAMES } from '../../../projects/lockfiles/types';

const tag = 'Projects';
const projectParams = z.object({ projectId: z.string().min(1).max(40).openapi({ pattern: '^prj_[a-z0-9]{16}$' }) });

const lockfileForm = {
  lockfile: z
    .string()
    .optional()
    .openapi({ format: 'binary', description: `The lockfile or manifest (at most 10 MB): ${LOCKFILE_NAMES.join(', ')}; requirements*.txt too` }),
  url: z.string().max(2000).optional().openapi({
    description:
      'Instead of a file: the http(s) URL of the raw lockfile, fetched now and again by refresh and push deliveries (loopback and private addresses only when the operator allows the host)',
  }),
  filename: z
    .string()
    .max(300)
    .optional()
    .openapi({ description: "The file's name in the project (default: the uploaded file's name); a later upload under the same name replaces it" }),
};

const pin = z.object({ libraryId: z.string(), version: z.string(), package: z.string(), ecosystem: z.string(), lockfile: z.string() });
// biome-ignore lint/suspicious/noThenProperty: the published field name of a suggested add (see the presenter)
const addAction = z.object({ method: z.literal('POST'), path: z.string(), body: z.object({}).passthrough(), then: z.string() });
const unmatched = z.object({ ecosystem: z.string(), name: z.string(), version: z.string(), direct: z.boolean(), lockfile: z.string(), add: addAction });

export const projectJson = z
  .object({
    id: z.string(),
    name: z.string(),
    teamId: z.string().nullable(),
    createdBy: z.string().nullable(),
    lockfiles: z.array(
      z.object({ filename: z.string(), kind: z.string(), sha256: z.string(), uploadedAt: z.string(), packages: z.number().int(), url: z.string().nullable() }),
    ),
    webhook: z.object({ configured: z.boolean(), createdAt: z.string().nullable() }),
    mapping: z.object({
      packages: z.number().int(),
      mapped: z.number().int(),
      direct: z.number().int(),
      directMapped: z.number().int(),
      rate: z.number().openapi({ description: 'Mapped share of the direct packages (of all, when the lockfiles do not say which are direct)' }),
    }),
    pins: z.array(pin),
    unmatched: z
      .array(unmatched)
      .optional()
      .openapi({ description: 'Packages no library matches (direct ones; all when the lockfiles do not say), each with the call that adds it' }),
    mappedAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Project');

export const projectSchemas = {
  'projects.list': {
    summary: 'The projects of your teams (and your own)',
    tag,
    response: z.object({ projects: z.array(projectJson.omit({ unmatched: true })) }),
  },
  'projects.create': {
    summary: 'Create a project from a lockfile or manifest: its packages are mapped to catalogue libraries and the versions it locks are pinned',
    tag,
    status: 201,
    multipart: z.object({
      ...lockfileForm,
      name: z.string().max(200).optional(),
      teamId: z.string().max(100).optional().openapi({ description: 'The team that owns it (default: your default team)' }),
    }),
    response: projectJson,
    errors: ['team_not_found'],
  },
  'projects.read': {
    summary: 'A project: its lockfiles, pins and unmatched packages',
    tag,
    params: projectParams,
    query: z.object({ packages: query.flag().openapi({ description: 'Include every package and its mapping' }) }),
    response: projectJson,
    errors: ['not_found'],
  },
  'projects.upload': {
    summary: 'Upload a lockfile to a project (a refresh: one of the same name is replaced and the packages mapped again)',
    tag,
    params: projectParams,
    multipart: z.object(lockfileForm),
    response: projectJson,
    errors: ['not_found', 'conflict'],
  },
  'projects.refresh': {
    summary: 'Fetch the lockfiles given by URL again; the changed ones are mapped anew (unchanged and failed ones are listed)',
    tag,
    params: projectParams,
    response: projectJson.extend({
      refreshed: z.object({
        changed: z.array(z.string()),
        unchanged: z.array(z.string()),
        failed: z.array(z.object({ filename: z.string(), message: z.string() })),
      }),
    }),
    errors: ['not_found', 'conflict'],
  },
  'projects.webhook': {
    summary: "Create (or replace) the project's push webhook: its path and secret, shown once",
    tag,
    params: projectParams,
    status: 201,
    response: z.object({ path: z.string(), secret: z.string(), message: z.string() }),
    errors: ['not_found'],
  },
  'projects.push': {
    summary:
      "A push delivery of the project's repository (no key: verified by the hook's secret as GitHub X-Hub-Signature-256, GitLab X-Gitlab-Token, Bitbucket X-Hub-Signature or X-Shelfmark-Signature): the lockfiles given by URL are fetched again; a replayed body is ignored; an unverified delivery or unknown project is 401 invalid_signature",
    tag,
    params: projectParams,
    body: z.unknown().openapi({ type: 'object', description: "The host's push event" }),
    response: z.object({ accepted: z.boolean(), message: z.string() }).passthrough(),
    errors: ['invalid_signature'],
  },
  'projects.remap': {
    summary: 'Map the packages again against the catalogue as it is now (after adding libraries)',
    tag,
    params: projectParams,
    response: projectJson,
    errors: ['not_found', 'conflict'],
  },
  'projects.delete': {
    summary: "Delete a project (its creator, its team's owners, admins)",
    tag,
    params: projectParams,
    response: z.object({ id: z.string(), deleted: z.literal(true), message: z.string() }),
    errors: ['not_found'],
  },
} satisfies Record<string, RouteSchema>;
