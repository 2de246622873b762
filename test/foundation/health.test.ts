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

test('a main thread busy for seconds does not make a healthy store look down (the reads run in their own thread)', async (t) => {
  const { monitor } = t0.lifecycle;
  const downs: string[] = [];
  const watch = setInterval(() => {
    for (const store of ['mongodb', 'elasticsearch'] as const) if (monitor.reading(store)?.status === 'down') downs.push(store);
  }, 50);
  const busy = (ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      // Busy: no timer, no I/O callback runs on this thread meanwhile.
    }
  };
  // Three times, letting only the timers run between (a due probe starts, its answer is not
  // read yet): a read timed on this thread would count each block as a read that did not
  // answer in time, and close the gate after two.
  for (let i = 0; i < 3; i++) {
    busy(4000);
    await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setTimeout(r, 3000));
  clearInterval(watch);
  t.deepEqual(downs, []);
  const fresh = await monitor.check();
  t.true((fresh.mongodb.latencyMs ?? Infinity) < 1000 && (fresh.elasticsearch.latencyMs ?? Infinity) < 1000, JSON.stringify(fresh));
});
