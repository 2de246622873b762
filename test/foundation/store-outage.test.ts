import test from 'ava';
import { startTcpProxy, type TcpProxy } from '../tcp-proxy';
import { createTestApp, ensureStores, type TestApp } from '../harness';
import { loadConfig } from '../../src/config';
import { seedLibrary, testLibrary } from '../helpers';

// Each store is reached through its own loopback proxy, so "stopping" it here refuses
// connections exactly like a dead server, while other test files keep their stores.
let app: TestApp;
let esProxy: TcpProxy;
let mongoProxy: TcpProxy;

test.before(async () => {
  ensureStores();
  const base = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const es = new URL(base.elasticsearchUrl);
  const mongo = new URL(base.mongodbUri);
  esProxy = await startTcpProxy(es.hostname, Number(es.port || 9200));
  mongoProxy = await startTcpProxy(mongo.hostname, Number(mongo.port || 27017));
  app = await createTestApp({
    ELASTICSEARCH_URL: `http://127.0.0.1:${esProxy.port}`,
    MONGODB_URI: `mongodb://127.0.0.1:${mongoProxy.port}/`,
    STORE_TIMEOUT_MS: '1000',
  });
});

test.after.always(async () => {
  await esProxy?.start().catch(() => undefined);
  await mongoProxy?.start().catch(() => undefined);
  await app?.close();
  await esProxy?.close();
  await mongoProxy?.close();
});

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

test.serial('Elasticsearch down: /healthz is 503 naming it, promptly; recovers by itself', async (t) => {
  // A library whose context query must reach Elasticsearch.
  await app.services.libraries.ensure(testLibrary('/a/b', { title: 'b' }));
  await app.services.libraries.publishVersion(
    '/a/b',
    {
      version: 'latest',
      ref: 'main',
      tags: [],
      commit: 'c',
      generation: 1,
      state: 'finalized',
      totalSnippets: 0,
      totalTokens: 0,
      benchmarkScore: 0,
      lastUpdateDate: new Date(),
    },
    {},
  );
  await esProxy.stop();
  const started = Date.now();
  const res = await app.request.get('/healthz');
  t.is(res.status, 503);
  t.is(res.body.elasticsearch, 'down');
  t.is(res.body.mongodb, 'up');
  t.regex(res.body.message, /elasticsearch/);
  t.true(Date.now() - started < 3000, 'answers within the store timeout');

  const apiStarted = Date.now();
  const api = await app.request.get('/v2/context').query({ libraryId: '/a/b', query: 'x' });
  t.is(api.status, 503);
  t.is(api.body.error, 'service_unavailable');
  t.regex(api.body.message, /Elasticsearch is unavailable/);
  const search = await app.request.get('/v2/libs/search').query({ libraryName: 'koa', query: 'cookies' });
  t.true([503, 404].includes(search.status));
  t.truthy(search.body.error);
  t.true(Date.now() - apiStarted < 6000, 'API routes answer promptly (no hang)');

  await esProxy.start();
  t.true(await waitFor(async () => (await app.request.get('/healthz')).status === 200, 15_000));
});

test.serial('MongoDB down: /healthz is 503 naming it, promptly; recovers by itself', async (t) => {
  await mongoProxy.stop();
  const started = Date.now();
  const res = await app.request.get('/healthz');
  t.is(res.status, 503);
  t.is(res.body.mongodb, 'down');
  t.is(res.body.elasticsearch, 'up');
  t.true(Date.now() - started < 3000);

  const apiStarted = Date.now();
  const api = await app.request.get('/v2/context').query({ libraryId: '/a/b', query: 'x' });
  t.is(api.status, 503);
  t.is(api.body.error, 'service_unavailable');
  t.regex(api.body.message, /MongoDB is unavailable/);
  t.true(Date.now() - apiStarted < 6000, 'API routes answer promptly (no hang)');

  await mongoProxy.start();
  t.true(await waitFor(async () => (await app.request.get('/healthz')).status === 200, 20_000));
});

/** Waits until the background probes have marked `store` down (or up). */
async function monitorSays(store: 'mongodb' | 'elasticsearch', status: 'up' | 'down', ms = 10_000): Promise<boolean> {
  return waitFor(async () => app.lifecycle.monitor.reading(store)?.status === status, ms);
}

test.serial(
  'MongoDB hanging (it accepts connections, answers nothing, as a wedged FerretDB answers no query): once known down, requests fail fast',
  async (t) => {
    await mongoProxy.hang();
    t.true(await monitorSays('mongodb', 'down'), 'the probes notice reads that do not answer');
    const health = await app.request.get('/healthz');
    t.is(health.status, 503);
    t.is(health.body.mongodb, 'down');
    const started = Date.now();
    const api = await app.request.get('/v2/libs/search').query({ libraryName: 'anything' });
    const elapsed = Date.now() - started;
    t.is(api.status, 503);
    t.is(api.body.error, 'service_unavailable');
    t.true(elapsed < 300, `answered in ${elapsed} ms, not after the ${app.services.config.storeTimeoutMs} ms store timeout`);
    await mongoProxy.start();
    t.true(await monitorSays('mongodb', 'up'), 'reads answer again');
    t.true(await waitFor(async () => (await app.request.get('/v2/libs/search').query({ libraryName: 'anything' })).status !== 503, 20_000));
  },
);

test.serial('Elasticsearch refusing connections: once known down, context fails fast with 503', async (t) => {
  await esProxy.stop();
  t.true(await monitorSays('elasticsearch', 'down'));
  const started = Date.now();
  const api = await app.request.get('/v2/context').query({ libraryId: '/a/b', query: 'x' });
  t.is(api.status, 503);
  t.is(api.body.error, 'service_unavailable');
  t.true(Date.now() - started < 300);
  await esProxy.start();
  t.true(await monitorSays('elasticsearch', 'up'));
});

test.serial('Elasticsearch answering 503 (no shard available) is a 503, not a 500', async (t) => {
  await seedLibrary(app, '/shard/lib', { 'docs/a.md': '# Shard\n\n## Widgets\n\nWidgets are made like this.\n\n```js\nwidget()\n```\n' });
  // Point the snippets alias at an index whose only shard cannot be allocated: every search
  // then fails with no_shard_available_action_exception, HTTP 503 (as while a node starts).
  const es = app.handles.es;
  const { alias, physical } = app.services.snippets;
  const unassigned = `${app.services.config.indexPrefix}-unassigned`;
  await es.indices.create(
    { index: unassigned, settings: { number_of_replicas: 0, 'index.routing.allocation.require._name': 'no-such-node' }, wait_for_active_shards: 0 },
    { ignore: [400] },
  );
  await es.indices.updateAliases({ actions: [{ remove: { index: physical, alias } }, { add: { index: unassigned, alias } }] });
  try {
    const res = await app.request.get('/v2/context').query({ libraryId: '/shard/lib', query: 'widgets' });
    t.is(res.status, 503, JSON.stringify(res.body));
    t.is(res.body.error, 'service_unavailable');
  } finally {
    await es.indices.updateAliases({ actions: [{ remove: { index: unassigned, alias } }, { add: { index: physical, alias, is_write_index: true } }] });
    await es.indices.delete({ index: unassigned });
  }
  t.true(await waitFor(async () => (await app.request.get('/v2/context').query({ libraryId: '/shard/lib', query: 'widgets' })).status === 200, 15_000));
});
