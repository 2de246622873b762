import test from 'ava';
import Koa from 'koa';
import { Router } from '@koa/router';
import { validate as validateOpenApi } from '@readme/openapi-parser';
import { createTestApp, type TestApp } from '../harness';
import { routeTable, undocumentedRoutes } from '../../src/http/openapi';
import { validate } from '../../src/http/validate';

let app: TestApp;
test.before(async () => {
  app = await createTestApp();
});
test.after.always(async () => {
  await app?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: the assertions walk the parsed JSON document freely; a wrong path fails its assertion
type Json = any;
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, unknown> };
};
type Operation = {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: Record<string, unknown> }>;
  requestBody?: Json;
  responses: Record<string, Json>;
  security?: unknown[];
};

async function document(): Promise<Doc> {
  const res = await app.request.get('/v2/openapi.json');
  if (res.status !== 200) throw new Error(`openapi.json: ${res.status}`);
  return res.body as Doc;
}

test('/v2/openapi.json describes exactly the routes the app serves, each from its schema', async (t) => {
  const doc = await document();
  t.is(doc.openapi, '3.1.0');
  t.deepEqual(undocumentedRoutes(app.app), [], 'every route has a validate() schema');
  const served = new Set(routeTable(app.app).map((r) => `${r.method.toUpperCase()} ${r.path}`));
  const documented = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
  t.deepEqual([...served].filter((r) => !documented.has(r)).sort(), [], 'served but undocumented');
  t.deepEqual([...documented].filter((r) => !served.has(r)).sort(), [], 'documented but not served');
  t.true(served.has('POST /v2/add/repo/{host}') && served.has('GET /api/v1/{owner}/{repo}/{version}') && served.has('POST /mcp'));
});

test('a route without a schema is found (the check above can fail)', (t) => {
  const koa = new Koa();
  const router = new Router();
  router.get('health.read', '/with', validate({ summary: 'has one', tag: 'T' }), (ctx) => void (ctx.body = {}));
  router.post('health.read', '/without', (ctx) => void (ctx.body = {}));
  koa.use(router.routes());
  t.deepEqual(undocumentedRoutes(koa), ['POST /without']);
});

test('the document is valid OpenAPI 3.1', async (t) => {
  const doc = await document();
  const result = await validateOpenApi(structuredClone(doc) as never);
  t.true(result.valid, JSON.stringify((result as { errors?: unknown }).errors ?? '').slice(0, 2000));
});

test('the published constraints are the checked ones: parameters, bodies, errors, 429 headers, security', async (t) => {
  const doc = await document();
  const context = doc.paths['/v2/context'].get;
  const param = (op: Operation, name: string) => op.parameters?.find((p) => p.name === name);
  t.deepEqual({ min: param(context, 'tokens')?.schema.minimum, max: param(context, 'tokens')?.schema.maximum }, { min: 100, max: 100000 });
  t.deepEqual(param(context, 'type')?.schema.enum, ['txt', 'json']);
  t.true(param(context, 'libraryId')?.required);
  t.truthy(context.responses['200'].content['text/plain']);
  t.truthy(context.responses['404'], 'library_not_found / tag_not_found documented');

  const add = doc.paths['/v2/add/repo/{host}'].post;
  t.deepEqual(param(add, 'host')?.schema.enum, ['github', 'gitlab', 'bitbucket', 'git']);
  t.deepEqual(add.requestBody.content['application/json'].schema.$ref, '#/components/schemas/AddRepoRequest');
  t.deepEqual(doc.components.schemas.AddRepoRequest.required, ['docsRepoUrl']);
  t.truthy(add.responses['413'], 'a JSON body over 1 MB');
  t.truthy(add.responses['409']);

  const limited = add.responses['429'];
  t.deepEqual(Object.keys(limited.headers).sort(), ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].sort());
  t.truthy(add.responses['200'].headers['RateLimit-Remaining']);

  const { ERROR_CODES } = await import('../../src/errors');
  t.deepEqual(doc.components.schemas.Error.properties.error.enum, [...ERROR_CODES]);
  t.truthy(doc.components.schemas.Error.properties.availableVersions);
  t.truthy(doc.components.schemas.Error.properties.retryAfter);

  const upload = doc.paths['/v2/add/openapi-upload'].post;
  t.deepEqual(Object.keys(upload.requestBody.content['multipart/form-data'].schema.properties).sort(), [
    'description',
    'force',
    'libraryTitle',
    'openapiFile',
    'public',
  ]);

  t.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKeyHeader', 'bearer', 'session']);
  t.true(
    context.security?.some((s) => Object.keys(s as object).length === 0),
    'public: anonymous allowed',
  );
  t.false(
    doc.paths['/v2/admin/users'].get.security?.some((s) => Object.keys(s as object).length === 0),
    'admin routes need a credential',
  );
  t.is(doc.paths['/v2/admin/usage'].get.parameters?.find((p) => p.name === 'days')?.schema.maximum, 90);
});

test('library ids in the documented shape are ones the server reads', async (t) => {
  const doc = await document();
  const { parseLibraryId } = await import('../../src/domain/library-ids');
  const pattern = doc.paths['/v2/context'].get.parameters?.find((p) => p.name === 'libraryId')?.schema.pattern as string;
  t.truthy(pattern);
  const re = new RegExp(pattern);
  for (const id of ['/a/b', '/vercel/next.js', '/o_1/r-2/v1.2.3', '/o/r@v2.0.0-rc.1+b', '/a/b/latest']) {
    t.true(re.test(id), id);
    t.notThrows(() => parseLibraryId(id), id);
  }
  for (const id of ['a/b', '/a', '/a/b/c/d', '/a b/c']) t.false(re.test(id), id);
});
