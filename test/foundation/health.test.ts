import test from 'ava';
import { createTestApp, type TestApp } from '../harness';

let t0: TestApp;
test.before(async () => {
  t0 = await createTestApp();
});
test.after.always(async () => {
  await t0?.close();
});

test('GET /healthz reads each store and reports its latency; /readyz is the same, /livez touches no store', async (t) => {
  for (const path of ['/healthz', '/readyz']) {
    const res = await t0.request.get(path);
    t.is(res.status, 200);
    t.like(res.body, { status: 'ok', elasticsearch: 'up', mongodb: 'up', stores: { elasticsearch: { status: 'up' }, mongodb: { status: 'up' } } });
    for (const store of ['elasticsearch', 'mongodb']) {
      const latency = res.body.stores[store].latencyMs;
      t.true(typeof latency === 'number' && latency >= 0 && latency < 2000, `${store}: ${latency}`);
    }
    t.is(res.headers['cache-control'], 'no-store');
  }
  const live = await t0.request.get('/livez');
  t.is(live.status, 200);
  t.is(live.body.status, 'ok');
});

test('GET /ping answers pong', async (t) => {
  const res = await t0.request.get('/ping');
  t.deepEqual(res.body, { status: 'ok', message: 'pong' });
});

test('unknown routes answer JSON 404 in the error shape', async (t) => {
  const res = await t0.request.get('/no/such/route');
  t.is(res.status, 404);
  t.is(res.body.error, 'not_found');
  t.regex(res.body.message, /GET \/no\/such\/route/);
});

test('malformed JSON is a 400 validation_error', async (t) => {
  const res = await t0.request.post('/v2/add/repo/github').set('content-type', 'application/json').send('{bad');
  t.is(res.status, 400);
  t.is(res.body.error, 'validation_error');
});

test('every response carries a request id', async (t) => {
  const res = await t0.request.get('/healthz').set('x-request-id', 'abcdef123456');
  t.is(res.headers['x-request-id'], 'abcdef123456');
});
