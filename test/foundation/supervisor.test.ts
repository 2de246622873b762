/**
 * The supervisor of the local stores, on a FerretDB of its own (its own data directory,
 * port and supervisor, so the shared stores of the other test files are not touched):
 * killed, or wedged by the FerretDB bug bounded writes avoid, it is restarted on the same
 * port and a running server carries on without a person.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import mongoose from 'mongoose';
import { ROOT_DIR } from '../../src/config';
import { freePort } from '../server-process';
import { createTestApp, type TestApp } from '../harness';

const SERVICES = path.join(ROOT_DIR, 'scripts', 'stores', 'services.sh');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-supervised-'));
const runDir = path.join(dataDir, 'run');
let port = 0;
let url = '';
let app: TestApp | undefined;

const services = (...args: string[]) =>
  execFileSync('bash', [SERVICES, ...args], {
    env: { ...process.env, SHELFMARK_DATA_DIR: dataDir, SHELFMARK_MONGO_PORT: String(port), SHELFMARK_SUPERVISE_INTERVAL_MS: '500', MONGODB_URI: '' },
    stdio: 'pipe',
  }).toString();

test.before(async () => {
  port = await freePort();
  services('up', 'mongo');
  url = fs.readFileSync(path.join(runDir, 'mongo.url'), 'utf8').trim();
  // The waits below ask the server up to 4 times a second for half a minute: more than the
  // anonymous rate limit allows (60 a minute), and a 429 is not what these tests are about.
  app = await createTestApp({ MONGODB_URI: url, WORKER_MODE: 'off', RATE_LIMIT_ANON_PER_MINUTE: '100000' });
});
test.after.always(async () => {
  await app?.close().catch(() => undefined);
  services('down');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const pid = () => Number(fs.readFileSync(path.join(runDir, 'ferretdb.pid'), 'utf8'));
const supervisorLog = () => fs.readFileSync(path.join(dataDir, 'logs', 'supervisor.log'), 'utf8');

async function until(check: () => Promise<boolean>, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not within ${ms} ms`);
}

/** What the server answered last (a failed wait says it). */
let lastAnswer = '';
const serverAnswers = async () => {
  const res = await app!.request.get('/v2/libs/search').query({ libraryName: 'nothing-here' }).timeout(10_000);
  lastAnswer = `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
  return res.status === 404;
};

test.serial('the port is kept for the data directory and the supervisor runs', (t) => {
  t.is(fs.readFileSync(path.join(runDir, 'ferretdb.port'), 'utf8').trim(), String(port));
  t.regex(services('status'), /supervisor: running/);
});

test.serial('FerretDB killed with SIGKILL: restarted on the same port, and the server reconnects by itself', async (t) => {
  t.true(await serverAnswers());
  const before = pid();
  process.kill(before, 'SIGKILL');
  const back = await until(async () => pid() !== before && (await serverAnswers()), 30_000);
  t.log(`the server answered again ${back} ms after the kill`);
  t.is(fs.readFileSync(path.join(runDir, 'mongo.url'), 'utf8').trim(), url, 'same URL (same port)');
  t.regex(supervisorLog(), /ferretdb: restarting on the same port.*not running/);
});

test.serial('FerretDB wedged (ping answers, queries hang): the supervisor notices the reads and restarts it', async (t) => {
  // The FerretDB 1.24 bug itself, sent on purpose through the driver: an update command of
  // 100 statements holds every connection of its database's pool and waits forever.
  const client = new mongoose.mongo.MongoClient(url, { maxPoolSize: 4 });
  await client.connect();
  const coll = client.db('wedged').collection('docs');
  await coll.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: `d${i}` as never, n: 0 })));
  const before = pid();
  void coll
    .bulkWrite(Array.from({ length: 100 }, (_, i) => ({ updateOne: { filter: { _id: `d${i}` as never }, update: { $inc: { n: 1 } } } })))
    .catch(() => undefined);
  await new Promise((r) => setTimeout(r, 1000));
  t.truthy(await client.db('admin').command({ ping: 1 }), 'ping still answers');
  const restarted = await until(async () => pid() !== before, 30_000).catch((error: unknown) => {
    t.log(supervisorLog());
    throw error;
  });
  t.log(`restarted ${restarted} ms after the wedge`);
  await client.close(true).catch(() => undefined);
  const reader = new mongoose.mongo.MongoClient(url, { serverSelectionTimeoutMS: 3000 });
  const doc = await reader
    .db('wedged')
    .collection('docs')
    .findOne({ _id: 'd1' as never });
  t.truthy(doc, 'reads answer after the restart');
  await reader.close();
  t.regex(supervisorLog(), /reads in a row failed/);
  // The server reconnects by itself: the driver's server selection and the store monitor's retries (as after a kill).
  const back = await until(serverAnswers, 30_000).catch((error: unknown) => {
    t.log(`the server's last answer: ${lastAnswer}`);
    t.log(supervisorLog());
    return app!.request.get('/healthz').then((res) => {
      t.log(`its health: ${JSON.stringify(res.body)}`);
      throw error;
    });
  });
  t.log(`the server answered again ${back} ms after the restart was seen`);
});
