/**
 * The OpenAPI source behind the Source port: a real worker runs the generic build
 * (pipeline/build.ts, runBuild) over an uploaded specification on the real stores, after an
 * upload made the library — a changed spec is published as a new generation with its new
 * operation, the same spec again writes nothing, and a broken one fails the job with
 * validation_error while the served generation stays.
 *
 * No job kind names an OpenAPI rebuild yet (the upload does not keep its spec), so the
 * worker here is given the source directly; the job's params are not read.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, testJobParams } from '../helpers';
import { Worker } from '../../src/indexing/jobs/worker';
import { runBuild } from '../../src/indexing/pipeline/build';
import { openApiSource, type OpenApiSpec } from '../../src/indexing/sources/openapi-source';
import type { IndexingDeps } from '../../src/indexing/pipeline/deps';

let app: TestApp;
let key: string;
let deps: IndexingDeps;

const spec = (extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      openapi: '3.0.0',
      info: { title: 'Source Pets', version: '2.0.0' },
      servers: [{ url: 'https://pets.example.com/v1' }],
      paths: {
        '/pets': { get: { summary: 'List all pets', operationId: 'listPets', responses: { '200': { description: 'ok' } } } },
        ...extra,
      },
    }),
  );
const TOYS = {
  '/pets/{petId}/toys': {
    post: {
      summary: 'Give a pet a squeaky toy',
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '201': { description: 'given' } },
    },
  },
};
const LIB = '/openapi/source-pets';

test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off', RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  key = await adminKey(app);
  const s = app.services;
  deps = {
    config: s.config,
    log: s.log,
    store: s.snippets,
    libraries: s.libraries,
    manifests: s.manifests,
    decryptToken: () => '',
    enqueueVersions: async () => [],
  };
  const res = await app.request
    .post('/v2/add/openapi-upload')
    .set('authorization', `Bearer ${key}`)
    .field('public', 'true')
    .attach('openapiFile', spec(), 'spec.json');
  if (res.status !== 200) throw new Error(`upload failed: ${JSON.stringify(res.body)}`);
});
test.after.always(async () => {
  await app?.close();
});

/** Runs one refresh of the library through runBuild with the OpenAPI source; returns the finished job. */
async function rebuild(source: OpenApiSpec) {
  const lib = await app.services.libraries.findCopy(LIB, null, { fresh: true });
  if (!lib) throw new Error('the uploaded library is missing');
  const job = await app.services.jobs.enqueue({ kind: 'refresh', libraryId: lib._id, version: 'latest', params: testJobParams() });
  const worker = new Worker({
    queue: app.services.jobs,
    log: app.services.log,
    leaseMs: 10_000,
    concurrency: 1,
    pollMs: 50,
    handler: (ctx) => runBuild(ctx, deps, openApiSource(source)),
  });
  worker.start();
  try {
    return await app.services.jobs.waitFor(job._id, 30_000);
  } finally {
    await worker.stop();
  }
}

const context = (query: string) => app.request.get('/v2/context').query({ libraryId: LIB, query, type: 'json' });

test.serial('a changed spec is built by runBuild: its new operation is served, with its tag and link', async (t) => {
  const before = await app.services.libraries.findCopy(LIB, null, { fresh: true });
  const done = await rebuild({ file: spec(TOYS), fileName: 'spec.json' });
  t.is(done?.state, 'finalized', JSON.stringify(done?.log));
  const after = await app.services.libraries.findCopy(LIB, null, { fresh: true });
  const latest = after?.versions.find((v) => v.version === 'latest');
  t.true((latest?.generation ?? 0) > (before?.versions[0]?.generation ?? 0), 'a new generation');
  t.deepEqual(latest?.tags, ['2.0.0']);
  const ctx = await context('give a pet a squeaky toy');
  t.is(ctx.status, 200);
  t.regex(ctx.body.snippets[0].title, /^POST \/pets\/\{petId\}\/toys/);
  t.regex(JSON.stringify(ctx.body), /openapi:\/openapi\/source-pets\/spec\.json#L\d+/);
  t.regex(JSON.stringify(await context('list all pets').then((r) => r.body)), /GET \/pets/, 'the unchanged operation is still served');
});

test.serial('the same spec again writes nothing', async (t) => {
  const before = await app.services.libraries.findCopy(LIB, null, { fresh: true });
  const done = await rebuild({ file: spec(TOYS), fileName: 'spec.json' });
  t.is(done?.state, 'finalized');
  t.true(
    (done?.log ?? []).some((l) => /nothing written/.test(l.message)),
    JSON.stringify(done?.log),
  );
  const after = await app.services.libraries.findCopy(LIB, null, { fresh: true });
  t.is(after?.versions[0]?.generation, before?.versions[0]?.generation);
});

test.serial('a broken spec fails the job with validation_error; the served generation stays', async (t) => {
  const before = await app.services.libraries.findCopy(LIB, null, { fresh: true });
  const done = await rebuild({ file: Buffer.from('{"openapi": "3.0.0", "info": '), fileName: 'spec.json' });
  t.is(done?.state, 'failed');
  t.is(done?.errorCode, 'validation_error');
  t.regex(done?.error ?? '', /^openapiFile/);
  const after = await app.services.libraries.findCopy(LIB, null, { fresh: true });
  t.is(after?.versions[0]?.generation, before?.versions[0]?.generation);
  t.regex((await context('give a pet a squeaky toy')).body.snippets[0].title, /toys/);
});
