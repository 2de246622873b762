/**
 * The dashboard's static files: plain HTML, CSS and ES modules from `public/`, served as
 * they are (no build step). Files are read once, when the middleware is built, and kept in
 * memory with a strong ETag (a hash of the bytes), so a reload costs one 304 per file.
 * Every response carries a strict Content-Security-Policy: scripts and styles only from
 * this origin, no inline code, no frames, API calls only to this origin.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';

export const DASHBOARD_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), 'public');

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

/** Reads every file under `dir` into a map keyed by its URL path relative to the mount ("/app.css"). */
export function loadStaticFiles(dir: string = DASHBOARD_DIR): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const childAbs = path.join(abs, entry.name);
      const childRel = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(childAbs, childRel);
      else if (entry.isFile()) {
        const type = CONTENT_TYPES[path.extname(entry.name).toLowerCase()];
        if (!type) continue; // unknown kinds of files are not published
        const body = fs.readFileSync(childAbs);
        const hash = crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27);
        files.set(childRel, { body, type, etag: `"${hash}"` });
      }
    }
  };
  walk(dir, '');
  return files;
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
  const files = loadStaticFiles(options.dir);
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
    // Files are not fingerprinted (no build step), so the browser revalidates each use;
    // the strong ETag turns that into a bodiless 304.
    ctx.set('Cache-Control', 'no-cache');
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
