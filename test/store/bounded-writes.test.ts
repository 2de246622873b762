/**
 * FerretDB 1.24 wedges for good when update commands hold 100 statements at once (one
 * SQLite connection each, until the command ends; the pool has 100): every later query of
 * that database hangs while ping still answers. These tests send the traffic that used to
 * do it and then require a read to answer within a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, seedLibrary } from '../helpers';
import { ROOT_DIR } from '../../src/config';
import { bulkUpdate, insertDocuments, MAX_INSERT_DOCUMENTS, MAX_UPDATE_STATEMENTS, rawCollection, UnboundedWriteError } from '../../src/store/bulk';
import { withTimeout } from '../../src/store/mongo';
import { UsageService } from '../../src/auth/usage';
import { UsageStore } from '../../src/store/usage-store';
import { usageDailyModel, usageQueryModel } from '../../src/store/models/usage';

let app: TestApp;
let admin: string;
test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off', RATE_LIMIT_ANON_PER_MINUTE: '100000' });
  admin = await adminKey(app);
  const page = (name: string) => `# ${name}\n\n## Widgets\n\nHow to make a widget with ${name}.\n\n\`\`\`js\nmake('${name}')\n\`\`\`\n`;
  await seedLibrary(app, '/wedge/one', { 'docs/index.md': page('one') });
  await seedLibrary(app, '/wedge/two', { 'docs/index.md': page('two') });
});
test.after.always(async () => {
  await app?.close();
});

/** A read of the metadata store, which must answer within a second. */
async function readAnswersWithinASecond(): Promise<number> {
  const started = performance.now();
  await withTimeout(app.handles.models.Library.findById('/wedge/one').lean(), 1000);
  return performance.now() - started;
}

test.serial('100 distinct anonymous questions over two libraries, then a flush and an admin read of usage: the store still answers', async (t) => {
  for (let i = 0; i < 100; i++) {
    const res = await app.request.get('/v2/context').query({ libraryId: i % 2 ? '/wedge/one' : '/wedge/two', query: `how to make a widget, take ${i}` });
    t.is(res.status, 200);
  }
  await app.services.usage.flush(); // 100 queries and 2 library-days in one flush
  const usage = await app.request.get('/v2/admin/usage?days=1').set('authorization', `Bearer ${admin}`);
  t.is(usage.status, 200);
  t.true(usage.body.totals.requests >= 100);
  t.true((await readAnswersWithinASecond()) < 1000);
  const one = await app.request.get('/v2/libs/metrics').query({ libraryId: '/wedge/one' }).set('authorization', `Bearer ${admin}`);
  t.is(one.body.totals.requests, 50);
  t.is(one.body.topQueries.length, 10);
});

test.serial('a bulk larger than the pool goes through in bounded commands, and concurrent flushes of many instances do not wedge', async (t) => {
  const coll = rawCollection(app.handles.models.Lock);
  const docs = Array.from({ length: 300 }, (_, i) => ({ _id: `bulk-${i}`, holder: 'test', at: new Date(), data: { n: 0 } }));
  t.is(await insertDocuments(coll, docs), 300);
  const result = await bulkUpdate(
    coll,
    docs.map((d) => ({ updateOne: { filter: { _id: d._id }, update: { $inc: { 'data.n': 1 } } } })),
  );
  t.is(result.matchedCount, 300);
  t.true((await readAnswersWithinASecond()) < 1000);

  // Twelve instances flush 40 new queries each at the same moment (480 statements, where
  // twelve concurrent commands of 40 used to hold every connection).
  const { mongo } = app.handles;
  const { log } = app.services;
  const instances = Array.from({ length: 12 }, () => new UsageService(new UsageStore(usageDailyModel(mongo), usageQueryModel(mongo)), log, 60_000));
  for (const [i, usage] of instances.entries()) {
    for (let q = 0; q < 40; q++) usage.record({ libraryId: `/flush/lib${q % 4}`, channel: 'api', tokens: 1, query: `instance ${i} question ${q}` });
  }
  await Promise.all(instances.map((u) => u.flush()));
  t.true((await readAnswersWithinASecond()) < 1000);
  const counted = await mongo
    .collection('usage_daily')
    .find({ libraryId: { $regex: '^/flush/' } })
    .toArray();
  t.is(
    counted.reduce((n, d) => n + (d.requests as number), 0),
    480,
  );
});

test('the store layer refuses unbounded bulks made through a model', async (t) => {
  const { Lock } = app.handles.models;
  const updates = Array.from({ length: MAX_UPDATE_STATEMENTS + 1 }, (_, i) => ({ updateOne: { filter: { _id: `x${i}` }, update: { $set: { holder: 'y' } } } }));
  await t.throwsAsync(Lock.bulkWrite(updates), { instanceOf: UnboundedWriteError });
  const many = Array.from({ length: MAX_INSERT_DOCUMENTS + 1 }, (_, i) => ({ _id: `y${i}`, holder: 'test', at: new Date(), data: {} }));
  await t.throwsAsync(Lock.insertMany(many), { instanceOf: UnboundedWriteError });
  t.is(await Lock.countDocuments({ _id: { $regex: '^y' } }), 0, 'nothing was written');
  await t.notThrowsAsync(Lock.bulkWrite(updates.slice(0, MAX_UPDATE_STATEMENTS)));
});

test('no code outside store/bulk.ts sends a multi-document write of the driver directly', (t) => {
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith(path.join('store', 'bulk.ts'))) {
        const text = fs.readFileSync(p, 'utf8');
        if (/\.(bulkWrite|insertMany|initializeOrderedBulkOp|initializeUnorderedBulkOp)\(/.test(text)) offenders.push(path.relative(ROOT_DIR, p));
      }
    }
  };
  walk(path.join(ROOT_DIR, 'src'));
  walk(path.join(ROOT_DIR, 'scripts'));
  t.deepEqual(offenders, []);
});
