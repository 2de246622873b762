/**
 * Push webhooks as pure functions: each host's own way of proving a delivery came from
 * whoever holds the hook's secret, its delivery id (for replays), and what the delivery
 * says was pushed. The I/O (which library, the replay lock, the refresh) is in webhooks.ts.
 *
 * - github: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, raw body)>`, id in
 *   `X-GitHub-Delivery`, payload `{ ref: "refs/heads/main" | "refs/tags/v1", deleted }`.
 * - gitlab: `X-Gitlab-Token: <secret>` (the secret itself, compared in constant time), id in
 *   `X-Gitlab-Event-UUID`, payload `{ ref }` (Push Hook and Tag Push Hook).
 * - bitbucket: `X-Hub-Signature: sha256=<hex HMAC-SHA256>`, id in `X-Request-UUID`
 *   (or `X-Hook-UUID`), payload `{ push: { changes: [{ new: { type: "branch" | "tag", name } }] } }`.
 * - git (any other server, e.g. a post-receive hook): `X-Shelfmark-Signature: sha256=<hex>`,
 *   id in `X-Shelfmark-Delivery`, payload `{ ref }` like GitHub's.
 */
import crypto from 'node:crypto';
import { safeEqual } from '../auth/crypto';
import type { GitHost } from '../domain/library-ids';

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** The HMAC-SHA256 signature header value of `body` (`sha256=<hex>`), as hosts send it. */
export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
}

const HMAC_HEADER: Record<Exclude<GitHost, 'gitlab'>, string> = {
  github: 'x-hub-signature-256',
  bitbucket: 'x-hub-signature',
  git: 'x-shelfmark-signature',
};

/** Whether the delivery carries a proof of `secret` in its host's scheme (constant time). */
export function verifyDelivery(host: GitHost, headers: Headers, rawBody: string, secret: string): boolean {
  if (host === 'gitlab') {
    const token = header(headers, 'x-gitlab-token');
    return token !== undefined && safeEqual(token, secret);
  }
  const sent = header(headers, HMAC_HEADER[host]);
  return sent !== undefined && safeEqual(sent.trim().toLowerCase(), signBody(secret, rawBody));
}

/** The delivery id the host sends (a replay repeats it); else the body's digest. */
export function deliveryId(host: GitHost, headers: Headers, rawBody: string): string {
  const names: Record<GitHost, string[]> = {
    github: ['x-github-delivery'],
    gitlab: ['x-gitlab-event-uuid', 'x-gitlab-webhook-uuid'],
    bitbucket: ['x-request-uuid', 'x-hook-uuid'],
    git: ['x-shelfmark-delivery'],
  };
  for (const name of names[host]) {
    const v = header(headers, name)?.trim();
    if (v && v.length <= 200) return v;
  }
  return `sha256:${crypto.createHash('sha256').update(rawBody).digest('hex')}`;
}

/** What a delivery says was pushed. */
export interface PushedRefs {
  branches: string[];
  tags: string[];
}

/** The branches and tags a delivery updates (deletions are not updates). */
export function pushedRefs(host: GitHost, payload: unknown): PushedRefs {
  const out: PushedRefs = { branches: [], tags: [] };
  if (!payload || typeof payload !== 'object') return out;
  const p = payload as Record<string, unknown>;
  if (host === 'bitbucket') {
    const changes = (p.push as { changes?: unknown } | undefined)?.changes;
    for (const change of Array.isArray(changes) ? changes : []) {
      const next = (change as { new?: { type?: unknown; name?: unknown } | null }).new;
      if (!next || typeof next.name !== 'string') continue;
      if (next.type === 'branch') out.branches.push(next.name);
      else if (next.type === 'tag') out.tags.push(next.name);
    }
    return out;
  }
  if (typeof p.ref !== 'string' || p.deleted === true || /^0+$/.test(String(p.after ?? 'x'))) return out;
  if (p.ref.startsWith('refs/heads/')) out.branches.push(p.ref.slice('refs/heads/'.length));
  else if (p.ref.startsWith('refs/tags/')) out.tags.push(p.ref.slice('refs/tags/'.length));
  return out;
}
