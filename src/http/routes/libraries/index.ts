/**
 * Adding and refreshing libraries, following their jobs, and managing the catalogue.
 * Each route is named after its operation in the permissions table (auth/permissions.ts);
 * chains read like a checklist: guard (authenticate + authorize) → rate limit → validate →
 * handler (with the resource-dependent `authorize`).
 */
import Router from '@koa/router';
import type { Services } from '../../../services';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { addRepoBody, addRepository, parseBody, refreshBody, refreshLibrary } from '../../../libraries/add-repo';
import { GIT_HOSTS, isGitHost, parseLibraryId, type GitHost } from '../../../libraries/ids';
import { ConflictError, LibraryNotFoundError, NotFoundError, ValidationError } from '../../../errors';
import { canSeeLibrary } from '../../../auth/authorize';
import { authorize } from '../../../auth/permissions';
import type { Principal } from '../../../auth/principal';
import { presentJob, presentLibrary } from '../../presenters/libraries';
import { TERMINAL_JOB_STATES } from '../../../store/models/job';
import { findLibraryFor, libraryKeyFor, teamIdParam } from '../../../libraries/access';
import { EMPTY_CHECK, effectiveHours, lastKnownCurrent, nextCheckAfter, presentSchedule, scheduleInput, scheduleFromInput } from '../../../libraries/schedule';
import type { Config } from '../../../config';
import { createWebhook, receiveDelivery } from '../../../libraries/webhooks';
import { parseVersionRule } from '../../../libraries/version-rule';
import { z } from 'zod';

const webhookBody = z.object({ host: z.enum(['github', 'gitlab', 'bitbucket', 'git'] as const satisfies readonly GitHost[], { errorMap: () => ({ message: `host must be one of: ${GIT_HOSTS.join(', ')}` }) }).optional() });
import type { LibraryCheckState, LibraryRecord, LibrarySchedule } from '../../../store/models/library';

export function libraryRoutes(services: Services): Router {
  const router = new Router();
  const expensive = rateLimit(services, { class: 'expensive' });
  const standard = rateLimit(services, { class: 'standard' });

  router.post('libraries.add', '/add/repo/:host', guard(services), expensive, async (ctx) => {
    const host = ctx.params.host as GitHost;
    if (!GIT_HOSTS.includes(host)) throw new ValidationError(`Unknown git host "${ctx.params.host}". Use one of: ${GIT_HOSTS.join(', ')}.`, 'host');
    const body = parseBody(addRepoBody, ctx.request.body);
    const result = await addRepository(services, ctx.state.principal as Principal, host, body);
    ctx.body = { libraryName: result.libraryName, message: result.message };
  });

  // What the add form offers: each host's base URL (to tell the host from a pasted URL) and
  // the operator's allowed URL prefixes for other Git servers. Credentials in a prefix are hidden.
  router.get('libraries.add', '/add/hosts', guard(services), standard, async (ctx) => {
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

  router.post('libraries.refresh', '/refresh', guard(services), expensive, async (ctx) => {
    const body = parseBody(refreshBody, ctx.request.body);
    const result = await refreshLibrary(services, ctx.state.principal as Principal, body);
    ctx.body = { libraryName: result.libraryName, message: result.message };
  });

  router.get('jobs.list', '/jobs', guard(services), standard, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const libraryId = typeof ctx.query.libraryId === 'string' ? await libraryKeyFor(services, principal, parseLibraryId(ctx.query.libraryId).libraryId) : undefined;
    const limit = Math.min(Math.max(Number(ctx.query.limit ?? 50) || 50, 1), 200);
    const jobs = await services.jobs.list({ libraryId, teamIds: teamScope(principal), limit });
    ctx.body = { jobs: jobs.map((j) => presentJob(j, false)) };
  });

  router.get('jobs.read', '/jobs/:id', guard(services), standard, async (ctx) => {
    const job = await services.jobs.get(ctx.params.id);
    const scope = teamScope(ctx.state.principal as Principal);
    if (!job || (scope && job.teamId && !scope.includes(job.teamId))) throw new NotFoundError(`Job ${ctx.params.id} not found.`);
    ctx.body = presentJob(job, true);
  });

  router.delete('jobs.cancel', '/jobs/:id', guard(services), standard, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const job = await services.jobs.get(ctx.params.id);
    const scope = teamScope(principal);
    if (!job || (scope && job.teamId && !scope.includes(job.teamId))) throw new NotFoundError(`Job ${ctx.params.id} not found.`);
    authorize(principal, 'jobs.cancel', job);
    // An ended job has nothing to cancel: its record is removed (the job list is tidied).
    if (TERMINAL_JOB_STATES.includes(job.state)) {
      if (!(await services.jobs.remove(job._id))) throw new NotFoundError(`Job ${ctx.params.id} not found.`);
      ctx.body = { id: job._id, removed: true, message: `Job ${job._id} (${job.state}) was removed.` };
      return;
    }
    const result = await services.jobs.cancel(job._id, principal.kind === 'user' ? principal.userId : principal.kind);
    if (!result.cancelled) {
      throw new ConflictError(
        result.state === 'committing' ? `Job ${job._id} is publishing its build and can no longer be cancelled.` : `Job ${job._id} already ended (${result.state}); nothing was cancelled.`,
      );
    }
    ctx.body = presentJob((await services.jobs.get(job._id)) ?? job, false);
  });

  // The catalogue for the dashboard and scripts (search has its own Context7 route).
  router.get('libraries.list', '/libraries', guard(services), standard, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const libs = (await services.libraries.list()).filter((l) => canSeeLibrary(principal, l));
    const defaults = services.config.refreshDefaultHours;
    ctx.body = { libraries: libs.map((l) => ({ ...presentLibrary(l), schedule: presentSchedule(l, defaults) })) };
  });

  router.get('libraries.read', '/libraries/:owner/:repo', guard(services), standard, async (ctx) => {
    const id = `/${ctx.params.owner}/${ctx.params.repo}`;
    const lib = await findLibraryFor(services, ctx.state.principal as Principal, id, { fresh: true, teamId: teamIdParam(ctx.query.teamId) });
    if (!lib) throw new LibraryNotFoundError(id);
    const jobs = await services.jobs.list({ libraryId: lib._id, limit: 20 });
    ctx.body = { ...presentLibrary(lib), schedule: presentSchedule(lib, services.config.refreshDefaultHours), jobs: jobs.map((j) => presentJob(j, false)) };
  });

  router.patch('libraries.update', '/libraries/:owner/:repo', guard(services), standard, async (ctx) => {
    const id = `/${ctx.params.owner}/${ctx.params.repo}`;
    const body = (ctx.request.body ?? {}) as { trustScore?: unknown; aliases?: unknown; schedule?: unknown; versionRule?: unknown };
    const versionRule = body.versionRule === undefined ? undefined : parseVersionRule(body.versionRule);
    const schedule = body.schedule === undefined ? undefined : scheduleFromInput(parseBody(scheduleInput, body.schedule));
    if (body.trustScore !== undefined && (typeof body.trustScore !== 'number' || body.trustScore < 0 || body.trustScore > 10)) {
      throw new ValidationError('trustScore must be a number from 0 to 10.', 'trustScore');
    }
    if (body.aliases !== undefined && !(Array.isArray(body.aliases) && body.aliases.every((a) => typeof a === 'string' && a.length <= 100))) {
      throw new ValidationError('aliases must be a list of strings.', 'aliases');
    }
    const lib = await findLibraryFor(services, ctx.state.principal as Principal, id, { fresh: true, teamId: teamIdParam(ctx.query.teamId) });
    if (lib && schedule && schedule.mode !== 'default' && lib.source === 'openapi') {
      throw new ValidationError(`${id} was uploaded as an OpenAPI document; it has no source a schedule could refresh from.`, 'schedule');
    }
    const updated = lib && (await services.libraries.modify(lib._id, (current) => ({
      ...(typeof body.trustScore === 'number' ? { trustScore: body.trustScore, trustScoreSetByAdmin: true } : {}),
      ...(Array.isArray(body.aliases) ? { aliases: body.aliases as string[] } : {}),
      ...(schedule ? { schedule, check: rescheduled(current, schedule, services.config.refreshDefaultHours) } : {}),
      ...(versionRule !== undefined ? { versionRule } : {}),
    })));
    if (!updated) throw new LibraryNotFoundError(id);
    ctx.body = { ...presentLibrary(updated), schedule: presentSchedule(updated, services.config.refreshDefaultHours) };
  });

  // A push webhook for the library: the secret is in this answer only (stored encrypted).
  router.post('libraries.update', '/libraries/:owner/:repo/webhook', guard(services), standard, async (ctx) => {
    const id = `/${ctx.params.owner}/${ctx.params.repo}`;
    const body = parseBody(webhookBody, ctx.request.body);
    const lib = await findLibraryFor(services, ctx.state.principal as Principal, id, { fresh: true, teamId: teamIdParam(ctx.query.teamId) });
    if (!lib) throw new LibraryNotFoundError(id);
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
  router.post('webhooks.receive', '/webhooks/:host', standard, async (ctx) => {
    const outcome = await receiveDelivery(services, {
      host: ctx.params.host,
      library: ctx.query.library,
      headers: ctx.headers,
      rawBody: (ctx.request as { rawBody?: string }).rawBody,
      payload: ctx.request.body,
    });
    ctx.status = outcome.accepted ? 202 : 200;
    ctx.body = outcome;
  });

  router.delete('libraries.delete', '/libraries/:owner/:repo', guard(services), standard, async (ctx) => {
    const principal = ctx.state.principal as Principal;
    const id = `/${ctx.params.owner}/${ctx.params.repo}`;
    const lib = await findLibraryFor(services, principal, id, { fresh: true, teamId: teamIdParam(ctx.query.teamId) });
    if (!lib) throw new LibraryNotFoundError(id);
    authorize(principal, 'libraries.delete', lib);
    await services.libraries.delete(lib._id);
    await services.snippets.deleteGenerations({ libraryId: lib._id });
    await services.models.Manifest.deleteMany({ _id: { $regex: `^${escapeRegex(lib._id)}@` } });
    ctx.body = { libraryName: id, message: `${id} was deleted.` };
  });

  return router;
}

/** `POST /v1/refresh`: the same refresh under the older prefix. */
export function v1RefreshRoutes(services: Services): Router {
  const router = new Router();
  router.post('libraries.refresh', '/v1/refresh', guard(services), rateLimit(services, { class: 'expensive' }), async (ctx) => {
    const body = parseBody(refreshBody, ctx.request.body);
    const result = await refreshLibrary(services, ctx.state.principal as Principal, body);
    ctx.body = { libraryName: result.libraryName, message: result.message };
  });
  return router;
}

/** A new schedule's check state: the next check counted from when the library was last current. */
function rescheduled(lib: LibraryRecord, schedule: LibrarySchedule, defaults: Config['refreshDefaultHours']): LibraryCheckState {
  const check = { ...EMPTY_CHECK, ...(lib.check ?? {}) };
  return { ...check, nextCheckAt: nextCheckAfter(lastKnownCurrent(lib), effectiveHours({ source: lib.source, schedule }, defaults)) };
}

/** Team ids whose private jobs a caller may see; null = all (admins, service key). */
function teamScope(principal: Principal): string[] | null {
  if (principal.kind === 'service') return null;
  if (principal.kind === 'user') return principal.role === 'admin' ? null : principal.teamIds;
  return [];
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
