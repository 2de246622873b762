/** The health routes' and the API document's contract (see http/validate.ts). */
import { z } from 'zod';
import type { RouteSchema } from '../validate';

const tag = 'Health';
const storeReading = z
  .object({
    status: z.enum(['up', 'down']),
    latencyMs: z.number().nullable().optional(),
    p50Ms: z.number().nullable().optional(),
    p99Ms: z.number().nullable().optional(),
    error: z.string().optional(),
  })
  .passthrough();
const health = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    elasticsearch: z.enum(['up', 'down']),
    mongodb: z.enum(['up', 'down']),
    stores: z.object({ elasticsearch: storeReading, mongodb: storeReading }),
    message: z.string().optional(),
  })
  .openapi('Health');

const readiness = (summary: string): RouteSchema => ({
  summary,
  tag,
  response: health,
  responses: { 503: { description: 'A store did not answer (named in `message`)', schema: health } },
});

export const healthSchemas = {
  healthz: readiness("Store health from real bounded reads, with each store's latency (200 when Elasticsearch and MongoDB answer, 503 naming the one down)"),
  readyz: readiness('The same as /healthz (ready to serve)'),
  livez: { summary: 'The process serves (no store I/O)', tag, response: z.object({ status: z.literal('ok'), uptimeSeconds: z.number().int() }) },
  ping: { summary: 'MCP health check: {"status":"ok","message":"pong"}', tag, response: z.object({ status: z.literal('ok'), message: z.literal('pong') }) },
  openapi: {
    summary: 'This document (OpenAPI 3.1, generated from the routes and their schemas)',
    tag,
    response: z.object({ openapi: z.string() }).passthrough(),
  },
} satisfies Record<string, RouteSchema>;
