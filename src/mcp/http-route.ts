/**
 * `/mcp`: MCP over Streamable HTTP, stateless. Each POST gets a fresh McpServer and
 * transport (no session affinity, so any instance can answer any request), built with the
 * request's principal inside its backend. The chain reads like the API's: authenticate
 * (required only when API_KEY is set), parse, rate limit, serve.
 *
 * Differences from the JSON API, because MCP clients speak JSON-RPC: a malformed body is a
 * JSON-RPC parse error, GET/DELETE are JSON-RPC 405s (there are no sessions to stream or
 * end), and a `tools/call` over the rate limit is answered as a tool result with
 * `isError` (the model reads why and what to do) instead of an HTTP 429.
 */
import Router from '@koa/router';
import bodyParser from 'koa-bodyparser';
import type { Context, Middleware, Next } from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Ports } from '../ports';
import { guard, requestAuth } from '../http/middlewares/auth';
import { rateLimit, rateLimitRefusal } from '../http/middlewares/rate-limit';
import { RateLimitError } from '../errors';
import { inProcessBackend } from './backends/in-process';
import { createMcpServer } from './server';
import { validate } from '../http/validate';
import { MAX_MCP_BATCH, mcpOtherMethods, mcpSchema } from './http-schema';

/** A JSON-RPC error outside any request (the transport-level shape the SDK uses too). */
function sendJsonRpcError(ctx: Context, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  ctx.set(headers);
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}

export { MAX_MCP_BATCH };

/** How many tool calls a JSON-RPC message (or batch) makes. */
export function toolCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call').length;
}

/** True when a JSON-RPC message (or batch) calls a tool. */
export function callsTool(body: unknown): boolean {
  return toolCalls(body) > 0;
}

/** Parses the JSON body; a malformed one is answered with a JSON-RPC parse error (400). */
function parseJsonRpcBody(): Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: '4mb', strict: true });
  return async function parseJsonRpcBodyMiddleware(ctx, next) {
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 413) return sendJsonRpcError(ctx, 413, -32000, 'Request body too large.');
      if (status !== undefined && status >= 400 && status < 500) return sendJsonRpcError(ctx, 400, -32700, 'Parse error: Invalid JSON');
      throw error;
    }
    if (!parsed) return;
    if (Array.isArray(ctx.request.body) && ctx.request.body.length > MAX_MCP_BATCH) {
      return sendJsonRpcError(ctx, 400, -32600, `Invalid Request: a batch holds at most ${MAX_MCP_BATCH} messages; send the rest in further requests.`);
    }
    await next();
  };
}

/** What `rateLimitToolCalls` reaches (ports.ts). */
export type RateLimitToolCallsPorts = Pick<Ports, 'authenticator' | 'config' | 'rateLimiter' | 'settings' | 'trustedProxy'>;

/**
 * The API's rate-limit middleware, except that a refused `tools/call` is let through with
 * the refusal recorded, for the tools to answer with it. Other MCP messages over the limit
 * (initialize, tools/list) get the API's 429. The request counts once; each further tool
 * call of a batch counts once more, so a batch costs what its calls would cost alone (when
 * they do not all fit, every call of the batch is answered with the refusal).
 */
function rateLimitToolCalls(services: RateLimitToolCallsPorts, limit: Middleware): Middleware {
  return async function rateLimitToolCallsMiddleware(ctx: Context, next: Next) {
    let admitted = false;
    try {
      await limit(ctx, async () => {
        admitted = true;
        const auth = requestAuth(services, ctx);
        for (let extra = toolCalls(ctx.request.body) - 1; extra > 0; extra--) {
          const decision = await services.rateLimiter.hit('standard', auth.identity, auth.tier);
          if (!decision.allowed) {
            ctx.state.mcpRefusal = rateLimitRefusal(decision, auth.tier);
            break;
          }
        }
        await next();
      });
    } catch (error) {
      if (admitted || !(error instanceof RateLimitError) || !callsTool(ctx.request.body)) throw error;
      ctx.state.mcpRefusal = error;
      await next();
    }
  };
}

/** What `mcpRoutes` reaches (ports.ts). */
export type McpRoutesPorts = Pick<
  Ports,
  | 'authenticator'
  | 'catalogIndex'
  | 'config'
  | 'embeddings'
  | 'libraries'
  | 'log'
  | 'policies'
  | 'projects'
  | 'rateLimiter'
  | 'settings'
  | 'snippets'
  | 'trustedProxy'
  | 'usage'
>;

export function mcpRoutes(services: McpRoutesPorts): Router {
  const router = new Router();

  router.post(
    'mcp.call',
    '/mcp',
    guard(services),
    parseJsonRpcBody(),
    rateLimitToolCalls(services, rateLimit(services, { class: 'standard' })),
    validate(mcpSchema),
    async function serveMcp(ctx) {
      const log = ctx.state.log ?? services.log;
      // The session's project: MCP clients set headers per server, so a project is one header away.
      const project = ctx.get('x-shelfmark-project').trim();
      const backend = inProcessBackend(services, ctx.state.principal, {
        refusal: ctx.state.mcpRefusal,
        ...(project ? { projectId: project.slice(0, 40) } : {}),
      });
      const server = createMcpServer(backend, { log });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      ctx.respond = false; // the transport writes the response
      ctx.res.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
      } catch (error) {
        log.error({ err: error }, 'MCP request failed');
        if (!ctx.res.headersSent) {
          ctx.res.writeHead(500, { 'Content-Type': 'application/json' });
          ctx.res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error.' }, id: null }));
        } else if (!ctx.res.writableEnded) {
          ctx.res.end();
        }
      }
    },
  );

  // Stateless: no server-to-client stream to open (GET) and no session to end (DELETE).
  router.all('mcp.call', '/mcp', validate(mcpOtherMethods), async function mcpMethodNotAllowed(ctx) {
    sendJsonRpcError(ctx, 405, -32000, 'Method not allowed.', { Allow: 'POST' });
  });

  return router;
}
