/**
 * Adding and refreshing libraries, following their jobs, and managing the catalogue.
 * Each route is named after its operation in the permissions table (auth/permissions.ts);
 * chains read like a checklist: guard (authenticate + authorize) → rate limit → validate →
 * handler (with the resource-dependent `authorize`).
 */
import { Router } from '@koa/router';
import type { Ports } from '../../../ports';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { addRepository, refreshLibrary } from '../../../catalog/add-repo';
import { isGitHost, parseLibraryId } from '../../../domain/library-ids';
import { AccessDeniedError, ConflictError, LibraryNotFoundError, NotFoundError } from '../../../errors';
import { changeSourceSettings } from '../../../catalog/change-source';
import { authorize } from '../../../auth/permissions';
import { isAdminLike, type Principal } from '../../../auth/principal';
import { presentJob, presentLibrary } from '../../presenters/libraries';
import { clientLibraryId } from '../../../store/libraries';
import { TERMINAL_JOB_STATES } from '../../../store/models/job';
import { findLibraryFor, libraryKeyFor } from '../../../catalog/access';
import { presentSchedule } from '../../../catalog/schedule';
import { createWebhook, receiveDelivery } from '../../../catalog/webhooks';
import { validate } from '../../validate';
import type { LibraryRecord } from '../../../store/models/library';
import { librarySchemas as s } from './schema';
import { libraryIdOf } from '../shared-schema';
import { deleteLibrary, deletePortsOf } from '../../../catalog/delete';
import { listLibraries, updateLibrary } from '../../../catalog/update';

/** What `libraryRoutes` reaches (ports.ts). */
export type LibraryRoutesPorts = Pick<
  Ports,
  | 'authenticator'
  | 'config'
  | 'credentials'
  | 'jobs'
  | 'libraries'
  | 'locks'
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

export function libraryRoutes(services: LibraryRoutesPorts): Router {
  const router = new Router();
  const expensive = rateLimit(services, { class: 'expensive' });
  const standard = rateLimit(services, { class: 'standard' });

  router.post('libraries.add', '/add/repo/:host', guard(services), expensive, validate(s['libraries.add']), async (ctx) => {
    const { params, body } = ctx.state.input;
    const result = await addRepository(services, ctx.state.principal, params.host, body);
    ctx.body = { libraryName: result.libraryName, message: result.message };
  });

  // What the add form offers: each host's base URL (to tell the host from a pasted URL) and
  // the operator's allowed URL prefixes for other Git servers. Credentials in a prefix are hidden.
  router.get('libraries.add', '/add/hosts', guard(services), standard, validate(s['libraries.hosts']), async (ctx) => {
    const { gitHosts, gitAllowedPrefixes } = services.config;
    ctx.body = {
      hosts: [
        { host: 'github', label: 'GitHub', baseUrl: gitHosts.github },
        { host: 'gitlab', label: 'GitLab', baseUrl: gitHosts.gitlab },
        { host: 'bitbucket', label: 'Bitbucket', baseUrl: gitHosts.bitbucket },
        { host: 'git', label: 'Other Git server', baseUrl: null },
      ],
      allowedPrefixes: gitAllowedPrefixes.map((p) => p.replace(/\/\/[^/@\s]*@/, '//')),
    };
  });

  router.post('libraries.refresh', '/refresh', guard(services), expensive, validate(s['libraries.refresh']), async (ctx) => {
    const result = await refreshLibrary(services, ctx.state.principal, ctx.state.input.body);
    ctx.body = { libraryName: result.libraryName, message: result.message };
  });

  router.get('jobs.list', '/jobs', guard(services), standard, validate(s['jobs.list']), async (ctx) => {
    const { principal } = ctx.state;
    const { query } = ctx.state.input;
    const libraryId = query.libraryId !== undefined ? await libraryKeyFor(services, principal, parseLibraryId(query.libraryId).libraryId) : undefined;
    const { limit } = query;
    const jobs = await services.jobs.list({ libraryId, teamIds: teamScope(principal), limit, logs: false });
    ctx.body = { jobs: jobs.map((j) => presentJob(j, false)) };
  });

  router.get('jobs.read', '/jobs/:id', guard(services), standard, validate(s['jobs.read']), async (ctx) => {
    const { id } = ctx.state.input.params;
    const job = await services.jobs.get(id);
    const scope = teamScope(ctx.state.principal);
    if (!job || (scope && job.teamId && !scope.includes(job.teamId))) throw new NotFoundError(`Job ${id} not found.`);
    ctx.body = presentJob(job, true);
  });

  router.delete('jobs.cancel', '/jobs/:id', guard(services), standard, validate(s['jobs.cancel']), async (ctx) => {
    const { principal } = ctx.state;
    const { id } = ctx.state.input.params;
    const job = await services.jobs.get(id);
    const scope = teamScope(principal);
    if (!job || (scope && job.teamId && !scope.includes(job.teamId))) throw new NotFoundError(`Job ${id} not found.`);
    authorize(principal, 'jobs.cancel', job);
    // An ended job has nothing to cancel: its record is removed (the job list is tidied).
    if (TERMINAL_JOB_STATES.includes(job.state)) {
      if (!(await services.jobs.remove(job._id))) throw new NotFoundError(`Job ${id} not found.`);
      ctx.body = { id: job._id, removed: true, message: `Job ${job._id} (${job.state}) was removed.` };
      return;
    }
    const result = await services.jobs.cancel(job._id, principal.kind === 'user' ? principal.userId : principal.kind);
    if (!result.cancelled) {
      throw new ConflictError(
        result.state === 'committing'
          ? `Job ${job._id} is publishing its build and can no longer be cancelled.`
          : `Job ${job._id} already ended (${result.state}); nothing was cancelled.`,
      );
    }
    ctx.body = presentJob((await services.jobs.get(job._id)) ?? job, false);
  });

  // The catalogue for the dashboard and scripts (search has its own Context7 route).
  router.get('libraries.list', '/libraries', guard(services), standard, validate(s['libraries.list']), async (ctx) => {
    const { principal } = ctx.state;
    const libs = await listLibraries(services, principal);
    const defaults = services.config.refreshDefaultHours;
    // Whether the caller's team policy lets it use each library: the dashboard shows what it may use.
    const policy = await services.policies.forPrincipal(principal);
    const usable = (l: LibraryRecord) => policy.allows({ id: clientLibraryId(l._id), source: l.source, trustScore: l.trustScore });
    ctx.body = {
      libraries: libs.map((l) => ({ ...presentLibrary(l), schedule: presentSchedule(l, defaults), usable: usable(l) })),
      policyApplied: policy.applied,
      hiddenByPolicy: libs.filter((l) => !usable(l)).length,
    };
  });

  router.get('libraries.read', '/libraries/:owner/:repo', guard(services), standard, validate(s['libraries.read']), async (ctx) => {
    const id = libraryIdOf(ctx.state.input.params);
    const { principal } = ctx.state;
    const lib = await findLibraryFor(services, principal, id, { fresh: true, teamId: ctx.state.input.query.teamId });
    if (!lib) throw new LibraryNotFoundError(id);
    // A library the team's policy excludes: refused as context refuses it, except to admins, who manage it.
    const usable = (await services.policies.forPrincipal(principal)).allows({ id, source: lib.source, trustScore: lib.trustScore });
    if (!usable && !isAdminLike(principal)) throw new AccessDeniedError(id);
    const jobs = await services.jobs.list({ libraryId: lib._id, limit: 20, logs: false });
    ctx.body = {
      ...presentLibrary(lib),
      schedule: presentSchedule(lib, services.config.refreshDefaultHours),
      usable,
      jobs: jobs.map((j) => presentJob(j, false)),
    };
  });

  router.patch('libraries.update', '/libraries/:owner/:repo', guard(services), standard, validate(s['libraries.update']), async (ctx) => {
    const { principal } = ctx.state;
    const { params, query, body } = ctx.state.input;
    const { library: updated, job } = await updateLibrary(services, principal, libraryIdOf(params), body, {
      teamId: query.teamId,
      changeSource: (lib, input) => changeSourceSettings(services, principal, lib, input),
    });
    ctx.body = {
      ...presentLibrary(updated),
      schedule: presentSchedule(updated, services.config.refreshDefaultHours),
      ...(job
        ? {
            jobId: job._id,
            message: `A build with the new source settings was queued (job ${job._id}); they are stored when it publishes. Follow it with GET /v2/jobs/${job._id}.`,
          }
        : {}),
    };
  });

  // A push webhook for the library: the secret is in this answer only (stored encrypted).
  router.post('libraries.update', '/libraries/:owner/:repo/webhook', guard(services), standard, validate(s['libraries.webhook']), async (ctx) => {
    const { params, query } = ctx.state.input;
    const id = libraryIdOf(params);
    const lib = await findLibraryFor(services, ctx.state.principal, id, { fresh: true, teamId: query.teamId });
    if (!lib) throw new LibraryNotFoundError(id);
    authorize(ctx.state.principal, 'libraries.update', lib);
    const { body } = ctx.state.input;
    const host = body.host ?? (isGitHost(lib.source) ? lib.source : 'git');
    const hook = await createWebhook(services, lib, host);
    ctx.status = 201;
    ctx.body = {
      libraryName: id,
      host,
      path: hook.path,
      secret: hook.secret,
      message: `Add a push webhook at <this server>${hook.path} (content type application/json) with this secret. It is shown only now; creating the hook again replaces it.`,
    };
  });

  // Deliveries prove themselves by their signature; no key, no guard (the route-table test posts a signed one).
  router.post('webhooks.receive', '/webhooks/:host', standard, validate(s['webhooks.receive']), async (ctx) => {
    const { params, query } = ctx.state.input;
    const outcome = await receiveDelivery(services, {
      host: params.host,
      library: query.library,
      headers: ctx.headers,
      rawBody: (ctx.request as { rawBody?: string }).rawBody,
      payload: ctx.request.body,
    });
    ctx.status = outcome.accepted ? 202 : 200;
    ctx.body = outcome;
  });

  router.delete('libraries.delete', '/libraries/:owner/:repo', guard(services), standard, validate(s['libraries.delete']), async (ctx) => {
    const { principal } = ctx.state;
    const id = libraryIdOf(ctx.state.input.params);
    const lib = await findLibraryFor(services, principal, id, { fresh: true, teamId: ctx.state.input.query.teamId });
    if (!lib) throw new LibraryNotFoundError(id);
    authorize(principal, 'libraries.delete', lib);
    await deleteLibrary(deletePortsOf(services), lib._id);
    ctx.body = { libraryName: id, message: `${id} was deleted.` };
  });

  return router;
}

/** What `v1RefreshRoutes` reaches (ports.ts). */
export type V1RefreshRoutesPorts = Pick<
  Ports,
  | 'authenticator'
  | 'config'
  | 'credentials'
  | 'jobs'
  | 'libraries'
  | 'log'
  | 'manifests'
  | 'pokeWorker'
  | 'policies'
  | 'rateLimiter'
  | 'settings'
  | 'snippets'
  | 'trustedProxy'
>;

/** `POST /v1/refresh`: the same refresh under the older prefix. */
export function v1RefreshRoutes(services: V1RefreshRoutesPorts): Router {
  const router = new Router();
  router.post(
    'libraries.refresh',
    '/v1/refresh',
    guard(services),
    rateLimit(services, { class: 'expensive' }),
    validate(s['libraries.refresh']),
    async (ctx) => {
      const result = await refreshLibrary(services, ctx.state.principal, ctx.state.input.body);
      ctx.body = { libraryName: result.libraryName, message: result.message };
    },
  );
  return router;
}

/** Team ids whose private jobs a caller may see; null = all (admins, service key). */
function teamScope(principal: Principal): string[] | null {
  if (principal.kind === 'service') return null;
  if (principal.kind === 'user') return principal.role === 'admin' ? null : principal.teamIds;
  return [];
}
