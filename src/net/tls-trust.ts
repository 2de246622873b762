/**
 * Which TLS servers we trust for outbound Git traffic, and verified connections to them.
 *
 * Trust = the system's CA store plus an operator's CA bundle (GIT_CA_FILE), with the
 * hostname and validity checked by Node (OpenSSL); or, for one host:port, exactly the
 * certificates pinned by their SHA-256 fingerprint (GIT_TLS_PINNED), for servers with a
 * self-signed certificate. A pin is tied to one certificate and one endpoint, so unlike
 * adding a self-signed certificate to the CA bundle (it would then be trusted as a CA for
 * every host) or switching verification off for a host (anyone on the path could answer),
 * it trusts nothing but that server.
 *
 * The checks run on the very connection that then carries the request, and the socket is
 * handed out only after they pass, so no byte (no token) is sent to an unverified server.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';

/** Where Linux distributions keep the system CA bundle (Debian/Ubuntu first). */
const SYSTEM_CA_FILES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/ca-bundle.pem', '/etc/ssl/cert.pem'];

/** One pinned certificate: `host:port=sha256/<fingerprint>`. */
export interface TlsPin {
  /** Canonical host (lowercase, IPv6 in brackets). */
  host: string;
  port: number;
  /** SHA-256 of the DER certificate, uppercase hex without colons. */
  sha256: string;
}

/** Raised when a server's certificate is not trusted (the message says what to do). */
export class TlsVerificationError extends Error {
  constructor(
    readonly endpoint: string,
    readonly reason: string,
  ) {
    super(`the TLS certificate of ${endpoint} is not trusted (${reason})`);
  }
}

/** Canonical `host` of an endpoint as the WHATWG URL parser writes it (also IPv6, IDNA). */
export function canonicalHost(host: string): string {
  return new URL(`http://${host}/`).hostname;
}

/**
 * Parses GIT_TLS_PINNED entries (`host:port=sha256/<hex>`; the hex may contain colons, as
 * `openssl x509 -noout -fingerprint -sha256` prints it). Throws a message naming the entry.
 */
export function parseTlsPins(entries: readonly string[]): TlsPin[] {
  return entries.map((entry) => {
    const eq = entry.indexOf('=');
    const endpoint = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(eq === -1 ? '' : entry.slice(0, eq).trim());
    const fingerprint = /^sha256\/([0-9a-fA-F:]+)$/i.exec(entry.slice(eq + 1).trim());
    const hex = fingerprint?.[1].replace(/:/g, '').toUpperCase() ?? '';
    const port = Number(endpoint?.[2]);
    if (!endpoint || hex.length !== 64 || !/^[0-9A-F]+$/.test(hex) || port < 1 || port > 65535) {
      throw new Error(`"${entry}" must look like host:port=sha256/<64 hex digits>`);
    }
    let host: string;
    try {
      host = canonicalHost(endpoint[1]);
    } catch {
      throw new Error(`"${entry}" has an invalid host`);
    }
    return { host, port, sha256: hex };
  });
}

/** Reads a PEM bundle; throws unless it holds at least one parsable certificate. */
export function readCaBundle(file: string): string {
  const pem = fs.readFileSync(file, 'utf8');
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error(`${file} contains no PEM certificate`);
  for (const block of blocks) new crypto.X509Certificate(block);
  return pem;
}

/** The system CA bundle, or Node's bundled Mozilla roots when the system has none. */
export function systemCaBundle(): { source: string; pem: string } {
  for (const file of SYSTEM_CA_FILES) {
    try {
      return { source: file, pem: readCaBundle(file) };
    } catch {
      // try the next location
    }
  }
  return { source: "Node's bundled root certificates", pem: tls.rootCertificates.join('\n') };
}

export interface TlsTrustOptions {
  /** PEM bundle trusted in addition to the system store (GIT_CA_FILE). */
  extraCaPem?: string;
  pins?: readonly TlsPin[];
  /** Replaces the system store (tests). */
  systemCaPem?: string;
}

/** Options of a verified connection. */
export interface ConnectOptions {
  /** A host as in a URL (IPv6 in brackets). */
  host: string;
  port: number;
  timeoutMs: number;
}

/** The trust settings, parsed once; `connect` opens verified connections. */
export class TlsTrust {
  private readonly context: tls.SecureContext;
  private readonly pins: readonly TlsPin[];

  constructor(options: TlsTrustOptions = {}) {
    const system = options.systemCaPem ?? systemCaBundle().pem;
    this.context = tls.createSecureContext({ ca: options.extraCaPem ? [system, options.extraCaPem] : [system] });
    this.pins = options.pins ?? [];
  }

  /**
   * A TLS connection to host:port whose certificate passed verification (or matches a
   * pin for that endpoint). Rejects with TlsVerificationError when it did not, with the
   * socket's error when the connection failed.
   */
  connect(options: ConnectOptions): Promise<tls.TLSSocket> {
    const host = canonicalHost(options.host);
    const bare = host.replace(/^\[|\]$/g, '');
    const pinned = this.pins.filter((p) => p.host === host && p.port === options.port).map((p) => p.sha256);
    const endpoint = `${host}:${options.port}`;
    return new Promise((resolve, reject) => {
      // rejectUnauthorized is off only so that a failure can be explained (and a pin
      // checked); the socket is never returned unless the checks below pass.
      const socket = tls.connect({
        host: bare,
        port: options.port,
        servername: net.isIP(bare) ? undefined : bare,
        secureContext: this.context,
        rejectUnauthorized: false,
        ALPNProtocols: ['http/1.1'],
      });
      const timer = setTimeout(() => socket.destroy(Object.assign(new Error(`connecting to ${endpoint} timed out`), { code: 'ETIMEDOUT' })), options.timeoutMs);
      const onError = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      socket.once('error', onError);
      socket.once('secureConnect', () => {
        clearTimeout(timer);
        // onError stays attached: once resolved it is a no-op that keeps a late socket
        // error (before the HTTP client listens) from crashing the process.
        const failure = pinned.length > 0 ? pinFailure(socket, pinned) : caFailure(socket);
        if (failure) {
          socket.destroy();
          reject(new TlsVerificationError(endpoint, failure));
        } else {
          resolve(socket);
        }
      });
    });
  }
}

function pinFailure(socket: tls.TLSSocket, pinned: string[]): string | undefined {
  const raw = socket.getPeerX509Certificate()?.raw;
  const actual = raw ? crypto.createHash('sha256').update(raw).digest('hex').toUpperCase() : '';
  return pinned.includes(actual) ? undefined : `its SHA-256 fingerprint ${actual || '(none)'} is not the one pinned in GIT_TLS_PINNED`;
}

/** Node has verified the chain against our CAs, the validity dates and the hostname. */
function caFailure(socket: tls.TLSSocket): string | undefined {
  if (socket.authorized) return undefined;
  const code = String(socket.authorizationError ?? 'unknown error');
  return READABLE[code] ?? code;
}

const READABLE: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'issued by an unknown CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'issued by an unknown CA',
  UNABLE_TO_GET_ISSUER_CERT: 'issued by an unknown CA',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not yet valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'issued for another host name',
};
