/** With the global API_KEY set, /mcp needs a key like every other endpoint; /ping stays open. */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';

const API_KEY = 'global-test-key-0123456789';
let app: TestApp;

test.before(async () => {
  app = await createTestApp({ API_KEY });
});

test.after.always(async () => {
  await app?.close();
});

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

test('without a key /mcp is 401 invalid_api_key', async (t) => {
  const res = await app.request.post('/mcp').set('Accept', 'application/json, text/event-stream').send(listTools);
  t.is(res.status, 401);
  t.is(res.body.error, 'invalid_api_key');
});

test('the global key is accepted in SHELFMARK_API_KEY and as a bearer token', async (t) => {
  for (const [name, value] of [
    ['SHELFMARK_API_KEY', API_KEY],
    ['Authorization', `Bearer ${API_KEY}`],
  ]) {
    const res = await app.request.post('/mcp').set('Accept', 'application/json, text/event-stream').set(name, value).send(listTools);
    t.is(res.status, 200, name);
    t.is(res.body.result.tools.length, 6, name);
  }
});

test('/ping needs no key', async (t) => {
  const res = await app.request.get('/ping');
  t.is(res.status, 200);
});
