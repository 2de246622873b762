/**
 * `/v2/openapi.json`, generated: every route of the app's route table contributes the
 * contract its validate() middleware checks (http/validate.ts, the folders' schema.ts), and
 * its chain says the rest — a guard means 401/403 and the security schemes of its
 * operation (auth/permissions.ts), a rate limit means 429 with Retry-After and RateLimit-*,
 * a body means 400/413. @asteasolutions/zod-to-openapi turns the zod schemas into JSON
 * Schema, so the published constraints are the checked ones.
 *
 * `undocumentedRoutes()` lists routes without a schema; the document test fails on any.
 */
import type Koa from 'koa';
import type { Layer, Router } from '@koa/router';
import { z } from 'zod';
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ERROR_CODES, STATUS_OF_CODE, type ErrorCode } from '../errors';
import { isOperation, ruleOf } from '../auth/permissions';
import { schemaOf, type RouteSchema } from './validate';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** `{ error, message }` and the structured details some codes carry beside them (errors.ts). */
export const errorBody = z
  .object({
    error: z.enum(ERROR_CODES),
    message: z.string(),
    field: z.string().optional().openapi({ description: 'validation_error, payload_too_large: the request field at fault' }),
    libraryId: z.string().optional().openapi({ description: 'tag_not_found: the library asked for' }),
    availableVersions: z.array(z.string()).optional().openapi({ description: 'tag_not_found: the versions that exist' }),
    nearest: z.string().nullable().optional().openapi({ description: 'tag_not_found: the version nearest to the one asked for' }),
    nearestSections: z
      .array(z.string())
      .optional()
      .openapi({ description: 'no_snippets_found: the sections nearest to the question, though none is relevant to it' }),
    suggestions: z.array(z.string()).optional().openapi({ description: 'no_libraries_found: library ids with a similar name' }),
    hiddenByPolicy: z
      .array(z.string())
      .optional()
      .openapi({ description: "no_libraries_found: libraries whose name matches but the caller's team policy hides" }),
    retryAfter: z.number().int().optional().openapi({ description: 'rate_limit_exceeded: seconds until a retry can pass' }),
    store: z.enum(['elasticsearch', 'mongodb']).optional().openapi({ description: 'service_unavailable: the store that did not answer' }),
  })
  .openapi('Error');

const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed in the window', schema: { type: 'integer' as const } },
  'RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' as const } },
  'RateLimit-Reset': { description: 'When the window resets (Unix time, seconds)', schema: { type: 'integer' as const } },
};

interface RouteEntry {
  method: Method;
  path: string;
  name: string;
  schema: RouteSchema | undefined;
  guarded: boolean;
  rateLimited: boolean;
}

/** The app's routes, once each (the /api/v2 mount repeats /v2 and is left out). */
export function routeTable(app: Koa): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const mw of app.middleware as Array<{ router?: Router }>) {
    for (const layer of (mw.router?.stack ?? []) as Layer[]) {
      if (typeof layer.path !== 'string' || layer.path.startsWith('/api/v2/')) continue;
      const names = layer.stack.map((fn) => fn.name);
      for (const m of layer.methods) {
        if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) continue;
        entries.push({
          method: m.toLowerCase() as Method,
          path: layer.path.replace(/:(\w+)/g, '{$1}'),
          name: layer.name ?? '',
          schema: layer.stack.map(schemaOf).find((s) => s !== undefined),
          guarded: names.includes('guardMiddleware'),
          rateLimited: names.some((n) => /^rateLimit/.test(n)),
        });
      }
    }
  }
  return entries;
}

/** Routes without a declared contract (`METHOD /path`). */
export function undocumentedRoutes(app: Koa): string[] {
  return routeTable(app)
    .filter((r) => !r.schema)
    .map((r) => `${r.method.toUpperCase()} ${r.path}`);
}

const documents = new WeakMap<Koa, unknown>();

/** The app's document, generated once. */
export function openApiDocumentOf(app: Koa): unknown {
  let doc = documents.get(app);
  if (!doc) {
    doc = buildOpenApiDocument(routeTable(app));
    documents.set(app, doc);
  }
  return doc;
}

export function buildOpenApiDocument(routes: RouteEntry[]): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.register('Error', errorBody);
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (smk_...), from the dashboard under API keys',
  });
  registry.registerComponent('securitySchemes', 'apiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'The same key for MCP clients (also accepted as SHELFMARK_API_KEY)',
  });
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'shelfmark_session',
    description: "The dashboard's session (unsafe methods also need X-CSRF-Token)",
  });
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (!route.schema || seen.has(key)) continue;
    seen.add(key);
    registry.registerPath(operation(route, route.schema));
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Shelfmark API',
      version: '2.0.0',
      description:
        'Context7-compatible library documentation API, also mounted under /api/v2. Errors are { error, message } with the codes of the Error schema, and for some codes structured details beside them (availableVersions, retryAfter, field…). A JSON body over 1 MB answers 413 payload_too_large.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { apiKeyHeader: [] }, { session: [] }],
  });
}

function operation(route: RouteEntry, schema: RouteSchema): RouteConfig {
  const rule = isOperation(route.name) ? ruleOf(route.name) : undefined;
  const keyed = [{ bearer: [] }, { apiKeyHeader: [] }, { session: [] }];
  const security = !route.guarded || rule?.audience === 'anyone' ? [{}, ...keyed] : rule?.anonymous ? [...keyed, {}] : keyed;
  const hasBody = schema.body !== undefined || schema.documentedBody !== undefined || schema.multipart !== undefined || schema.rawBody !== undefined;
  const codes = new Set<ErrorCode>(schema.errors ?? []);
  if (schema.params || schema.query || hasBody) codes.add('validation_error');
  if (route.method !== 'get' && route.method !== 'delete') codes.add('validation_error').add('payload_too_large'); // the JSON body parser
  if (route.guarded) codes.add('invalid_api_key').add('forbidden');
  if (route.rateLimited) codes.add('rate_limit_exceeded');
  codes.add('internal_error');

  const responses: Record<string, ResponseConfig> = {};
  const ok = String(schema.status ?? 200);
  responses[ok] = {
    description: Number(ok) >= 300 ? schema.summary : 'OK',
    content: success(schema),
    ...(route.rateLimited ? { headers: rateLimitHeaders } : {}),
  };
  for (const [status, r] of Object.entries(schema.responses ?? {})) {
    responses[status] = { description: r.description, ...(r.schema ? { content: { 'application/json': { schema: r.schema } } } : {}) };
  }
  for (const status of [...new Set([...codes].map((c) => STATUS_OF_CODE[c]))].sort()) {
    if (responses[String(status)]) continue;
    const named = [...codes].filter((c) => STATUS_OF_CODE[c] === status);
    responses[String(status)] = {
      description: named.join(', '),
      content: { 'application/json': { schema: errorBody } },
      ...(status === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } }, ...rateLimitHeaders } } : {}),
    };
  }
  // Node answers a request line and headers over its limit (16 KB) itself, without a body.
  responses['431'] = { description: 'The URL and headers are larger than the server accepts (16 KB)' };
  responses.default = {
    description: 'Any other error (e.g. 503 service_unavailable when a store does not answer)',
    content: { 'application/json': { schema: errorBody } },
  };
  if (schema.errorResponse) {
    for (const r of Object.values(responses))
      if (r.content?.['application/json']?.schema === errorBody) r.content['application/json'] = { schema: schema.errorResponse };
  }

  return {
    method: route.method,
    path: route.path,
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: schema.summary,
    tags: [schema.tag],
    security,
    request: {
      ...(schema.params ? { params: schema.params } : {}),
      ...(schema.query ? { query: schema.query } : {}),
      ...(schema.body ? { body: { required: true, content: { 'application/json': { schema: schema.body } } } } : {}),
      ...(schema.documentedBody ? { body: { required: true, content: { 'application/json': { schema: schema.documentedBody } } } } : {}),
      ...(schema.multipart ? { body: { required: true, content: { 'multipart/form-data': { schema: schema.multipart } } } } : {}),
      ...(schema.rawBody ? { body: { required: true, content: { [schema.rawBody]: { schema: z.string().openapi({ format: 'binary' }) } } } } : {}),
    },
    responses,
  };
}

function success(schema: RouteSchema): NonNullable<ResponseConfig['content']> {
  if (schema.responseType) return { [schema.responseType]: { schema: z.string().openapi({ format: 'binary' }) } };
  const json = { schema: schema.response ?? z.object({}).passthrough() };
  return schema.text ? { 'text/plain': { schema: z.string() }, 'application/json': json } : { 'application/json': json };
}
