/**
 * Where a project's lockfile comes from: an upload, or a URL it is fetched from (and fetched
 * again by a refresh or a push delivery) through the SSRF-safe fetcher websites use
 * (net/web-fetch.ts): http(s) only, no loopback, private or metadata address unless the
 * operator allowed its host (WEB_ALLOWED_HOSTS), the size capped while it streams.
 */
import crypto from 'node:crypto';
import type { Config } from '../config';
import { ValidationError } from '../errors';
import { HostAllowList } from '../net/address-policy';
import { createWebFetcher, WebFetchError } from '../net/web-fetch';
import { MAX_LOCKFILE_BYTES } from './lockfiles';

export interface LockfileUpload {
  filename: string;
  content: Buffer;
  /** Set when it was fetched: where to fetch it again. */
  url?: string;
}

export const sha256Of = (content: Buffer) => crypto.createHash('sha256').update(content).digest('hex');

/** The URL a lockfile is pointed to by, checked (a 400 naming `url` otherwise). */
export function lockfileUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`url "${raw.slice(0, 100)}" is not an absolute URL.`, 'url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ValidationError('url must be an http(s) URL of the raw lockfile.', 'url');
  if (url.username || url.password) throw new ValidationError('url must not carry credentials.', 'url');
  if (raw.length > 2000) throw new ValidationError('url is too long (at most 2000 characters).', 'url');
  return url;
}

const WHY: Record<string, string> = {
  blocked_address: 'its host resolves to a loopback, private or metadata address (an operator can allow the host with WEB_ALLOWED_HOSTS)',
  too_large: `it is larger than ${MAX_LOCKFILE_BYTES / 1024 / 1024} MB`,
  timeout: 'it did not answer in time',
  scheme: 'only http(s) URLs are fetched',
};

/** Fetches a lockfile from `raw` (its file name: the URL path's last segment unless given). */
export async function fetchLockfile(web: Config['web'], raw: string, filename?: string): Promise<LockfileUpload> {
  const url = lockfileUrl(raw);
  const fetcher = createWebFetcher({ allow: HostAllowList.parse(web.allowedHosts), maxBytes: MAX_LOCKFILE_BYTES, timeoutMs: web.pageTimeoutMs });
  try {
    const res = await fetcher.fetch(url.href, { headers: { accept: 'text/plain, application/json, application/yaml, */*' } });
    if (res.status !== 200) throw new ValidationError(`${url.href} answered HTTP ${res.status}, not the lockfile.`, 'url');
    const name = filename ?? decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
    return { filename: name, content: res.body, url: url.href };
  } catch (error) {
    if (error instanceof WebFetchError) throw new ValidationError(`${url.href} could not be fetched: ${WHY[error.reason] ?? error.message}.`, 'url');
    throw error;
  } finally {
    await fetcher.close();
  }
}
