/**
 * A real local website for crawler tests: a node:http server on loopback that serves files
 * (from a folder and/or an in-memory map) with content types, strong ETags and
 * Last-Modified, answering conditional requests with 304, plus per-path handlers for the
 * odd cases (redirects, slow or huge pages). Every request is recorded.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  status: number;
}

export interface WebSite {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  origin: string;
  port: number;
  requests: RecordedRequest[];
  /** Replaces or adds a file served from memory (path like "/guide/intro.html"). */
  set(urlPath: string, body: string | Buffer, contentType?: string): void;
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface WebSiteOptions {
  /** Serve this folder (directories answer with their index.html). */
  root?: string;
  files?: Record<string, string | Buffer>;
  handlers?: Record<string, Handler>;
  /** Answer requests that accept text/markdown with `<path>.md` when it exists (content negotiation). */
  negotiateMarkdown?: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.json': 'application/json',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.pdf': 'application/pdf',
  '.woff2': 'font/woff2',
};
const LAST_MODIFIED = new Date('2026-01-01T00:00:00Z').toUTCString();

export async function startWebSite(options: WebSiteOptions = {}): Promise<WebSite> {
  const memory = new Map<string, { body: Buffer; type?: string }>();
  for (const [p, body] of Object.entries(options.files ?? {})) memory.set(p, { body: Buffer.from(body) });
  const requests: RecordedRequest[] = [];

  const read = (urlPath: string): { body: Buffer; type: string } | undefined => {
    const candidates = urlPath.endsWith('/') ? [`${urlPath}index.html`] : [urlPath, `${urlPath}.html`];
    for (const c of candidates) {
      const m = memory.get(c);
      if (m) return { body: m.body, type: m.type ?? TYPES[path.extname(c)] ?? 'application/octet-stream' };
      if (options.root) {
        const file = path.join(options.root, decodeURIComponent(c));
        if (!file.startsWith(options.root)) return undefined;
        if (fs.existsSync(file) && fs.statSync(file).isFile())
          return { body: fs.readFileSync(file), type: TYPES[path.extname(file)] ?? 'application/octet-stream' };
      }
    }
    return undefined;
  };

  const server = http.createServer((req, res) => {
    const record = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, status: 0 };
    requests.push(record);
    res.on('finish', () => (record.status = res.statusCode));
    const urlPath = new URL(req.url ?? '/', 'http://x').pathname;
    const handler = options.handlers?.[urlPath];
    if (handler) return handler(req, res);
    let found = read(urlPath);
    // A folder asked for without its slash: redirect, as static servers do.
    if (!found && !urlPath.endsWith('/') && read(`${urlPath}/`)) return res.writeHead(301, { location: `${urlPath}/` }).end();
    if (options.negotiateMarkdown && /text\/markdown/.test(req.headers.accept ?? '')) {
      const md = read(urlPath.endsWith('/') ? `${urlPath}index.md` : `${urlPath.replace(/\.html$/, '')}.md`);
      if (md) found = md;
    }
    if (!found) return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    const etag = `"${crypto.createHash('sha1').update(found.body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length, etag, 'last-modified': LAST_MODIFIED, vary: 'accept' });
    res.end(req.method === 'HEAD' ? undefined : found.body);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    set: (p, body, type) => memory.set(p, { body: Buffer.from(body), type }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
