/**
 * A real local Git server for tests: git's smart HTTP protocol (`git http-backend` CGI)
 * behind a loopback Node HTTP (or, with `tls`, HTTPS) server, with optional token auth for
 * private repositories (HTTP basic, the token as password, as GitHub/GitLab accept it).
 * Every request it receives is recorded, so tests can assert what a client sent.
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';

export interface GitServer {
  url: string;
  root: string;
  /** Requests received so far (method, path and query, Authorization header if any). */
  requests: { method: string; url: string; authorization?: string }[];
  /** Repos (relative paths like "acme/private.git") that need `token`. */
  protect(repoPath: string, token: string): void;
  close(): Promise<void>;
}

export interface GitServerOptions {
  /** Serve HTTPS with this PEM key and certificate (chain). */
  tls?: { key: string; cert: string };
  /** The host name in `url` (default 127.0.0.1; the server listens on loopback either way). */
  hostname?: string;
}

const BACKEND = '/usr/lib/git-core/git-http-backend';

export async function startGitServer(root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-git-')), options: GitServerOptions = {}): Promise<GitServer> {
  const protectedRepos = new Map<string, string>();
  const requests: GitServer['requests'] = [];
  const handler: http.RequestListener = (req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const repo = Object.keys(Object.fromEntries(protectedRepos)).find((r) => url.pathname.startsWith(`/${r}`));
    if (repo) {
      const header = req.headers.authorization ?? '';
      const [, b64 = ''] = header.split(' ');
      const password = Buffer.from(b64, 'base64').toString().split(':').slice(1).join(':');
      if (password !== protectedRepos.get(repo)) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
        res.end('unauthorized');
        return;
      }
    }
    const child = spawn(BACKEND, [], {
      env: {
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
        HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      },
    });
    req.pipe(child.stdin);
    let headerBuf = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      headerBuf = Buffer.concat([headerBuf, chunk]);
      const end = headerBuf.indexOf('\r\n\r\n');
      if (end === -1) return;
      headersDone = true;
      let status = 200;
      for (const line of headerBuf.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else res.setHeader(k, v);
      }
      res.statusCode = status;
      res.write(headerBuf.subarray(end + 4));
    });
    child.stdout.on('end', () => res.end());
    child.on('error', () => {
      res.statusCode = 500;
      res.end();
    });
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `${options.tls ? 'https' : 'http'}://${options.hostname ?? '127.0.0.1'}:${port}`,
    root,
    requests,
    protect(repoPath, token) {
      protectedRepos.set(repoPath.replace(/^\//, ''), token);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          fs.rmSync(root, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

export interface RepoVersion {
  files: Record<string, string | Buffer | { symlink: string }>;
  tag?: string;
  message?: string;
}

/**
 * Creates a bare repository `<root>/<owner>/<name>.git` whose history has one commit per
 * version (each replacing the whole tree), tagged as asked; the last one is the branch head.
 */
export function createRepo(root: string, repoPath: string, versions: RepoVersion[], branch = 'main'): string {
  const bare = path.join(root, repoPath.endsWith('.git') ? repoPath : `${repoPath}.git`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-work-'));
  const run = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: work,
      stdio: 'pipe',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    });
  run('init', '-q', '-b', branch);
  for (const [i, v] of versions.entries()) {
    for (const entry of fs.readdirSync(work)) if (entry !== '.git') fs.rmSync(path.join(work, entry), { recursive: true, force: true });
    for (const [p, content] of Object.entries(v.files)) {
      const full = path.join(work, p);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      if (typeof content === 'object' && !Buffer.isBuffer(content)) fs.symlinkSync(content.symlink, full);
      else fs.writeFileSync(full, content);
    }
    run('add', '-A');
    run('commit', '-q', '--allow-empty', '-m', v.message ?? `version ${i + 1}`);
    if (v.tag) run('tag', v.tag);
  }
  fs.mkdirSync(path.dirname(bare), { recursive: true });
  fs.rmSync(bare, { recursive: true, force: true });
  execFileSync('git', ['clone', '-q', '--bare', work, bare], { stdio: 'pipe' });
  fs.rmSync(work, { recursive: true, force: true });
  return bare;
}

/** Adds a commit to an existing bare repo (for refresh tests): applies `changes` (null deletes). */
export function commitToRepo(bare: string, changes: Record<string, string | null>, branch = 'main'): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-work-'));
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  execFileSync('git', ['clone', '-q', '-b', branch, bare, work], { stdio: 'pipe' });
  for (const [p, content] of Object.entries(changes)) {
    const full = path.join(work, p);
    if (content === null) fs.rmSync(full, { force: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
    }
  }
  execFileSync('git', ['add', '-A'], { cwd: work, stdio: 'pipe', env });
  execFileSync('git', ['commit', '-q', '-m', 'change'], { cwd: work, stdio: 'pipe', env });
  execFileSync('git', ['push', '-q', 'origin', branch], { cwd: work, stdio: 'pipe', env });
  fs.rmSync(work, { recursive: true, force: true });
}
