/**
 * A loopback HTTP gateway that carries one clone's smart-HTTP traffic between libgit2 and
 * the Git server, because libgit2 as nodegit exposes it cannot be made safe on its own:
 *
 * - TLS: nodegit cannot give libgit2 extra CA files (`Libgit2.opts` refuses
 *   GIT_OPT_SET_SSL_CERT_LOCATIONS and GIT_OPT_ADD_SSL_X509_CERT), does not hand the
 *   certificate's bytes to the `certificateCheck` callback, and libgit2 1.9's own OpenSSL
 *   name check compares IP addresses inverted. Here Node verifies the server (system CAs,
 *   GIT_CA_FILE, hostname, dates, or a GIT_TLS_PINNED fingerprint) on the connection that
 *   then carries the request; libgit2 only ever speaks plain HTTP to 127.0.0.1.
 * - Redirects: libgit2 follows them on its first request by default, and even with
 *   following "off" it still follows any redirect to the same host name (any port, any
 *   path); nodegit's clone exposes no switch for it anyway. Here the discovery request
 *   (`GET <repo>/info/refs?service=...`) follows at most MAX_REDIRECTS redirects, each
 *   target checked with `allowRedirect`, and the session moves to the final URL; any other
 *   redirect fails the clone. libgit2 never sees a redirect.
 * - Errors: the gateway knows what happened upstream (refused, unresolvable, timed out,
 *   404, certificate) and reports it as `failure`, so the caller words errors itself
 *   instead of passing libgit2's text (which told a closed port from a 404) on.
 *
 * The token travels as libgit2's Basic credentials over loopback and is forwarded only to
 * the origin the caller named (never to another origin a redirect led to).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { canonicalizeUrl, type CanonicalUrl } from '../../net/url-allow-list';
import { TlsVerificationError, type TlsTrust } from '../../net/tls-trust';

export const MAX_REDIRECTS = 5;
const CONNECT_TIMEOUT_MS = 15_000;
/** No byte for this long from the server: give up (a pack in progress keeps sending). */
const IDLE_TIMEOUT_MS = 120_000;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** What went wrong upstream, as far as the caller may tell. */
export type GatewayFailure = { kind: 'tls'; reason: string } | { kind: 'unreachable' } | { kind: 'not_found' } | { kind: 'redirect' };

export interface GitGatewayOptions {
  /** The repository's canonical http(s) URL. */
  repoUrl: CanonicalUrl;
  tls: TlsTrust;
  /** Whether the repository URL a redirect leads to may be used. */
  allowRedirect(url: CanonicalUrl): boolean;
}

export interface GitGateway {
  /** The URL to give libgit2 in place of the repository URL. */
  readonly url: string;
  /** The last upstream failure, if any. */
  readonly failure: GatewayFailure | undefined;
  close(): Promise<void>;
}

/** Starts a gateway for one clone on an ephemeral loopback port. */
export async function openGitGateway(options: GitGatewayOptions): Promise<GitGateway> {
  // An unguessable path prefix, so other local processes cannot use the gateway.
  const prefix = ['', crypto.randomBytes(16).toString('hex'), ...options.repoUrl.segments].join('/');
  const origin = originOf(options.repoUrl);
  let base = options.repoUrl;
  let failure: GatewayFailure | undefined;

  const forward = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const raw = req.url ?? '';
    if (!raw.startsWith(`${prefix}/`) || (req.method !== 'GET' && req.method !== 'POST')) {
      res.writeHead(404).end();
      return;
    }
    const suffix = raw.slice(prefix.length);
    const discovery = req.method === 'GET' && suffix.startsWith('/info/refs');
    for (let hops = 0; ; hops++) {
      const target = new URL(`${base.href.replace(/\/$/, '')}${suffix}`);
      let upstream: http.IncomingMessage;
      try {
        upstream = await send(target, req, originOf(base) === origin, options.tls);
      } catch (error) {
        failure = error instanceof TlsVerificationError ? { kind: 'tls', reason: error.message } : { kind: 'unreachable' };
        res.writeHead(502).end();
        return;
      }
      const status = upstream.statusCode ?? 502;
      if (status >= 300 && status < 400) {
        upstream.resume();
        const next = discovery && hops < MAX_REDIRECTS ? redirectBase(target, upstream.headers.location, suffix) : undefined;
        if (!next || !options.allowRedirect(next)) {
          failure = { kind: 'redirect' };
          res.writeHead(502).end();
          return;
        }
        base = next;
        continue;
      }
      if (status === 404 || status === 410) failure = { kind: 'not_found' };
      res.writeHead(status, responseHeaders(upstream));
      upstream.pipe(res);
      // libgit2 hung up (or we are done): do not keep the upstream connection open.
      res.once('close', () => upstream.destroy());
      upstream.once('error', () => {
        failure ??= { kind: 'unreachable' };
        res.destroy();
      });
      return;
    }
  };

  const server = http.createServer((req, res) => {
    forward(req, res).catch(() => {
      failure ??= { kind: 'unreachable' };
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    get failure() {
      return failure;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One request upstream over a fresh, verified connection; resolves with the response head. */
function send(target: URL, req: http.IncomingMessage, sameOrigin: boolean, trust: TlsTrust): Promise<http.IncomingMessage> {
  const headers: http.OutgoingHttpHeaders = {};
  const listed = new Set(
    String(req.headers.connection ?? '')
      .toLowerCase()
      .split(',')
      .map((s) => s.trim()),
  );
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(name) || listed.has(name)) continue;
    // Credentials belong to the origin the caller named, not to where it redirected.
    if (name === 'authorization' && !sameOrigin) continue;
    headers[name] = value;
  }
  headers.host = target.host;
  const tlsTarget = target.protocol === 'https:';
  const port = Number(target.port || (tlsTarget ? 443 : 80));
  return new Promise((resolve, reject) => {
    const upstream = http.request(
      {
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        // Asynchronous: the request gets its socket only once the connection is verified.
        createConnection: (_opts, done) => {
          const connecting = tlsTarget ? trust.connect({ host: target.hostname, port, timeoutMs: CONNECT_TIMEOUT_MS }) : connectPlain(target.hostname, port);
          connecting.then(
            (socket) => done(null, socket),
            (error: Error) => {
              // A request without a socket emits no error of its own: report it here.
              reject(error);
              upstream.destroy();
            },
          );
          return undefined;
        },
      },
      resolve,
    );
    upstream.setTimeout(IDLE_TIMEOUT_MS, () => upstream.destroy(new Error('the server stopped answering')));
    upstream.once('error', reject);
    if (req.method === 'POST') req.pipe(upstream);
    else upstream.end();
  });
}

function connectPlain(host: string, port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: host.replace(/^\[|\]$/g, ''), port });
    const timer = setTimeout(() => socket.destroy(new Error('connection timed out')), CONNECT_TIMEOUT_MS);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
  });
}

/**
 * The repository URL a discovery redirect points to: the Location must end with the same
 * `/info/refs?service=...` the request had (as git requires), the rest is the new base.
 */
function redirectBase(from: URL, location: string | undefined, suffix: string): CanonicalUrl | undefined {
  if (!location) return undefined;
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return undefined;
  }
  const [suffixPath, query = ''] = suffix.split('?');
  if ((next.protocol !== 'http:' && next.protocol !== 'https:') || !next.pathname.endsWith(suffixPath) || next.search !== (query ? `?${query}` : ''))
    return undefined;
  if (next.username || next.password) return undefined;
  return canonicalizeUrl(`${next.protocol}//${next.host}${next.pathname.slice(0, -suffixPath.length)}`);
}

function originOf(url: CanonicalUrl): string {
  return `${url.scheme}//${url.host}:${url.port}`;
}

function responseHeaders(upstream: http.IncomingMessage): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
  }
  return out;
}
