/**
 * Outbound HTTP(S) for website sources, safe against server-side request forgery.
 *
 * - Only http: and https: (also on every redirect).
 * - The host is resolved once per connection by our own connector, every address is checked
 *   (address-policy.ts), and the socket is opened to that checked address: there is no
 *   second resolution a rebinding DNS server could answer differently. The Host header and
 *   TLS SNI/certificate check keep the original host name (undici derives both from the
 *   origin, we only swap the address the socket dials).
 * - Redirects are followed by hand, at most `maxRedirects`, each target re-checked (scheme,
 *   address on connect, and the caller's `redirectFilter` for crawl scope). Caller headers
 *   (cookies, tokens) go only to the origin of the first URL, never across origins.
 * - The body is read as a stream and the request aborted once it passes `maxBytes`
 *   (decompressed bytes, so a gzip bomb stops too); one deadline (`timeoutMs`) covers the
 *   whole fetch including redirects.
 */
import dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { Agent, buildConnector, request } from 'undici';
import { HostAllowList, refusedAddress } from './address-policy';

export type WebFetchFailure = 'blocked_address' | 'scheme' | 'too_large' | 'timeout' | 'redirect_limit' | 'redirect_refused' | 'network';

/** A fetch that did not produce a response; `reason` is what the crawl reports. */
export class WebFetchError extends Error {
  constructor(
    readonly reason: WebFetchFailure,
    message: string,
    readonly url: string,
  ) {
    super(message);
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Resolves a host name to all its addresses (tests inject one; the default asks the OS). */
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

export interface WebFetcherOptions {
  allow?: HostAllowList;
  lookup?: LookupAll;
  /** Largest body accepted, decompressed (default 5 MiB). */
  maxBytes?: number;
  /** Deadline for one fetch, redirects included (default 15 s). */
  timeoutMs?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Extra CA certificates (PEM) trusted besides Node's roots, e.g. an operator's internal CA. */
  ca?: string;
}

export interface WebRequest {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Asked before each redirect is followed; false stops with `redirect_refused`. */
  redirectFilter?: (url: string) => boolean;
  /** HEAD-like use: read no body (still capped). */
  method?: 'GET' | 'HEAD';
}

export interface WebResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  /** Response headers, lowercase names. */
  headers: Record<string, string>;
  body: Buffer;
  /** Each URL redirected from, in order. */
  redirects: string[];
}

export interface WebFetcher {
  fetch(url: string, init?: WebRequest): Promise<WebResponse>;
  close(): Promise<void>;
}

export const USER_AGENT = 'ShelfmarkBot/0.1 (+https://github.com/shelfmark; documentation indexer)';
const CROSS_ORIGIN_SAFE = new Set(['accept', 'accept-language', 'user-agent', 'if-none-match', 'if-modified-since']);

const systemLookup: LookupAll = async (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A fetcher with its own connection pool; close() it when done. */
export function createWebFetcher(options: WebFetcherOptions = {}): WebFetcher {
  const allow = options.allow ?? HostAllowList.empty;
  const lookup = options.lookup ?? systemLookup;
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const base = buildConnector({ timeout: timeoutMs, ...(options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}) });

  const agent = new Agent({
    connections: 8,
    connect: (opts, callback) => {
      const host = opts.hostname.replace(/^\[(.*)\]$/, '$1');
      pickAddress(host, lookup, allow).then(
        (address) => base({ ...opts, hostname: address }, callback),
        (error: unknown) => callback(error as Error, null),
      );
    },
  });

  async function fetchOnce(url: URL, headers: Record<string, string>, signal: AbortSignal, method: 'GET' | 'HEAD') {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new WebFetchError('scheme', `${url.protocol} URLs are not fetched (only http and https)`, url.href);
    }
    if (url.username || url.password) throw new WebFetchError('scheme', 'URLs with credentials are not fetched', url.href);
    return request(url, { method, headers, signal, dispatcher: agent, maxRedirections: 0 });
  }

  return {
    async fetch(raw, init = {}) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new WebFetchError('scheme', `"${raw}" is not an absolute URL`, raw);
      }
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
      const origin = url.origin;
      const callerHeaders = Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      const redirects: string[] = [];
      try {
        for (;;) {
          const sameOrigin = url.origin === origin;
          const headers: Record<string, string> = {
            'user-agent': options.userAgent ?? USER_AGENT,
            'accept-encoding': 'gzip, deflate, br',
            ...Object.fromEntries(Object.entries(callerHeaders).filter(([k]) => sameOrigin || CROSS_ORIGIN_SAFE.has(k))),
          };
          const res = await fetchOnce(url, headers, signal, init.method ?? 'GET');
          const location = res.headers.location;
          if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
            res.body.resume();
            if (redirects.length >= maxRedirects) throw new WebFetchError('redirect_limit', `more than ${maxRedirects} redirects`, url.href);
            const next = new URL(location, url);
            if (next.protocol !== 'http:' && next.protocol !== 'https:') {
              throw new WebFetchError('scheme', `redirect to a ${next.protocol} URL refused`, next.href);
            }
            if (init.redirectFilter && !init.redirectFilter(next.href)) {
              throw new WebFetchError('redirect_refused', `redirect to ${next.href} is outside the crawl`, next.href);
            }
            redirects.push(url.href);
            url = next;
            continue;
          }
          const flat = flattenHeaders(res.headers);
          const length = Number(flat['content-length']);
          if (Number.isFinite(length) && length > maxBytes && !flat['content-encoding']) {
            discard(res.body);
            throw new WebFetchError('too_large', `the response is ${length} bytes (limit ${maxBytes})`, url.href);
          }
          const body = init.method === 'HEAD' ? Buffer.alloc(0) : await readCapped(res.body, flat['content-encoding'], maxBytes, url.href);
          return { url: url.href, status: res.statusCode, headers: flat, body, redirects };
        }
      } catch (error) {
        throw asFetchError(error, url.href, deadline);
      }
    },
    close: () => agent.close(),
  };
}

/** Resolves `host` (unless it is an IP literal) and returns the first address allowed; throws blocked_address. */
async function pickAddress(host: string, lookup: LookupAll, allow: HostAllowList): Promise<string> {
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await lookup(host);
  if (addresses.length === 0) throw new WebFetchError('network', `${host} has no address`, host);
  // Every address must pass: a name that resolves to one public and one private address
  // is refused rather than dialled at whichever the OS would pick.
  for (const { address } of addresses) {
    const why = refusedAddress(host, address, allow);
    if (why) throw new WebFetchError('blocked_address', why, host);
  }
  return addresses[0].address;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readCapped(body: Readable, encoding: string | undefined, maxBytes: number, url: string): Promise<Buffer> {
  const decoder = decoderFor(encoding);
  const stream: Readable = decoder ? body.pipe(decoder) : body;
  if (decoder) body.on('error', (e) => decoder.destroy(e));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new WebFetchError('too_large', `the response passed ${maxBytes} bytes`, url);
      chunks.push(chunk as Buffer);
    }
  } finally {
    if (size > maxBytes) {
      discard(body);
      if (decoder) discard(decoder);
    }
  }
  return Buffer.concat(chunks);
}

/** Stops a stream we no longer read; the abort it raises is expected, not an error. */
function discard(stream: Readable | NodeJS.ReadWriteStream): void {
  stream.on('error', () => undefined);
  (stream as Readable).destroy();
}

function decoderFor(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

function asFetchError(error: unknown, url: string, deadline: AbortSignal): WebFetchError {
  if (error instanceof WebFetchError) return error;
  // undici may wrap the connector's error in its own.
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof WebFetchError) return cause;
  if (deadline.aborted) return new WebFetchError('timeout', 'the page did not answer in time', url);
  const name = (error as { name?: string }).name ?? '';
  const code = (error as { code?: string }).code ?? '';
  if (/Timeout/i.test(name) || /TIMEOUT/.test(code)) return new WebFetchError('timeout', 'the page did not answer in time', url);
  return new WebFetchError('network', `${code || name || 'error'}: ${(error as Error).message ?? String(error)}`, url);
}
