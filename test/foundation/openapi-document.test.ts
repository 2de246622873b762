import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { documentedOperations } from '../../src/http/openapi-document';

let app: TestApp;
test.before(async () => {
  app = await createTestApp();
});
test.after.always(async () => {
  await app?.close();
});

interface Layer {
  path: string;
  methods: string[];
}

test('/v2/openapi.json describes exactly the routes the app serves', async (t) => {
  const res = await app.request.get('/v2/openapi.json');
  t.is(res.status, 200);
  t.is(res.body.openapi, '3.1.0');
  const served = new Set<string>();
  for (const mw of app.app.middleware as Array<{ router?: { stack: Layer[] } }>) {
    for (const layer of mw.router?.stack ?? []) {
      if (layer.path.startsWith('/api/v2/')) continue; // the same routes, mounted twice
      const path = layer.path.replace(/:(\w+)/g, '{$1}');
      const methods = layer.path === '/mcp' ? ['POST'] : layer.methods.filter((m) => m !== 'HEAD');
      for (const m of methods) served.add(`${m} ${path}`);
    }
  }
  served.delete('GET /api/v2/openapi.json');
  const documented = new Set(documentedOperations());
  t.deepEqual([...served].filter((r) => !documented.has(r)).sort(), [], 'served but undocumented');
  t.deepEqual([...documented].filter((r) => !served.has(r)).sort(), [], 'documented but not served');
  for (const [p, ops] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) t.true(Object.keys(ops).length > 0, p);
});

test('every error code is in the Error schema, and bodies over a limit are documented as 413', async (t) => {
  const { ERROR_CODES } = await import('../../src/errors');
  const res = await app.request.get('/v2/openapi.json');
  t.deepEqual(res.body.components.schemas.Error.properties.error.enum, [...ERROR_CODES]);
  t.true(ERROR_CODES.includes('payload_too_large'));
  const upload = res.body.paths['/v2/add/openapi-upload'].post;
  t.regex(upload.responses['413'].description, /payload_too_large/);
  t.deepEqual(Object.keys(upload.requestBody.content['multipart/form-data'].schema.properties).sort(), ['description', 'force', 'libraryTitle', 'openapiFile', 'public']);
  t.truthy(res.body.paths['/v2/add/repo/{host}'].post.responses['413']);
});
