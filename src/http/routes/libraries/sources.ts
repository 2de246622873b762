/**
 * `POST /add/website`, `POST /add/llmstxt` (JSON, validate() style) and `POST /add/archive`
 * (multipart: the 50 MB limit enforced by multer while the file streams in). Same chain as
 * `POST /add/repo`: guard → expensive rate limit → validate → use case (which waits for the
 * job: 504 while it carries on).
 */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { receiveMultipart } from '../../middlewares/multipart';
import { validate } from '../../validate';
import { ValidationError } from '../../../errors';
import { addLlmsTxt, addWebsite } from '../../../catalog/add-web';
import { addArchive, type ArchiveUploadInput } from '../../../catalog/add-archive';
import { ARCHIVE_UPLOAD_FORM, sourceSchemas as s } from './sources-schema';

/** What `sourceRoutes` reaches (ports.ts). */
export type SourceRoutesPorts = Pick<
  Ports,
  | 'authenticator'
  | 'config'
  | 'jobs'
  | 'libraries'
  | 'log'
  | 'manifests'
  | 'pokeWorker'
  | 'policies'
  | 'rateLimiter'
  | 'settings'
  | 'snippets'
  | 'teams'
  | 'trustedProxy'
>;

export function sourceRoutes(services: SourceRoutesPorts): Router {
  const router = new Router();
  const expensive = rateLimit(services, { class: 'expensive' });

  router.post('libraries.add', '/add/website', guard(services), expensive, validate(s['add.website']), async (ctx) => {
    const result = await addWebsite(services, ctx.state.principal, ctx.state.input.body);
    ctx.body = { libraryName: result.libraryName, message: result.message };
  });

  router.post('libraries.add', '/add/llmstxt', guard(services), expensive, validate(s['add.llmstxt']), async (ctx) => {
    const result = await addLlmsTxt(services, ctx.state.principal, ctx.state.input.body);
    ctx.body = { libraryName: result.libraryName, message: result.message };
  });

  router.post(
    'libraries.upload',
    '/add/archive',
    guard(services),
    expensive,
    receiveMultipart(ARCHIVE_UPLOAD_FORM),
    validate(s['add.archive']),
    async (ctx) => {
      const result = await addArchive(services, ctx.state.principal, readArchiveForm(ctx));
      ctx.body = { libraryName: result.libraryName, message: result.message };
    },
  );
  return router;
}

/** The archive upload's input from the parsed form; every refusal names its field. */
function readArchiveForm(ctx: Context): ArchiveUploadInput {
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const file = ctx.file ?? ctx.request.file;
  if (!file) {
    throw new ValidationError(
      body.archiveFile === undefined ? 'archiveFile is required.' : 'archiveFile must be sent as a file (a part with a filename), not as a text field.',
      'archiveFile',
    );
  }
  const text = (name: string, max: number): string | undefined => {
    const value = body[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new ValidationError(`${name} must be text, sent once.`, name);
    if (value.length > max) throw new ValidationError(`${name} is too long (at most ${max} characters).`, name);
    return value;
  };
  const flag = (name: string): boolean | undefined => {
    const value = body[name];
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw new ValidationError(`${name} must be "true" or "false".`, name);
    return value === 'true';
  };
  return {
    file: file.buffer,
    fileName: (file.originalname || 'archive').replace(/[^\w.-]+/g, '_').slice(0, 100),
    libraryTitle: text('libraryTitle', 200),
    description: text('description', 2000),
    force: flag('force') === true,
    public: flag('public'),
  };
}
