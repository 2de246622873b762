/**
 * Elasticsearch refusing a query the service built is the service's defect, not the
 * client's: it answers 500 and logs the cause (a 400 "Invalid request." with nothing logged
 * hid the empty `filters` aggregation of term statistics for a whole release). Real
 * Elasticsearch, real Koa app with the error funnel.
 */
import { PassThrough } from 'node:stream';
import test from 'ava';
import Koa from 'koa';
import Router from '@koa/router';
import request from 'supertest';
import { errorFunnel, toAppError } from '../../src/error-funnel';
import { createLogger } from '../../src/logger';
import { createEsClient, EsStatusError } from '../../src/search/client';
import { testConfig } from '../harness';

const config = testConfig();
const es = createEsClient(config.elasticsearchNodes, config.storeTimeoutMs);
test.after.always(() => es.close());

/** A search Elasticsearch refuses with a 400, as an empty `filters` aggregation was. */
const refused = () =>
  es.search({ index: `${config.indexPrefix}-nothing*`, size: 0, aggs: { terms: { filters: { filters: {} } } } } as Parameters<typeof es.search>[0]);

test("a query Elasticsearch refuses answers 500 with the cause logged, not the client's 400", async (t) => {
  const thrown = await t.throwsAsync(refused());
  t.is((thrown as unknown as { statusCode: number }).statusCode, 400, 'Elasticsearch itself answered 400');

  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const koa = new Koa();
  koa.use(errorFunnel({ log: createLogger('error', stream) }));
  const router = new Router();
  router.get('/search', async (ctx) => {
    ctx.body = await refused();
  });
  koa.use(router.routes());

  const res = await request(koa.callback()).get('/search');
  t.is(res.status, 500);
  t.deepEqual(res.body, { error: 'internal_error', message: 'Internal server error.' });
  await new Promise((resolve) => setImmediate(resolve));
  const logged = lines.map((l) => JSON.parse(l) as { msg: string; code: string; err?: { message?: string } });
  t.true(
    logged.some((l) => l.msg === 'request failed' && l.code === 'internal_error' && /filters/.test(l.err?.message ?? '')),
    `the cause is logged: ${lines.join('\n')}`,
  );
});

test("the hot path's own refusals count the same; an unavailable cluster stays a 503", (t) => {
  t.is(toAppError(new EsStatusError(400, 'Elasticsearch answered 400 to a search')).status, 500);
  t.is(toAppError(new EsStatusError(404, 'Elasticsearch answered 404 to a search')).status, 500);
  t.is(toAppError(new EsStatusError(503, 'Elasticsearch answered 503 to a search')).status, 503);
  t.is(toAppError(new EsStatusError(429, 'Elasticsearch answered 429 to a search')).status, 503);
  const parse = Object.assign(new Error('Unexpected token } in JSON at position 3'), { status: 400, type: 'entity.parse.failed', expose: true });
  t.is(toAppError(parse).status, 400, "a client's malformed body is still its own fault");
});
