/**
 * The dashboard's static files: plain HTML, CSS and ES modules from `public/`, plus two
 * vendored browser modules from node_modules (marked, DOMPurify) under `/vendor/`. There is
 * no build step: files are read once, when the middleware is built, and kept in memory.
 *
 * Fingerprinting without a build: every relative reference to a file (`src="js/main.js"`,
 * `from './dom.js'`, `import(`./pages/${name}.js`)`) gets `?v=<version>` appended in
 * memory, where the version is a hash of all the files together. A request carrying the
 * current version is cached for a year (`immutable`): a reload asks for index.html alone
 * (revalidated with its strong ETag, so usually a bodiless 304). Any change to any file
 * changes the version, and with it every URL. Compression is koa-compress's, app-wide.
 * Every response carries a strict Content-Security-Policy: scripts and styles only from
 * this origin, no inline code, no frames, API calls only to this origin.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import { ROOT_DIR } from '../config';

export const DASHBOARD_DIR = path.join(ROOT_DIR, 'src', 'dashboard', 'public');

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

const NODE_MODULES = path.join(ROOT_DIR, 'node_modules');

const HIGHLIGHTER = path.join(NODE_MODULES, '@speed-highlight/core/dist');

/**
 * Browser modules served from node_modules as they ship (URL path → file): marked, DOMPurify,
 * and speed-highlight's tokenizer with its grammars (one small module per language, loaded
 * when a code block needs it; js/highlight.js builds the DOM from its tokens).
 */
export const VENDOR_FILES: Record<string, string> = {
  '/vendor/marked.js': path.join(NODE_MODULES, 'marked/lib/marked.esm.js'),
  '/vendor/purify.js': path.join(NODE_MODULES, 'dompurify/dist/purify.es.mjs'),
  '/vendor/speed-highlight/tokenize.js': path.join(HIGHLIGHTER, 'tokenize.js'),
  ...Object.fromEntries(
    (fs.existsSync(path.join(HIGHLIGHTER, 'languages')) ? fs.readdirSync(path.join(HIGHLIGHTER, 'languages')) : [])
      .filter((name) => name.endsWith('.js') && name !== 'index.js')
      .map((name) => [`/vendor/speed-highlight/languages/${name}`, path.join(HIGHLIGHTER, 'languages', name)]),
  ),
};

/** Reads every file under `dir` (and the vendored modules) into a map keyed by its URL path relative to the mount ("/app.css"). */
export function loadStaticFiles(dir: string = DASHBOARD_DIR): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const add = (rel: string, body: Buffer) => {
    const type = CONTENT_TYPES[path.extname(rel).toLowerCase()];
    if (type) files.set(rel, { body, type, etag: etagOf(body) });
  };
  const walk = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const childAbs = path.join(abs, entry.name);
      const childRel = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(childAbs, childRel);
      else if (entry.isFile() && CONTENT_TYPES[path.extname(entry.name).toLowerCase()]) add(childRel, fs.readFileSync(childAbs)); // unknown kinds of files are not published
    }
  };
  walk(dir, '');
  for (const [rel, file] of Object.entries(VENDOR_FILES)) {
    // A source map comment would make devtools ask for a file that is not served.
    if (fs.existsSync(file)) add(rel, Buffer.from(fs.readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n')));
  }
  return files;
}

function etagOf(body: Buffer): string {
  return `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** The version of a set of files: one hash over every path and body. */
export function assetVersion(files: Map<string, StaticFile>): string {
  const hash = crypto.createHash('sha256');
  for (const rel of [...files.keys()].sort()) hash.update(rel).update('\0').update(files.get(rel)!.body).update('\0');
  return hash.digest('base64url').slice(0, 12);
}

/**
 * The files as served: relative references in HTML, CSS and JS carry `?v=<version>`.
 * Only references to files of the dashboard are rewritten (relative paths ending in a
 * known extension); absolute URLs, fragments and API paths stay as they are.
 */
export function fingerprintFiles(files: Map<string, StaticFile>, version: string = assetVersion(files)): Map<string, StaticFile> {
  const out = new Map<string, StaticFile>();
  const ext = '(?:js|css|svg|png|ico)';
  for (const [rel, file] of files) {
    let text: string | undefined;
    if (rel.endsWith('.html'))
      text = file.body.toString('utf8').replace(new RegExp(`(\\s(?:href|src)=")((?!\\w+:|/|#)[^"?]+\\.${ext})"`, 'g'), `$1$2?v=${version}"`);
    else if (rel.endsWith('.js') && !rel.startsWith('/vendor/'))
      text = file.body.toString('utf8').replace(new RegExp(`(["'\`])(\\.{1,2}/[^"'\`\\s?]+\\.${ext})\\1`, 'g'), `$1$2?v=${version}$1`);
    else if (rel.endsWith('.css'))
      text = file.body.toString('utf8').replace(new RegExp(`url\\((["']?)((?!\\w+:|/|#)[^"')?]+\\.${ext})\\1\\)`, 'g'), `url($1$2?v=${version}$1)`);
    if (text === undefined) out.set(rel, file);
    else {
      const body = Buffer.from(text);
      out.set(rel, { body, type: file.type, etag: etagOf(body) });
    }
  }
  return out;
}

export interface DashboardOptions {
  /** URL prefix the dashboard is mounted at. */
  mount?: string;
  /** Folder of the static files (tests may point elsewhere). */
  dir?: string;
}

/**
 * Serves the dashboard: `GET /dashboard` redirects to `/dashboard/`, which is `index.html`;
 * other paths map to files under `public/`. Anything else under the mount is a 404 text
 * (the API's JSON 404 stays for API paths). Only GET and HEAD are answered.
 */
export function dashboardStatic(options: DashboardOptions = {}): Middleware {
  const mount = options.mount ?? '/dashboard';
  const source = loadStaticFiles(options.dir);
  const version = assetVersion(source);
  const files = fingerprintFiles(source, version);
  return async function dashboardStaticMiddleware(ctx, next) {
    if (ctx.path !== mount && !ctx.path.startsWith(`${mount}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Method not allowed.';
      return;
    }
    setSecurityHeaders(ctx.set.bind(ctx));
    if (ctx.path === mount) {
      ctx.redirect(`${mount}/`);
      return;
    }
    const rel = ctx.path.slice(mount.length);
    const file = files.get(rel === '/' ? '/index.html' : rel);
    if (!file) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Not found.';
      return;
    }
    ctx.set('ETag', file.etag);
    // A fingerprinted URL names these exact bytes: cached for good. Anything else (the HTML,
    // an old or missing version) is revalidated; the strong ETag makes that a bodiless 304.
    ctx.set('Cache-Control', ctx.query.v === version && !rel.endsWith('.html') && rel !== '/' ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = file.type;
    if (ifNoneMatch(ctx.get('If-None-Match'), file.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    ctx.body = file.body;
  };
}

function setSecurityHeaders(set: (name: string, value: string) => void): void {
  set('Content-Security-Policy', DASHBOARD_CSP);
  set('X-Content-Type-Options', 'nosniff');
  set('X-Frame-Options', 'DENY');
  set('Referrer-Policy', 'no-referrer');
  set('Cross-Origin-Opener-Policy', 'same-origin');
}

function ifNoneMatch(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
