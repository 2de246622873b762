import test from 'ava';
import Koa from 'koa';
import { Router } from '@koa/router';
import bodyParser from 'koa-bodyparser';
import request from 'supertest';
import { z } from 'zod';
import { errorFunnel } from '../error-funnel';
import { createLogger } from '../logger';
import { query, schemaOf, validate } from './validate';
import { ForbiddenError } from '../errors';

/** A real Koa app with one validated route that echoes what its handler received. */
function app() {
  const koa = new Koa();
  koa.use(errorFunnel({ log: createLogger('silent') }));
  koa.use(bodyParser());
  const router = new Router();
  const schema = {
    summary: 'echo',
    tag: 'Test',
    params: z.object({ id: z.string().min(2) }),
    query: z.object({ q: query.requiredText(), days: query.int(1, 90, 30), type: query.oneOf(['txt', 'json'] as const, 'txt') }),
    body: z.object({ name: z.string().trim().min(1), tags: z.array(z.string()).optional() }).strict(),
  };
  const checked = validate(schema);
  router.post('echo', '/echo/:id', checked, (ctx) => {
    const { params, query: q, body } = ctx.state.input;
    ctx.body = { id: params.id, q: q.q, days: q.days, type: q.type, name: body.name };
  });
  koa.use(router.routes());
  return { server: request(koa.callback()), checked, schema };
}

test('valid input reaches the handler parsed: trimmed, defaulted, converted', async (t) => {
  const res = await app().server.post('/echo/ab?q=%20hello%20&days=7').send({ name: ' x ' });
  t.is(res.status, 200);
  t.deepEqual(res.body, { id: 'ab', q: 'hello', days: 7, type: 'txt', name: 'x' });
});

test('each kind of bad input is 400 validation_error with a message naming the field', async (t) => {
  const { server } = app();
  const cases: Array<[string, object, RegExp]> = [
    ['/echo/ab', { name: 'x' }, /^q is required\.$/],
    ['/echo/ab?q=%20', { name: 'x' }, /^q is required\.$/],
    ['/echo/ab?q=a&q=b', { name: 'x' }, /^q must be given once\.$/],
    ['/echo/ab?q=a&days=0', { name: 'x' }, /^days must be a whole number from 1 to 90\.$/],
    ['/echo/ab?q=a&days=ten', { name: 'x' }, /^days must be a whole number from 1 to 90\.$/],
    ['/echo/ab?q=a&type=xml', { name: 'x' }, /^type must be txt or json\.$/],
    ['/echo/a?q=a', { name: 'x' }, /^id: /],
    ['/echo/ab?q=a', {}, /^name is required\.$/],
    ['/echo/ab?q=a', { name: 'x', extra: 1 }, /^Unknown field "extra"\.$/],
    ['/echo/ab?q=a', { name: 'x', tags: [1] }, /^tags\.0: expected string, received number\.$/],
  ];
  for (const [url, body, message] of cases) {
    const res = await server.post(url).send(body);
    t.is(res.status, 400, url);
    t.is(res.body.error, 'validation_error', url);
    t.regex(res.body.message, message, `${url} ${JSON.stringify(body)}`);
  }
});

test('the middleware remembers its schema for the OpenAPI generator', (t) => {
  const { checked, schema } = app();
  t.is(schemaOf(checked), schema);
  t.is(
    schemaOf(() => undefined),
    undefined,
  );
});

test('the body is checked when the handler reads it: a refusal the handler makes first wins', async (t) => {
  const koa = new Koa();
  koa.use(errorFunnel({ log: createLogger('silent') }));
  koa.use(bodyParser());
  const router = new Router();
  router.post('probe', '/p', validate({ summary: 'p', tag: 'T', query: z.object({ who: query.text() }), body: z.object({ n: z.number() }) }), (ctx) => {
    if (ctx.state.input.query.who !== 'owner') throw new ForbiddenError('owners only');
    ctx.body = { n: ctx.state.input.body.n };
  });
  koa.use(router.routes());
  const server = request(koa.callback());
  t.is((await server.post('/p?who=guest').send({ n: 'x' })).status, 403);
  t.is((await server.post('/p?who=owner').send({ n: 'x' })).status, 400);
  t.deepEqual((await server.post('/p?who=owner').send({ n: 2 })).body, { n: 2 });
});
