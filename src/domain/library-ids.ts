/**
 * Library identifiers: `/<owner>/<repo>` for hosted repositories, `/<source>/<id>` for
 * other sources (`/openapi/<slug>`, `/git/<slug>`), optionally with a version as
 * `/<owner>/<repo>/<version>` or `/<owner>/<repo>@<version>`.
 */
import { InvalidLibraryIdError, ValidationError } from '../errors';
import { UrlAllowList, type CanonicalizeOptions } from '../net/url-allow-list';
import { isServerPathUrl, repoRelativeUrl } from '../util/source-url';

export type GitHost = 'github' | 'gitlab' | 'bitbucket' | 'git';
export const GIT_HOSTS: readonly GitHost[] = ['github', 'gitlab', 'bitbucket', 'git'];

/** Whether a library source is a Git host (not an upload, a website or an llms.txt). */
export function isGitHost(source: string): source is GitHost {
  return (GIT_HOSTS as readonly string[]).includes(source);
}

const SEGMENT = /^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,99}$/;
const VERSION = /^[A-Za-z0-9_.][A-Za-z0-9_.+-]{0,99}$/;

/**
 * Whether a version name can be stored as a version or tag: one a client can address
 * (`/<owner>/<repo>/<version>` and `@<version>` read it back), so letters, digits and
 * `. _ + -`, at most 100 characters; not only dots, and not `latest` (the default branch's
 * own name). Tag and branch names from requests, repository configs and git itself pass
 * this before they become versions.
 */
export function isAddressableVersion(name: string): boolean {
  return VERSION.test(name) && !/^\.+$/.test(name) && name !== 'latest';
}

/**
 * A free-text version (an OpenAPI `info.version`: "1.0 (beta)", "2023-10-16", "v2 / stable")
 * as an addressable tag: runs of other characters become "-", pieces of only dots are
 * dropped ("../../1" → "1"), at most 100 characters. Undefined when nothing addressable is
 * left. Refusing would reject real documents, whose versions are free text.
 */
export function normaliseVersionTag(raw: string): string | undefined {
  const pieces = raw
    .normalize('NFKD')
    .split(/[^A-Za-z0-9_.+-]+/)
    .map((p) => p.replace(/^[+-]+|[+-]+$/g, ''))
    .filter((p) => p !== '' && !/^\.+$/.test(p));
  const tag = pieces
    .join('-')
    .slice(0, 100)
    .replace(/[-+.]+$/, '');
  return tag && isAddressableVersion(tag) ? tag : undefined;
}

export interface ParsedLibraryId {
  libraryId: string;
  version?: string;
}

/** Parses a library id as clients send it. Throws InvalidLibraryIdError on a bad shape. */
export function parseLibraryId(raw: string): ParsedLibraryId {
  const input = (raw ?? '').trim();
  if (!input.startsWith('/') || input.length > 300) throw new InvalidLibraryIdError(input);
  let body = input.slice(1).replace(/\/+$/, '');
  let version: string | undefined;
  const at = body.indexOf('@');
  if (at !== -1) {
    version = body.slice(at + 1);
    body = body.slice(0, at);
  }
  const parts = body.split('/');
  if (parts.length === 3 && version === undefined) {
    version = parts.pop();
  }
  if (parts.length !== 2 || !parts.every((p) => SEGMENT.test(p) && p !== '.' && p !== '..')) throw new InvalidLibraryIdError(input);
  if (version !== undefined && !VERSION.test(version)) throw new InvalidLibraryIdError(input);
  return { libraryId: `/${parts[0]}/${parts[1]}`, version: version === 'latest' ? undefined : version };
}

export interface RepoLocation {
  libraryId: string;
  /** URL to clone (without credentials). */
  cloneUrl: string;
  /** The web URL of the repository (for snippet source links). */
  webUrl: string;
  /** A tag or branch named in the URL (`/tree/<ref>`). */
  ref?: string;
  source: GitHost;
}

type HostBases = { github: string; gitlab: string; bitbucket: string };

/**
 * The URLs repositories of `host` may come from (and redirects may lead to): for `git` the
 * GIT_ALLOWED_URL_PREFIXES entries, for a hosted service its base URL. A hosted base is
 * compared lexically even when it is a `file:` folder (the corpus loader's mirrors), since
 * its URLs (`<base>/<owner>/<repo>/tree/<ref>`) do not name paths on disk.
 */
export function repoUrlAllowList(host: GitHost, bases: HostBases, allowedGitPrefixes: readonly string[], options: CanonicalizeOptions = {}): UrlAllowList {
  return host === 'git' ? UrlAllowList.parse(allowedGitPrefixes, options) : UrlAllowList.parse([bases[host]], { ...options, lexicalFiles: true });
}

/**
 * Resolves `docsRepoUrl` for a host. The URL must sit under the host's base URL (or, for
 * `git`, under an allowed prefix), compared on canonical URLs; anything else is a 400
 * naming the field. The id and the clone URL come from the canonical URL, so what was
 * checked is what gets cloned.
 */
export function locateRepo(host: GitHost, docsRepoUrl: string, bases: HostBases, allowedGitPrefixes: readonly string[]): RepoLocation {
  let url: URL;
  try {
    url = new URL(docsRepoUrl);
  } catch {
    throw new ValidationError('docsRepoUrl must be an absolute URL.', 'docsRepoUrl');
  }
  if (url.username || url.password) throw new ValidationError('docsRepoUrl must not contain credentials; send gitToken instead.', 'docsRepoUrl');
  if (url.search || url.hash) throw new ValidationError('docsRepoUrl must not contain a query or fragment.', 'docsRepoUrl');

  if (host === 'git') {
    if (!['http:', 'https:', 'file:', 'ssh:', 'git:'].includes(url.protocol))
      throw new ValidationError('docsRepoUrl has an unsupported scheme.', 'docsRepoUrl');
    const canonical = repoUrlAllowList(host, bases, allowedGitPrefixes).match(url);
    if (!canonical) throw new ValidationError('docsRepoUrl is not under an allowed git URL prefix (GIT_ALLOWED_URL_PREFIXES).', 'docsRepoUrl');
    const slug = decodeSegment(canonical.segments.at(-1) ?? '')
      .replace(/\.git$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '');
    if (!slug) throw new ValidationError('docsRepoUrl does not name a repository.', 'docsRepoUrl');
    return { libraryId: `/git/${slug}`, cloneUrl: canonical.href, webUrl: canonical.href.replace(/\.git$/, ''), source: 'git' };
  }

  const shownBase = bases[host].replace(/\/+$/, '');
  const found = repoUrlAllowList(host, bases, allowedGitPrefixes).locate(url);
  if (!found) throw new ValidationError(`docsRepoUrl must be a ${host} repository URL under ${shownBase}.`, 'docsRepoUrl');
  const base = found.entry.href.replace(/\/+$/, '');
  const rest = found.url.segments.slice(found.entry.segments.length);
  if (rest.length < 2) throw new ValidationError(`docsRepoUrl must look like ${shownBase}/<owner>/<repo>.`, 'docsRepoUrl');
  const owner = rest[0];
  const repo = rest[1].replace(/\.git$/, '');
  let ref: string | undefined;
  // GitHub/Bitbucket: /tree/<ref> or /src/<ref>; GitLab: /-/tree/<ref>.
  const tail = rest.slice(2);
  if (tail[0] === '-') tail.shift();
  if (tail.length >= 2 && (tail[0] === 'tree' || tail[0] === 'src')) ref = decodeSegment(tail.slice(1).join('/'));
  else if (tail.length > 0) throw new ValidationError(`docsRepoUrl must look like ${shownBase}/<owner>/<repo> (optionally /tree/<tag>).`, 'docsRepoUrl');
  if (![owner, repo].every((p) => SEGMENT.test(p) && p !== '.' && p !== '..'))
    throw new ValidationError('docsRepoUrl has an invalid owner or repository name.', 'docsRepoUrl');
  if (ref !== undefined && !isAddressableVersion(ref)) {
    throw new ValidationError(
      'The tag in docsRepoUrl is not a version a client can address (letters, digits, ".", "_", "+", "-"; not "latest").',
      'docsRepoUrl',
    );
  }
  return {
    libraryId: `/${owner}/${repo}`,
    cloneUrl: `${base}/${owner}/${repo}.git`,
    webUrl: `${base}/${owner}/${repo}`,
    ref,
    source: host,
  };
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The URL of a file at a commit, for snippet sources. A repository cloned from this server's
 * disk (a `file:` URL) has no web address, and its path is not for callers to see: its
 * snippets name the file by its place in the repository.
 */
export function fileUrl(source: GitHost, webUrl: string, commit: string, filePath: string, line: number): string {
  const p = filePath.split('/').map(encodeURIComponent).join('/');
  if (isServerPathUrl(webUrl)) return repoRelativeUrl(filePath, line);
  switch (source) {
    case 'gitlab':
      return `${webUrl}/-/blob/${commit}/${p}#L${line}`;
    case 'bitbucket':
      return `${webUrl}/src/${commit}/${p}#lines-${line}`;
    default:
      return `${webUrl}/blob/${commit}/${p}#L${line}`;
  }
}

/** A lowercase, punctuation-free key for catalogue name matching ("Next.js" → "nextjs"). */
export function nameKey(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '');
}
