/**
 * What the middlewares leave on `ctx.state`, declared once for Koa (module augmentation),
 * so handlers read `ctx.state.principal` without a cast. Who sets what:
 * - `requestId`, `log`: request-context (every request);
 * - `requestAuth`: the first of auth/rate-limit to need the request's credentials;
 * - `principal`, `sessionId`, `operation`: the route's guard (middlewares/auth.ts). A route
 *   without a guard (health, webhook deliveries) must not read them;
 * - `input`: validate() (http/validate.ts), typed per route by the schema it was given;
 * - `mcpRefusal`: the /mcp route, for a rate-limit refusal answered inside JSON-RPC.
 */
import type { Logger } from '../logger';
import type { Principal } from '../auth/principal';
import type { Operation } from '../auth/permissions';
import type { RateLimitError } from '../errors';
import type { RequestAuth } from './middlewares/auth';

declare module 'koa' {
  interface DefaultState {
    requestId: string;
    log?: Logger;
    requestAuth?: RequestAuth;
    principal: Principal;
    sessionId?: string;
    operation?: Operation;
    mcpRefusal?: RateLimitError;
  }
}

export {};
