/**
 * `/v2/projects`: a project is a code base's lockfiles (multipart uploads of at most 10 MB, or
 * URLs they are fetched from, as a form field or JSON), the libraries its packages map to and
 * the versions it pins; `projectId` on context, library search and MCP (or an API key bound to
 * a project) answers at those versions. Fetched lockfiles refresh by hand or on a signed push.
 */
import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { receiveMultipart, type MultipartOptions } from '../../middlewares/multipart';
import { validate } from '../../validate';
import { ValidationError } from '../../../errors';
import { MAX_LOCKFILE_BYTES } from '../../../projects/lockfiles';
import { createProject, deleteProject, listProjects, projectFor, remapProject, uploadLockfile, type LockfileInput } from '../../../projects/projects';
import { createProjectWebhook, receiveProjectPush, refreshProject } from '../../../projects/refresh';
import { presentProject } from './presenter';
import { projectSchemas as s } from './schema';

const LOCKFILE_FORM: MultipartOptions = { fileField: 'lockfile', maxFileBytes: MAX_LOCKFILE_BYTES, maxFields: 5, maxFieldBytes: 4096, maxParts: 8 };

function textField(body: Record<string, unknown>, name: string, max: number): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError(`${name} must be text, sent once.`, name);
  if (value.length > max) throw new ValidationError(`${name} is too long (at most ${max} characters).`, name);
  return value.trim() === '' ? undefined : value.trim();
}

/** The lockfile of a form (a file, or a url field) or of a JSON body (`url`). */
function lockfileOf(ctx: Context): LockfileInput {
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const file = ctx.file ?? ctx.request.file;
  const url = textField(body, 'url', 2000);
  const filename = textField(body, 'filename', 300);
  if (file && url) throw new ValidationError('Send the lockfile as a file or as a url, not both.', 'url');
  if (url) return { url, ...(filename ? { filename } : {}) };
  if (!file)
    throw new ValidationError(
      body.lockfile === undefined
        ? 'lockfile is required: the lockfile or manifest as a file, or url: where to fetch it.'
        : 'lockfile must be sent as a file (a part with a filename), not as a text field.',
      'lockfile',
    );
  return { upload: { filename: filename ?? file.originalname ?? '', content: file.buffer } };
}

/** A multipart form, or a JSON body (already parsed by the app's body parser) for a lockfile given by URL. */
function formOrJson(): Middleware {
  const multipart = receiveMultipart(LOCKFILE_FORM);
  return async function receiveLockfileBody(ctx, next) {
    if (ctx.is('application/json')) return next();
    return multipart(ctx, next);
  };
}

/** What `projectRoutes` reaches (ports.ts). */
export type ProjectRoutesPorts = Pick<
  Ports,
  'authenticator' | 'catalogIndex' | 'config' | 'locks' | 'policies' | 'projects' | 'rateLimiter' | 'settings' | 'trustedProxy'
>;

export function projectRoutes(services: ProjectRoutesPorts): Router {
  const router = new Router();
  const standard = rateLimit(services, { class: 'standard' });
  const expensive = rateLimit(services, { class: 'expensive' });

  router.get('projects.list', '/projects', guard(services), standard, validate(s['projects.list']), async (ctx) => {
    const projects = await listProjects(services, ctx.state.principal);
    ctx.body = { projects: projects.map((p) => presentProject({ ...p, packages: p.packages ?? [] })) };
  });

  router.post('projects.create', '/projects', guard(services), expensive, formOrJson(), validate(s['projects.create']), async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const project = await createProject(services, ctx.state.principal, {
      name: textField(body, 'name', 200),
      teamId: textField(body, 'teamId', 100),
      lockfile: lockfileOf(ctx),
    });
    ctx.status = 201;
    ctx.body = presentProject(project, { unmatched: true });
  });

  router.get('projects.read', '/projects/:projectId', guard(services), standard, validate(s['projects.read']), async (ctx) => {
    const project = await projectFor(services, ctx.state.principal, ctx.state.input.params.projectId);
    ctx.body = presentProject(project, { unmatched: true, packages: ctx.state.input.query.packages === true });
  });

  router.put('projects.upload', '/projects/:projectId/lockfile', guard(services), expensive, formOrJson(), validate(s['projects.upload']), async (ctx) => {
    const project = await uploadLockfile(services, ctx.state.principal, ctx.state.input.params.projectId, lockfileOf(ctx));
    ctx.body = presentProject(project, { unmatched: true });
  });

  router.post('projects.remap', '/projects/:projectId/remap', guard(services), expensive, validate(s['projects.remap']), async (ctx) => {
    const project = await remapProject(services, ctx.state.principal, ctx.state.input.params.projectId);
    ctx.body = presentProject(project, { unmatched: true });
  });

  router.post('projects.refresh', '/projects/:projectId/refresh', guard(services), expensive, validate(s['projects.refresh']), async (ctx) => {
    const outcome = await refreshProject(services, ctx.state.principal, ctx.state.input.params.projectId);
    ctx.body = {
      ...presentProject(outcome.project, { unmatched: true }),
      refreshed: { changed: outcome.changed, unchanged: outcome.unchanged, failed: outcome.failed },
    };
  });

  router.post('projects.webhook', '/projects/:projectId/webhook', guard(services), standard, validate(s['projects.webhook']), async (ctx) => {
    const hook = await createProjectWebhook(services, ctx.state.principal, ctx.state.input.params.projectId);
    ctx.status = 201;
    ctx.body = {
      ...hook,
      message:
        'Copy the secret now: it is shown only this once. Point a push webhook of the repository at the path (signed as GitHub, GitLab, Bitbucket or X-Shelfmark-Signature do).',
    };
  });

  // Deliveries prove themselves by their signature; no key, no guard (as library webhooks).
  router.post('webhooks.receive', '/projects/:projectId/push', standard, validate(s['projects.push']), async (ctx) => {
    const outcome = await receiveProjectPush(services, {
      projectId: ctx.state.input.params.projectId,
      headers: ctx.headers,
      rawBody: (ctx.request as { rawBody?: string }).rawBody,
    });
    ctx.body = outcome;
  });

  router.delete('projects.delete', '/projects/:projectId', guard(services), standard, validate(s['projects.delete']), async (ctx) => {
    await deleteProject(services, ctx.state.principal, ctx.state.input.params.projectId);
    ctx.body = {
      id: ctx.state.input.params.projectId,
      deleted: true,
      message: 'The project was deleted; API keys bound to it now answer 404 for it (make new ones).',
    };
  });

  return router;
}
