/**
 * `GET /connect`: what the dashboard's Connect page builds its setups from. The public URL is
 * the operator's (SHELFMARK_PUBLIC_URL) when set; otherwise the address the request came to
 * (`X-Forwarded-Proto`/`-Host` only from a trusted proxy), with a warning when that address is
 * one teammates cannot reach (loopback, a private network, a bare host name).
 */
import net from 'node:net';
import path from 'node:path';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Ports } from '../../../ports';
import { ROOT_DIR } from '../../../config';
import { guard } from '../../middlewares/auth';
import { rateLimit } from '../../middlewares/rate-limit';
import { validate } from '../../validate';
import { connectSchemas as s } from './schema';

/** What `connectRoutes` reaches (ports.ts). */
export type ConnectRoutesPorts = Pick<Ports, 'authenticator' | 'config' | 'rateLimiter' | 'settings' | 'trustedProxy'>;

export function connectRoutes(services: ConnectRoutesPorts): Router {
  const router = new Router();
  router.get('connect.read', '/connect', guard(services), rateLimit(services, { class: 'standard' }), validate(s['connect.read']), async (ctx) => {
    const configured = services.config.publicUrl;
    const publicUrl = configured ?? requestOrigin(services, ctx);
    const host = new URL(publicUrl).hostname;
    ctx.body = {
      publicUrl,
      mcpUrl: `${publicUrl}/mcp`,
      source: configured ? 'config' : 'request',
      warning: reachWarning(host, Boolean(configured)),
      keyRequired: Boolean(services.config.apiKey),
      // The stdio bridge of this installation (for assistants on the server's own machine, or a checkout at the same path).
      stdio: { command: 'node', script: path.join(ROOT_DIR, 'bin', 'shelfmark.mjs') },
    };
  });
  return router;
}

/** The origin this request came to; a trusted proxy's forwarded scheme and host win. */
function requestOrigin(services: Pick<Ports, 'config' | 'trustedProxy'>, ctx: Context): string {
  const viaProxy = services.trustedProxy(ctx.req.socket.remoteAddress ?? '');
  const proto = (viaProxy && ctx.get('x-forwarded-proto').split(',')[0].trim()) || ctx.protocol;
  const host = (viaProxy && ctx.get('x-forwarded-host').split(',')[0].trim()) || ctx.host;
  const origin = `${proto === 'https' ? 'https' : 'http'}://${host}`;
  try {
    return new URL(origin).origin;
  } catch {
    return `http://localhost:${services.config.port}`;
  }
}

/** Why teammates may not reach `host`, or null. */
export function reachWarning(host: string, configured: boolean): string | null {
  const bare = host.replace(/^\[|\]$/g, '');
  const fix = configured
    ? 'Check SHELFMARK_PUBLIC_URL.'
    : 'Set SHELFMARK_PUBLIC_URL to the address your team uses (for example https://shelfmark.example.com).';
  if (bare === 'localhost' || bare.endsWith('.localhost') || (net.isIP(bare) && isLoopback(bare)))
    return `${host} is this machine's own loopback address: an assistant on another computer cannot reach it. ${fix}`;
  if (net.isIP(bare) && isPrivate(bare))
    return `${host} is a private network address: only computers on that network can reach it. ${configured ? '' : fix}`.trim();
  if (!net.isIP(bare) && !bare.includes('.')) return `${host} is a bare host name: it resolves only on your network. ${configured ? '' : fix}`.trim();
  return null;
}

function isLoopback(ip: string): boolean {
  return ip === '::1' || /^127\./.test(ip) || /^::ffff:127\./i.test(ip);
}

function isPrivate(ip: string): boolean {
  return (
    /^10\./.test(ip) ||
    /^192\.168\./.test(ip) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(ip) ||
    /^169\.254\./.test(ip) ||
    /^f[cd][0-9a-f]{2}:/i.test(ip) ||
    /^fe80:/i.test(ip)
  );
}
