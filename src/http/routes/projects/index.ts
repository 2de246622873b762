/**
 * `/v2/projects`: a project is a code base's lockfiles (multipart uploads, at most 10 MB each),
 * the libraries its packages map to and the versions it pins; `projectId` on context, library
 * search and MCP (or an API key bound to a project) answers at those versions.
 */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../../../services';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { receiveMultipart, type MultipartOptions } from '../../middlewares/multipart';
import { validate } from '../../validate';
import { ValidationError } from '../../../errors';
import { MAX_LOCKFILE_BYTES } from '../../../projects/lockfiles';
import { createProject, deleteProject, listProjects, projectFor, remapProject, uploadLockfile, type LockfileUpload } from '../../../projects/projects';
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

function lockfileOf(ctx: Context): LockfileUpload {
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const file = ctx.file ?? ctx.request.file;
  if (!file) throw new ValidationError(body.lockfile === undefined ? 'lockfile is required: the lockfile or manifest, as a file.' : 'lockfile must be sent as a file (a part with a filename), not as a text field.', 'lockfile');
  return { filename: textField(body, 'filename', 300) ?? file.originalname ?? '', content: file.buffer };
}

export function projectRoutes(services: Services): Router {
  const router = new Router();
  const standard = rateLimit(services, { class: 'standard' });
  const expensive = rateLimit(services, { class: 'expensive' });

  router.get('projects.list', '/projects', guard(services), standard, validate(s['projects.list']), async (ctx) => {
    const projects = await listProjects(services, ctx.state.principal);
    ctx.body = { projects: projects.map((p) => presentProject({ ...p, packages: p.packages ?? [] })) };
  });

  router.post('projects.create', '/projects', guard(services), expensive, receiveMultipart(LOCKFILE_FORM), validate(s['projects.create']), async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const project = await createProject(services, ctx.state.principal, { name: textField(body, 'name', 200), teamId: textField(body, 'teamId', 100), lockfile: lockfileOf(ctx) });
    ctx.status = 201;
    ctx.body = presentProject(project, { unmatched: true });
  });

  router.get('projects.read', '/projects/:projectId', guard(services), standard, validate(s['projects.read']), async (ctx) => {
    const project = await projectFor(services, ctx.state.principal, ctx.state.input.params.projectId);
    ctx.body = presentProject(project, { unmatched: true, packages: ctx.state.input.query.packages === true });
  });

  router.put('projects.upload', '/projects/:projectId/lockfile', guard(services), expensive, receiveMultipart(LOCKFILE_FORM), validate(s['projects.upload']), async (ctx) => {
    const project = await uploadLockfile(services, ctx.state.principal, ctx.state.input.params.projectId, lockfileOf(ctx));
    ctx.body = presentProject(project, { unmatched: true });
  });

  router.post('projects.remap', '/projects/:projectId/remap', guard(services), expensive, validate(s['projects.remap']), async (ctx) => {
    const project = await remapProject(services, ctx.state.principal, ctx.state.input.params.projectId);
    ctx.body = presentProject(project, { unmatched: true });
  });

  router.delete('projects.delete', '/projects/:projectId', guard(services), standard, validate(s['projects.delete']), async (ctx) => {
    await deleteProject(services, ctx.state.principal, ctx.state.input.params.projectId);
    ctx.status = 204;
  });

  return router;
}
