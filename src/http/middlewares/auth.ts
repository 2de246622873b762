/**
 * Authentication for HTTP: reads the credentials of a request (a bearer key, the
 * SHELFMARK_API_KEY or X-API-Key header for MCP clients, or the dashboard's session
 * cookie), sets `ctx.state.principal`, and enforces "required" (401 invalid_api_key), the
 * anonymous-permission settings and the forced change of the default credentials (403).
 *
 * The request's rate-limit identity is known before any I/O, so `authenticate` starts
 * counting the request (standard class) while the key and its user are looked up; the
 * rate-limit middleware then only awaits that count.
 */
import type { Context, Middleware } from 'koa';
import type { Ports } from '../../ports';
import type { Authenticated } from '../../auth/authenticator';
import type { RateDecision, RateTier } from '../../auth/rate-limiter';
import type { AnonymousOperation } from '../../auth/settings';
import type { Principal } from '../../auth/principal';
import { assertCredentialsChanged } from '../../auth/authorize';
import { authorize, isOperation, ruleOf, type Operation } from '../../auth/permissions';
import { clientAddress } from '../../auth/client-address';
import { InvalidApiKeyError } from '../../errors';

export const SESSION_COOKIE = 'shelfmark_session';
export const CSRF_COOKIE = 'shelfmark_csrf';
export const CSRF_HEADER = 'x-csrf-token';

type AuthDeps = Pick<Ports, 'config' | 'authenticator' | 'settings' | 'rateLimiter' | 'trustedProxy'>;

export interface AuthenticateOptions {
  /** Whether a caller must be authenticated (always true while API_KEY is set). */
  required: boolean | ((ctx: Context) => boolean);
  /** Anonymous callers pass when the permission settings allow this operation. */
  anonymousOperation?: AnonymousOperation;
  /** Lets the default administrator in before the shipped credentials are changed (auth routes). */
  allowDefaultCredentials?: boolean;
}

/** What a request presented, resolved lazily and memoised on `ctx.state.requestAuth`. */
export interface RequestAuth {
  identity: string;
  tier: RateTier;
  resolve(): Promise<Authenticated>;
  /** Counts the request in the standard class (once). */
  standardHit(): Promise<RateDecision>;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MISSING_KEY = 'Missing API key: send "Authorization: Bearer smk_..." (create a key in the dashboard under API keys).';
const SESSION_EXPIRED = 'Your session has expired or was signed out: sign in again (or send "Authorization: Bearer smk_...").';

/** The request's credentials and rate-limit identity (throws 401 for a malformed key). */
export function requestAuth(services: AuthDeps, ctx: Context): RequestAuth {
  const cached = ctx.state.requestAuth;
  if (cached) return cached;
  const identified = services.authenticator.identify({
    apiKey: presentedKey(ctx),
    sessionToken: ctx.cookies.get(SESSION_COOKIE) || undefined,
    csrfToken: ctx.get(CSRF_HEADER) || undefined,
    unsafeMethod: UNSAFE.has(ctx.method),
    clientAddress: clientAddress(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for'), services.trustedProxy),
  });
  let hit: Promise<RateDecision> | undefined;
  const auth: RequestAuth = {
    identity: identified.identity,
    tier: identified.tier,
    resolve: identified.resolve,
    standardHit() {
      if (!hit) {
        hit = services.rateLimiter.hit('standard', identified.identity, identified.tier);
        hit.catch(() => undefined); // awaited by the rate-limit middleware, if the route has one
      }
      return hit;
    },
  };
  ctx.state.requestAuth = auth;
  return auth;
}

function presentedKey(ctx: Context): string | undefined {
  const authorization = ctx.get('authorization');
  if (authorization) {
    const m = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!m) throw new InvalidApiKeyError('Malformed Authorization header: use "Authorization: Bearer smk_...".');
    return m[1];
  }
  const header = (ctx.get('shelfmark_api_key') || ctx.get('x-api-key')).trim();
  return header || undefined;
}

/** Authentication with explicit options, for a route outside the permissions table (tests' probes). */
export function authenticate(services: AuthDeps, options: AuthenticateOptions): Middleware {
  return async function authenticateMiddleware(ctx, next) {
    await authenticateRequest(services, ctx, options);
    await next();
  };
}

/** Sets `ctx.state.principal`; throws 401 when a credential is required and missing. */
async function authenticateRequest(services: AuthDeps, ctx: Context, options: AuthenticateOptions): Promise<Principal> {
  const auth = requestAuth(services, ctx);
  void auth.standardHit().catch(() => undefined);
  const { principal, mustChangePassword, sessionId, staleSession } = await auth.resolve();
  ctx.state.principal = principal;
  ctx.state.sessionId = sessionId;
  const required = Boolean(services.config.apiKey) || (typeof options.required === 'function' ? options.required(ctx) : options.required);
  if (principal.kind === 'anonymous' && required) {
    const op = options.anonymousOperation;
    if (services.config.apiKey || !op || !(await services.settings.allowsAnonymous(op)))
      throw new InvalidApiKeyError(staleSession ? SESSION_EXPIRED : MISSING_KEY);
  }
  if (!options.allowDefaultCredentials) assertCredentialsChanged({ mustChangePassword });
  return principal;
}

/**
 * The guard of a named route: the route's name is its operation in the permissions table
 * (auth/permissions.ts), which says whether a credential is required, which permission
 * setting lets anonymous callers in, and who may call it; resource-dependent rules are
 * checked again in the handler with `authorize(principal, operation, resource)`.
 */
export function guard(services: AuthDeps): Middleware {
  return async function guardMiddleware(ctx, next) {
    const name = ctx.routerName;
    if (!name || !isOperation(name))
      throw new Error(`route ${ctx.method} ${ctx._matchedRoute ?? ctx.path} has no operation of the permissions table as its name`);
    const operation: Operation = name;
    const rule = ruleOf(operation);
    const principal = await authenticateRequest(services, ctx, {
      required: rule.audience !== 'anyone',
      anonymousOperation: rule.anonymous,
      allowDefaultCredentials: rule.beforeCredentialsChange,
    });
    ctx.state.operation = operation;
    authorize(principal, operation);
    await next();
  };
}

/**
 * While API_KEY is set, every endpoint needs a credential, whatever its route declares:
 * only the health routes, /ping, the login call and the dashboard's static files stay open.
 */
export function requireApiKeyEverywhere(services: AuthDeps): Middleware {
  const open = new Set(['/healthz', '/readyz', '/livez', '/ping', '/v2/auth/login', '/api/v2/auth/login']);
  return async function requireApiKeyEverywhereMiddleware(ctx, next) {
    if (!services.config.apiKey || open.has(ctx.path) || isDashboardAsset(ctx) || isWebhookDelivery(ctx)) return next();
    const { principal } = await requestAuth(services, ctx).resolve();
    if (principal.kind === 'anonymous') throw new InvalidApiKeyError('This server requires an API key for every request: send "Authorization: Bearer <key>".');
    await next();
  };
}

/** Webhook deliveries prove themselves with the hook's signature (catalog/webhooks.ts), not a key. */
function isWebhookDelivery(ctx: Context): boolean {
  return ctx.method === 'POST' && /^(\/api)?\/v2\/webhooks\/[a-z]+$/.test(ctx.path);
}

function isDashboardAsset(ctx: Context): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  return ctx.path === '/' || ctx.path === '/favicon.ico' || ctx.path === '/dashboard' || ctx.path.startsWith('/dashboard/');
}
