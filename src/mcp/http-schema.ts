/** `/mcp`'s contract for the API document: a JSON-RPC message or batch (the MCP SDK checks it). */
import { z } from 'zod';
import type { RouteSchema } from '../http/validate';
import { errorBody } from '../http/openapi';

const message = z
  .object({ jsonrpc: z.literal('2.0'), method: z.string().optional(), id: z.union([z.string(), z.number(), z.null()]).optional() })
  .passthrough();

/** A JSON-RPC error outside any request: bad JSON, a bad message, Accept without both types (the SDK's 400/406/415). */
const jsonRpcError = z
  .object({
    jsonrpc: z.literal('2.0'),
    error: z.object({ code: z.number(), message: z.string() }).passthrough(),
    id: z.union([z.string(), z.number(), z.null()]),
  })
  .openapi('JsonRpcError');

/** GET, DELETE and the rest: a JSON-RPC 405 (stateless: no stream to open, no session to end). */
export const mcpOtherMethods: RouteSchema = {
  summary: 'Not allowed on a stateless MCP server: a JSON-RPC error with Allow: POST',
  tag: 'MCP',
  status: 405,
  response: jsonRpcError,
  errorResponse: z.union([errorBody, jsonRpcError]),
};

/** Messages a JSON-RPC batch may hold (each tool call in it also counts against the rate limit). */
export const MAX_MCP_BATCH = 20;

/**
 * Documented request body (not checked by validate(): a bad message is the SDK's JSON-RPC
 * error). The batch limit is said in words: as `maxItems` it crashed schemathesis 4.32's
 * generator on this union (a Python AST recursion error, in both seeds tried).
 */
const mcpMessage = z.union([
  message,
  z
    .array(message)
    .openapi({ description: `A JSON-RPC batch: at most ${MAX_MCP_BATCH} messages (more: a -32600 error), each tool call counted against the rate limit` }),
]);

export const mcpSchema: RouteSchema = {
  documentedBody: mcpMessage,
  summary: 'MCP Streamable HTTP endpoint (JSON-RPC; key in SHELFMARK_API_KEY, Authorization or X-API-Key)',
  tag: 'MCP',
  response: z.unknown().openapi({ description: 'A JSON-RPC response (or batch)' }),
  responses: { 202: { description: 'A notification or response was accepted (no body)' } },
  errorResponse: z.union([errorBody, jsonRpcError]),
};
