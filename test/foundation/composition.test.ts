/**
 * The composition root (src/services.ts): its parts hand out no raw store handle, and
 * nothing in it starts the worker; the entry point does.
 */
import test from 'ava';
import mongoose from 'mongoose';
import { Client } from '@elastic/elasticsearch';
import { createTestApp, type TestApp } from '../harness';

let app: TestApp;
test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off' });
});
test.after.always(async () => {
  await app?.close();
});

/** A connection, an Elasticsearch client or a mongoose model, also one level down (`models.Job`). */
function isRawHandle(value: unknown, depth = 0): boolean {
  if (value instanceof mongoose.Connection || value instanceof Client) return true;
  if (typeof value === 'function' && value.prototype instanceof mongoose.Model) return true;
  if (depth === 0 && value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value).some((v) => isRawHandle(v, 1));
  return false;
}

test('the check recognises each kind of raw handle (it could not fail otherwise)', (t) => {
  t.true(isRawHandle(app.handles.mongo));
  t.true(isRawHandle(app.handles.es));
  t.true(isRawHandle(app.handles.models.Library));
  t.true(isRawHandle({ models: app.handles.models }.models), 'a plain object of models');
  t.false(isRawHandle(app.services.libraries));
});

test('no part of the composition holds a raw store handle (ports and lifecycle)', (t) => {
  const parts = { ...app.services, ...app.lifecycle };
  t.true(Object.keys(parts).length > 25, Object.keys(parts).join(' '));
  t.deepEqual(
    Object.entries(parts)
      .filter(([, v]) => isRawHandle(v))
      .map(([k]) => k),
    [],
  );
});

test.serial('the worker starts when the entry point starts it, once', (t) => {
  t.is(app.lifecycle.worker, undefined, 'createServices started no worker');
  const worker = app.lifecycle.startWorker();
  t.is(app.lifecycle.worker, worker);
  t.is(app.lifecycle.startWorker(), worker, 'a second call returns the running worker');
});
