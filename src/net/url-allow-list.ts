/**
 * URL allow-lists compared on canonical URLs, never on raw strings: a raw prefix test lets
 * `http://h:1809` admit port 18099, `/allowed/../secret` escape its folder, and `HTTP://H`
 * or `https://h:443` slip past an entry spelled differently. Callers must go on using the
 * canonical URL this module returns (not the string they were given), so what was checked
 * is exactly what is fetched.
 *
 * Canonical form: lowercase scheme; host lowercased, IDNA-encoded and IP literals
 * normalised by the WHATWG parser (also for `ssh:`/`git:`, whose hosts the parser keeps
 * opaque); the port always explicit (`https://h` is `https://h:443`); no userinfo; dot
 * segments (also `%2e`) resolved, repeated slashes collapsed, escapes of unreserved
 * characters decoded; encoded `/`, `\` and NUL refused (servers disagree on them);
 * `file:` paths resolved with realpath (symlinks followed; a missing path is refused).
 */
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A URL in canonical form (see the module comment). */
export interface CanonicalUrl {
  /** `http:`, `https:`, `file:`, ... */
  scheme: string;
  /** Lowercase ASCII host; IPv6 in brackets; empty for `file:`. */
  host: string;
  /** Explicit port ("" only for `file:` and schemes without a known default). */
  port: string;
  /** Path segments, without empty ones. */
  segments: string[];
  /** The URL to use from now on (default port omitted, no trailing slash, no query). */
  href: string;
}

export interface CanonicalizeOptions {
  /** Resolves a `file:` path (symlinks); throws when it does not exist. Default: fs.realpathSync. */
  realpath?: (p: string) => string;
  /**
   * Compare `file:` URLs lexically instead of resolving them on disk, for URLs that name
   * something inside a folder by convention rather than by an existing path.
   */
  lexicalFiles?: boolean;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21', 'ssh:': '22', 'git:': '9418' };
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
// Escapes that servers may decode into separators or terminators after we checked the path.
const AMBIGUOUS_ESCAPE = /%(2f|5c|00)/i;

/**
 * The canonical form of `raw`, or undefined when it cannot be compared safely (not an
 * absolute URL, userinfo, an ambiguous escape, a `file:` path that does not exist, ...).
 * The query and fragment are not part of the canonical form.
 */
export function canonicalizeUrl(raw: string | URL, options: CanonicalizeOptions = {}): CanonicalUrl | undefined {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw.trim()) : new URL(raw.href);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  const scheme = url.protocol;
  if (scheme === 'file:') return canonicalFile(url, options);

  // Re-parsing the host as an http host gives every scheme the WHATWG host rules
  // (IDNA, lowercase, IPv4 forms like 2130706433, compressed IPv6).
  let host: string;
  try {
    host = new URL(`http://${url.hostname}/`).hostname;
  } catch {
    return undefined;
  }
  if (!host) return undefined;
  const port = url.port || DEFAULT_PORTS[scheme] || '';
  const segments = canonicalSegments(url.pathname);
  if (!segments) return undefined;
  const showPort = port && port !== DEFAULT_PORTS[scheme] ? `:${port}` : '';
  return { scheme, host, port, segments, href: `${scheme}//${host}${showPort}/${segments.join('/')}` };
}

function canonicalFile(url: URL, options: CanonicalizeOptions): CanonicalUrl | undefined {
  if (url.hostname && url.hostname !== 'localhost') return undefined;
  if (AMBIGUOUS_ESCAPE.test(url.pathname)) return undefined;
  let p: string;
  try {
    p = fileURLToPath(url);
  } catch {
    return undefined;
  }
  if (!options.lexicalFiles) {
    try {
      p = (options.realpath ?? fs.realpathSync.native)(p);
    } catch {
      return undefined;
    }
  }
  const href = pathToFileURL(p).href.replace(/\/+$/, '');
  const segments = canonicalSegments(new URL(href).pathname);
  if (!segments) return undefined;
  return { scheme: 'file:', host: '', port: '', segments, href: segments.length ? href : 'file:///' };
}

/** Segments with unreserved escapes decoded and other escapes uppercased; undefined if ambiguous. */
function canonicalSegments(pathname: string): string[] | undefined {
  if (AMBIGUOUS_ESCAPE.test(pathname)) return undefined;
  const out: string[] = [];
  for (const segment of pathname.split('/')) {
    if (segment === '') continue;
    const s = segment.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
      const c = String.fromCharCode(parseInt(hex, 16));
      return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
    });
    // The WHATWG parser has resolved dot segments; one surviving the decoding is a trick.
    if (s === '.' || s === '..') return undefined;
    out.push(s);
  }
  return out;
}

/** Thrown by parseUrlAllowList for an entry that cannot be used. */
export class UrlAllowListError extends Error {}

/**
 * A parsed allow-list. An entry admits URLs with the same scheme, host and port whose path
 * starts with the entry's path by whole segments (`/a/b` admits `/a/b` and `/a/b/c`, not
 * `/a/bc`).
 */
export class UrlAllowList {
  private constructor(
    private readonly entries: readonly CanonicalUrl[],
    private readonly options: CanonicalizeOptions,
  ) {}

  /** Parses entries once; throws UrlAllowListError naming the first unusable entry. */
  static parse(entries: readonly string[], options: CanonicalizeOptions = {}): UrlAllowList {
    const parsed = entries.map((entry) => {
      if (/[?#]/.test(entry)) throw new UrlAllowListError(`${entry}: an allowed URL must not have a query or fragment`);
      const c = canonicalizeUrl(entry, options);
      if (!c) {
        const why = entry.startsWith('file:') && !options.lexicalFiles ? 'not an existing local path' : 'not an absolute URL without credentials';
        throw new UrlAllowListError(`${entry}: ${why}`);
      }
      return c;
    });
    return new UrlAllowList(parsed, options);
  }

  /** The canonical form of `url` when an entry admits it, else undefined. */
  match(url: string | URL): CanonicalUrl | undefined {
    const c = canonicalizeUrl(url, this.options);
    if (!c) return undefined;
    return this.entries.some((e) => admits(e, c)) ? c : undefined;
  }

  /** Whether an entry admits `url`. */
  allows(url: string | URL): boolean {
    return this.match(url) !== undefined;
  }

  /** The entry admitting `url` and the canonical URL, for callers that need the part below the entry. */
  locate(url: string | URL): { entry: CanonicalUrl; url: CanonicalUrl } | undefined {
    const c = canonicalizeUrl(url, this.options);
    const entry = c && this.entries.find((e) => admits(e, c));
    return entry && c ? { entry, url: c } : undefined;
  }

  get size(): number {
    return this.entries.length;
  }
}

function admits(entry: CanonicalUrl, c: CanonicalUrl): boolean {
  return (
    entry.scheme === c.scheme &&
    entry.host === c.host &&
    entry.port === c.port &&
    entry.segments.length <= c.segments.length &&
    entry.segments.every((s, i) => s === c.segments[i])
  );
}
