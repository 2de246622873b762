/**
 * Git access through nodegit: a bare clone (libgit2; nodegit exposes no shallow fetch, so
 * clones are full but bare — no work tree is written), tags, and reading a commit's tree
 * straight from the object database. Symlinks are reported, never followed; a tree walk
 * cannot leave the repository. http(s) clones go through a loopback gateway that verifies
 * TLS and redirects (see git-gateway.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type NodeGitTypes from 'nodegit';
import { TlsTrust } from '../../net/tls-trust';
import { canonicalizeUrl, type CanonicalUrl } from '../../net/url-allow-list';
import { openGitGateway, type GatewayFailure, type GitGateway } from './git-gateway';

const require = createRequire(import.meta.url);
let nodegit: typeof NodeGitTypes | undefined;
function git(): typeof NodeGitTypes {
  // Loaded lazily: the native module is only needed by the indexer.
  nodegit ??= require('nodegit') as typeof NodeGitTypes;
  return nodegit;
}

// libgit2 constants (the typings declare them as ambient const enums, unusable here).
const FILEMODE = { TREE: 0o040000, BLOB: 0o100644, EXECUTABLE: 0o100755, LINK: 0o120000 } as const;
const AUTOTAG_DOWNLOAD_TAGS_ALL = 3;
/**
 * The certificate callback's "keep libgit2's own verdict". Nothing else is safe to return
 * for an unverified certificate: libgit2 1.9 proceeds on 0 and on any positive value
 * (despite its documentation), and nodegit turns a non-number into 1.
 */
const GIT_PASSTHROUGH = -30;

type CloneFn = (url: string, dir: string, options: object) => Promise<NodeGitTypes.Repository>;

/**
 * Why Git access failed. `unavailable` covers a missing repository and an unreachable
 * server alike, so errors do not map the network behind an allowed URL.
 */
export type GitFailureReason = 'auth' | 'unavailable' | 'tls' | 'redirect' | 'ref_not_found' | 'other';

export class GitSourceError extends Error {
  constructor(
    message: string,
    readonly reason: GitFailureReason,
  ) {
    super(message);
  }
}

export interface CloneOptions {
  /** Whom to trust over https (default: the system CA store). */
  tls?: TlsTrust;
  /** Which repository URL a redirect may lead to (default: no redirect is followed). */
  allowRedirect?: (url: CanonicalUrl) => boolean;
}

export interface RepoFile {
  path: string;
  size: number;
  isSymlink: boolean;
  /** The blob id: a content hash, so unchanged files are recognised across commits. */
  oid: string;
}

export interface ClonedRepo {
  dir: string;
  repo: NodeGitTypes.Repository;
  defaultBranch: string;
}

/**
 * Clones `url` bare into `dir`. `token` (if any) is sent as HTTP basic credentials, over
 * https only to a server whose certificate passed `options.tls`.
 */
export async function cloneBare(url: string, dir: string, token?: string, options: CloneOptions = {}): Promise<ClonedRepo> {
  const g = git();
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  let attempts = 0;
  let gateway: GitGateway | undefined;
  try {
    const remote = /^https?:/i.test(url) ? await openGateway(url, options).then((gw) => (gateway = gw).url) : url;
    const clone = (g.Clone as unknown as { clone: CloneFn }).clone;
    const repo = await clone(remote, dir, {
      bare: 1,
      fetchOpts: {
        downloadTags: AUTOTAG_DOWNLOAD_TAGS_ALL,
        callbacks: {
          // libgit2 does TLS itself only for transports the gateway does not carry (ssh
          // host keys): its own verdict stands.
          certificateCheck: () => GIT_PASSTHROUGH,
          credentials: () => {
            // libgit2 asks again after a rejection; give up instead of looping.
            if (!token || attempts++ > 0) return g.Credential.defaultNew();
            return g.Credential.userpassPlaintextNew('x-access-token', token);
          },
        },
      },
    });
    const head = await repo.head().catch(() => undefined);
    const defaultBranch = head ? head.shorthand() : 'main';
    return { dir, repo, defaultBranch };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error instanceof GitSourceError ? error : mapCloneError(error, url, gateway?.failure);
  } finally {
    await gateway?.close();
  }
}

/** What a remote advertises, read without cloning (`git ls-remote`). */
export interface RemoteRefs {
  /** The commit the remote's HEAD (its default branch) points at, when it advertises one. */
  head?: string;
  /** The default branch's name, when the remote says which branch HEAD is. */
  defaultBranch?: string;
  /** Branch name → commit. */
  branches: Map<string, string>;
  /** Tag name → the commit it points at (annotated tags peeled). */
  tags: Map<string, string>;
}

/**
 * Lists the remote's references without cloning: libgit2 connects and reads the ref
 * advertisement (smart HTTP `info/refs?service=git-upload-pack`), through the same gateway,
 * TLS rules, redirect allow-list and credentials as a clone, and downloads no objects.
 */
export async function listRemote(url: string, token?: string, options: CloneOptions = {}): Promise<RemoteRefs> {
  const g = git();
  let gateway: GitGateway | undefined;
  let remote: NodeGitTypes.Remote | undefined;
  let attempts = 0;
  try {
    const target = /^https?:/i.test(url) ? await openGateway(url, options).then((gw) => (gateway = gw).url) : url;
    remote = await g.Remote.createDetached(target);
    const FETCH = 0; // GIT_DIRECTION_FETCH
    await remote.connect(
      FETCH as NodeGitTypes.Enums.DIRECTION,
      {
        certificateCheck: () => GIT_PASSTHROUGH,
        credentials: () => {
          if (!token || attempts++ > 0) return g.Credential.defaultNew();
          return g.Credential.userpassPlaintextNew('x-access-token', token);
        },
      } as unknown as NodeGitTypes.RemoteCallbacks,
    );
    const heads = (await remote.referenceList()) as Array<{ name(): string; oid(): NodeGitTypes.Oid; symrefTarget(): string | null }>;
    const refs: RemoteRefs = { branches: new Map(), tags: new Map() };
    for (const h of heads) {
      const name = h.name();
      const sha = h.oid().tostrS();
      if (name === 'HEAD') {
        refs.head = sha;
        const target = h.symrefTarget();
        if (target?.startsWith('refs/heads/')) refs.defaultBranch = target.slice('refs/heads/'.length);
      } else if (name.startsWith('refs/heads/')) {
        refs.branches.set(name.slice('refs/heads/'.length), sha);
      } else if (name.startsWith('refs/tags/')) {
        const tag = name.slice('refs/tags/'.length);
        // `v1^{}` is the commit an annotated tag `v1` points at; it comes after the tag itself.
        if (tag.endsWith('^{}')) refs.tags.set(tag.slice(0, -3), sha);
        else if (!refs.tags.has(tag)) refs.tags.set(tag, sha);
      }
    }
    if (refs.head && !refs.defaultBranch) refs.defaultBranch = [...refs.branches].find(([, sha]) => sha === refs.head)?.[0];
    return refs;
  } catch (error) {
    throw error instanceof GitSourceError ? error : mapCloneError(error, url, gateway?.failure);
  } finally {
    await remote?.disconnect().catch(() => undefined);
    await gateway?.close();
  }
}

let systemTrust: TlsTrust | undefined;

async function openGateway(url: string, options: CloneOptions): Promise<GitGateway> {
  const repoUrl = canonicalizeUrl(url);
  if (!repoUrl) throw new GitSourceError(`Could not clone ${redact(url)}: not a valid repository URL.`, 'unavailable');
  // The system store is parsed once, on the first clone that needs it.
  const tls = options.tls ?? (systemTrust ??= new TlsTrust());
  return openGitGateway({ repoUrl, tls, allowRedirect: options.allowRedirect ?? (() => false) });
}

/**
 * One message per cause a caller may see. A missing repository, a closed port, a name that
 * does not resolve and a timeout read the same, so clone errors cannot be used to probe
 * what listens behind an allowed URL.
 */
function mapCloneError(error: unknown, url: string, failure: GatewayFailure | undefined): GitSourceError {
  const msg = error instanceof Error ? error.message : String(error);
  const safeUrl = redact(url);
  const unavailable = () => new GitSourceError(`Could not clone ${safeUrl}: the repository does not exist or is not reachable.`, 'unavailable');
  switch (failure?.kind) {
    case 'tls':
      return new GitSourceError(
        `Could not clone ${safeUrl}: ${failure.reason}. If the server's certificate comes from a private CA, add that CA to GIT_CA_FILE; if it is self-signed, pin it with GIT_TLS_PINNED.`,
        'tls',
      );
    case 'redirect':
      return new GitSourceError(`Could not clone ${safeUrl}: the server redirects to a URL that is not allowed.`, 'redirect');
    case 'not_found':
    case 'unreachable':
      return unavailable();
  }
  if (/401|403|authentication|credentials|auth/i.test(msg)) {
    return new GitSourceError(`Authentication failed for ${safeUrl}: check the git token.`, 'auth');
  }
  if (
    /404|not found|does not appear to be a git repository|repository not found|resolve|connect|timed out|unreachable|ECONNREFUSED|failed to send request|could not find repository|No such file/i.test(
      msg,
    )
  ) {
    return unavailable();
  }
  return new GitSourceError(`Cloning ${safeUrl} failed: ${redact(msg)}`, 'other');
}

/** Hides credentials in URLs of a text. */
function redact(s: string): string {
  return s.replace(/\/\/[^/@\s]*@/g, '//***@');
}

/** Tag names of the repository, newest first by commit time where resolvable. */
export async function listTags(repo: NodeGitTypes.Repository): Promise<string[]> {
  const names = (await git().Tag.list(repo)) as string[];
  return names.sort().reverse();
}

/** Resolves a tag or branch name (or "HEAD") to a commit. */
export async function resolveCommit(repo: NodeGitTypes.Repository, ref: string): Promise<NodeGitTypes.Commit> {
  const g = git();
  const candidates = ref === 'HEAD' ? ['HEAD'] : [`refs/tags/${ref}`, `refs/heads/${ref}`, `refs/remotes/origin/${ref}`, ref];
  for (const name of candidates) {
    try {
      const obj = await g.Revparse.single(repo, `${name}^{commit}`);
      return await repo.getCommit(obj.id());
    } catch {
      // try the next form
    }
  }
  throw new GitSourceError(`Ref "${ref}" was not found in the repository.`, 'ref_not_found');
}

/** Tags whose target is `commitSha` (so a tag on the default branch's head resolves to it). */
export async function tagsAt(repo: NodeGitTypes.Repository, commitSha: string, tags: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const tag of tags) {
    try {
      const c = await resolveCommit(repo, tag);
      if (c.sha() === commitSha) out.push(tag);
    } catch {
      // unresolvable tag: ignore
    }
  }
  return out;
}

/** Every blob of the commit's tree, with sizes; symlinks flagged, submodules skipped. */
export async function listTree(commit: NodeGitTypes.Commit): Promise<RepoFile[]> {
  const files: RepoFile[] = [];
  const walk = async (tree: NodeGitTypes.Tree, prefix: string): Promise<void> => {
    for (const entry of tree.entries()) {
      const p = prefix ? `${prefix}/${entry.name()}` : entry.name();
      const mode = entry.filemode();
      if (mode === FILEMODE.TREE) {
        await walk(await entry.getTree(), p);
      } else if (mode === FILEMODE.LINK) {
        files.push({ path: p, size: 0, isSymlink: true, oid: entry.sha() });
      } else if (mode === FILEMODE.BLOB || mode === FILEMODE.EXECUTABLE) {
        const blob = await entry.getBlob();
        files.push({ path: p, size: Number(blob.rawsize()), isSymlink: false, oid: entry.sha() });
      }
    }
  };
  await walk(await commit.getTree(), '');
  return files;
}

/** Reads one blob's bytes by path. */
export async function readBlob(commit: NodeGitTypes.Commit, filePath: string): Promise<Buffer> {
  const entry = await commit.getEntry(filePath);
  const blob = await entry.getBlob();
  return blob.content();
}
