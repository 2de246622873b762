/**
 * Push webhooks: creating a library's hook (its secret shown once) and receiving a host's
 * delivery. A delivery names the library by its stored key in the hook URL; an unknown
 * library, a library without a hook and a bad signature all get the same 401
 * `invalid_signature`, after the same HMAC work, so a delivery learns nothing about which
 * libraries exist. A hook answers on its own host's route only. A verified delivery is
 * decided once under the lock `webhook:<key>:sha256:<digest of the body>` (a replay finds it
 * and is ignored: the body is what the host signed, the delivery id header is not); a push to the tracked
 * branch enqueues a refresh through `enqueueRefresh`, which coalesces with a refresh already
 * queued or running.
 */
import crypto from 'node:crypto';
import type { Ports } from '../ports';
import type { LibraryRecord } from '../store/models/library';
import { decryptSecret, encryptSecret } from '../auth/crypto';
import { InvalidSignatureError, LibraryNotFoundError, ValidationError } from '../errors';
import { clientLibraryId } from '../domain/library-keys';
import { enqueueRefresh } from './add-repo';
import { deliveryId, pushedRefs, verifyDelivery } from './webhook-deliveries';
import { tagMatches } from '../domain/version-rule';
import { GIT_HOSTS, isGitHost, type GitHost } from '../domain/library-ids';

/** Delivery locks older than this are removed (hosts redeliver within days). */
export const DELIVERY_RETENTION_MS = 14 * 24 * 3_600_000;

const secretContext = (key: string) => `webhook:${key}`;

export interface CreatedWebhook {
  /** The path a host posts to (relative to the server's base URL). */
  path: string;
  /** The secret: returned here once, stored only encrypted. */
  secret: string;
}

/** Why a library that is not a Git repository can have no push webhook, by its source. */
const NO_PUSHES: Record<Exclude<LibraryRecord['source'], GitHost>, string> = {
  openapi: 'was uploaded as an OpenAPI document',
  archive: 'was uploaded as an archive of built docs',
  website: 'is a website (it is crawled again on its schedule or by POST /v2/refresh)',
  llmstxt: 'is an llms.txt (it is fetched again on its schedule or by POST /v2/refresh)',
};

/** Creates (or replaces: the old secret stops working) the push webhook of a Git library. */
export async function createWebhook(services: Pick<Ports, 'config' | 'libraries'>, lib: LibraryRecord, host: GitHost): Promise<CreatedWebhook> {
  if (!isGitHost(lib.source))
    throw new ValidationError(
      `${clientLibraryId(lib._id)} ${NO_PUSHES[lib.source]}; it has no repository to receive pushes from. Webhooks are for libraries added from a Git repository.`,
    );
  const secret = `whs_${crypto.randomBytes(32).toString('base64url')}`;
  const encryptedSecret = encryptSecret(secret, services.config.secret, secretContext(lib._id));
  const updated = await services.libraries.modify(lib._id, () => ({ webhook: { encryptedSecret, createdAt: new Date(), host } }));
  if (!updated) throw new LibraryNotFoundError(clientLibraryId(lib._id));
  return { path: `/v2/webhooks/${host}?library=${encodeURIComponent(lib._id)}`, secret };
}

export interface DeliveryOutcome {
  accepted: boolean;
  message: string;
  jobId?: string;
}

/** A secret no library has: unknown libraries are verified against it, so they cost the same. */
const NO_SECRET = crypto.randomBytes(32).toString('hex');

/** What `receiveDelivery` reaches (ports.ts). */
export type ReceiveDeliveryPorts = Pick<Ports, 'config' | 'jobs' | 'libraries' | 'locks' | 'log' | 'pokeWorker'>;

/** Verifies and acts on one delivery; throws InvalidSignatureError when it does not verify. */
export async function receiveDelivery(
  services: ReceiveDeliveryPorts,
  delivery: { host: string; library: unknown; headers: Record<string, string | string[] | undefined>; rawBody: string | undefined; payload: unknown },
): Promise<DeliveryOutcome> {
  if (!(GIT_HOSTS as readonly string[]).includes(delivery.host))
    throw new ValidationError(`Unknown git host "${delivery.host}". Use one of: ${GIT_HOSTS.join(', ')}.`, 'host');
  const host = delivery.host as GitHost;
  if (delivery.rawBody === undefined) throw new ValidationError('Send the delivery as JSON (Content-Type: application/json).');
  const key = typeof delivery.library === 'string' && delivery.library.length <= 300 ? delivery.library : null;
  const lib = key ? await services.libraries.get(key, { fresh: true }) : null;
  const secret = lib?.webhook?.encryptedSecret ? openSecret(services, lib) : null;
  const verified = verifyDelivery(host, delivery.headers, delivery.rawBody, secret ?? NO_SECRET);
  // A hook's secret proves deliveries on its own host's route only: a GitHub hook's secret,
  // which never travels, must not work as a GitLab plain token (or any other scheme).
  const hookHost = lib?.webhook?.host ?? (lib && isGitHost(lib.source) ? lib.source : 'git');
  if (!lib || !secret || !verified || hookHost !== host) throw new InvalidSignatureError();

  // A replay is the same body again, whatever its (unsigned) delivery id header says.
  const id = deliveryId(host, delivery.headers, delivery.rawBody);
  const digest = crypto.createHash('sha256').update(delivery.rawBody).digest('hex');
  if (!(await services.locks.acquire(`webhook:${lib._id}:sha256:${digest}`, 'webhook', { host, delivery: id.slice(0, 200) }))) {
    return { accepted: false, message: `Delivery ${id} repeats one received before (the same signed body); a replay is ignored.` };
  }
  const refs = pushedRefs(host, delivery.payload);
  const tracked = lib.branch;
  const hit = refs.branches.find((b) => !tracked || b === tracked);
  const rule = lib.versionRule;
  if (!hit && rule && refs.tags.length > 0) {
    // A tag a range/pattern rule selects is built at once; a minors rule needs every tag,
    // so a check of latest applies it (version-discovery.ts).
    const matches = refs.tags.map((tag) => ({ tag, m: tagMatches(rule, tag) })).filter((t) => t.m !== false);
    if (matches.length > 0) {
      const encryptedToken = lib.private ? await services.jobs.lastToken(lib._id) : null;
      const jobs = [];
      for (const { tag, m } of matches) {
        jobs.push(await enqueueRefresh(services, lib, { ref: m === 'check' ? undefined : tag, encryptedToken, createdBy: null, trigger: 'new-tag' }));
      }
      return { accepted: true, message: `Tag ${matches.map((t) => t.tag).join(', ')} matches the version rule: queued.`, jobId: jobs[0]._id };
    }
  }
  if (!hit) {
    const what =
      refs.branches.length > 0
        ? `a push to ${refs.branches.join(', ')} (the library tracks ${tracked || 'its default branch'})`
        : refs.tags.length > 0
          ? `tag ${refs.tags.join(', ')} (${rule ? 'the version rule does not select it' : 'tags become versions only by a version rule, which this library has none of'})`
          : 'no branch update';
    return { accepted: false, message: `Nothing to refresh: the delivery is ${what}.` };
  }
  const job = await enqueueRefresh(services, lib, {
    ref: undefined,
    encryptedToken: lib.private ? await services.jobs.lastToken(lib._id) : null,
    createdBy: null,
    trigger: 'webhook',
  });
  services.log.info({ libraryId: lib._id, jobId: job._id, delivery: id, host }, 'webhook push: refresh enqueued');
  return { accepted: true, message: `A push to ${hit} queued a refresh of ${clientLibraryId(lib._id)}.`, jobId: job._id };
}

function openSecret(services: Pick<Ports, 'config'>, lib: LibraryRecord): string | null {
  try {
    return decryptSecret(lib.webhook?.encryptedSecret ?? '', services.config.secret, secretContext(lib._id));
  } catch {
    return null; // sealed with another server secret: the hook must be created again
  }
}
