/**
 * Refreshing a project when its lockfiles change: the lockfiles it was pointed to by URL are
 * fetched again, and those whose content changed (sha256) are parsed and mapped anew; an
 * unchanged one is left as it is. Triggered by hand (POST /v2/projects/{id}/refresh) or by a
 * push webhook of the project's repository (POST /v2/projects/{id}/push), signed with the
 * project's own secret in any of the schemes library webhooks accept
 * (catalog/webhook-deliveries.ts); a replayed body is ignored.
 */
import crypto from 'node:crypto';
import type { Principal } from '../auth/principal';
import type { LockStore } from '../store/locks';
import type { ProjectRecord } from '../store/models/project';
import { decryptSecret, encryptSecret } from '../auth/crypto';
import { verifyDelivery } from '../catalog/webhook-deliveries';
import { GIT_HOSTS } from '../domain/library-ids';
import { AppError, InvalidSignatureError, ValidationError } from '../errors';
import { fetchLockfile, sha256Of } from './lockfile-source';
import { PROJECT_ID, projectFor, withLockfile, type ProjectPorts } from './projects';

export interface RefreshOutcome {
  project: ProjectRecord;
  changed: string[];
  unchanged: string[];
  failed: Array<{ filename: string; message: string }>;
}

async function refresh(ports: ProjectPorts, project: ProjectRecord): Promise<RefreshOutcome> {
  const pointed = project.lockfiles.filter((l) => l.url);
  if (pointed.length === 0)
    throw new ValidationError(
      'This project has no lockfile fetched from a URL: upload the new lockfile instead (PUT /v2/projects/{projectId}/lockfile).',
      'url',
    );
  const outcome: RefreshOutcome = { project, changed: [], unchanged: [], failed: [] };
  let next = project;
  for (const lockfile of pointed) {
    try {
      const upload = await fetchLockfile(ports.config.web, lockfile.url as string, lockfile.filename);
      if (sha256Of(upload.content) === lockfile.sha256) {
        outcome.unchanged.push(lockfile.filename);
        continue;
      }
      next = await withLockfile(ports, next, upload);
      outcome.changed.push(lockfile.filename);
    } catch (error) {
      // One lockfile that cannot be fetched or read leaves it as it was; the others still refresh.
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      outcome.failed.push({ filename: lockfile.filename, message: error.message });
    }
  }
  return { ...outcome, project: outcome.changed.length > 0 ? await ports.projects.replace(next) : project };
}

/** Fetches the project's pointed lockfiles again (the caller must be able to use the project). */
export async function refreshProject(ports: ProjectPorts, principal: Principal, projectId: string): Promise<RefreshOutcome> {
  return refresh(ports, await projectFor(ports, principal, projectId));
}

const secretContext = (projectId: string) => `project-webhook:${projectId}`;

/** Creates (or replaces: the old secret stops working) the project's push webhook; the secret is returned once. */
export async function createProjectWebhook(ports: ProjectPorts, principal: Principal, projectId: string): Promise<{ path: string; secret: string }> {
  const project = await projectFor(ports, principal, projectId);
  if (!project.lockfiles.some((l) => l.url))
    throw new ValidationError(
      'A push webhook refreshes the lockfiles fetched from a URL, and this project has none: create it (or add a lockfile) with url.',
      'url',
    );
  const secret = `whs_${crypto.randomBytes(32).toString('base64url')}`;
  await ports.projects.replace({
    ...project,
    webhook: { encryptedSecret: encryptSecret(secret, ports.config.secret, secretContext(project._id)), createdAt: new Date() },
  });
  return { path: `/v2/projects/${project._id}/push`, secret };
}

/** A secret no project has: an unknown project is verified against it, so it costs the same. */
const NO_SECRET = crypto.randomBytes(32).toString('hex');

/** A push delivery for a project: verified by its secret (401 invalid_signature alike otherwise), once per signed body. */
export async function receiveProjectPush(
  ports: ProjectPorts & { locks: Pick<LockStore, 'acquire'> },
  delivery: { projectId: string; headers: Record<string, string | string[] | undefined>; rawBody: string | undefined },
): Promise<{ accepted: boolean; message: string; changed?: string[]; unchanged?: string[]; failed?: RefreshOutcome['failed'] }> {
  if (delivery.rawBody === undefined) throw new ValidationError('Send the delivery as JSON (Content-Type: application/json).');
  const project = PROJECT_ID.test(delivery.projectId) ? await ports.projects.get(delivery.projectId) : null;
  let secret: string | null = null;
  try {
    secret = project?.webhook ? decryptSecret(project.webhook.encryptedSecret, ports.config.secret, secretContext(project._id)) : null;
  } catch {
    secret = null; // sealed with another server secret: the hook must be made again
  }
  const body = delivery.rawBody;
  const verified = GIT_HOSTS.some((host) => verifyDelivery(host, delivery.headers, body, secret ?? NO_SECRET));
  if (!project || !secret || !verified) throw new InvalidSignatureError();
  const digest = crypto.createHash('sha256').update(body).digest('hex');
  if (!(await ports.locks.acquire(`project-push:${project._id}:sha256:${digest}`, 'webhook'))) {
    return { accepted: false, message: 'This delivery repeats one received before (the same signed body); a replay is ignored.' };
  }
  const outcome = await refresh(ports, project);
  const message =
    outcome.changed.length > 0
      ? `Refreshed ${outcome.changed.join(', ')}.`
      : outcome.failed.length > 0
        ? 'No lockfile could be refreshed.'
        : 'The lockfiles are unchanged.';
  return { accepted: true, message, changed: outcome.changed, unchanged: outcome.unchanged, failed: outcome.failed };
}
