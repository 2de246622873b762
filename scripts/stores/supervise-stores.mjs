#!/usr/bin/env node
// The supervisor of the local stores that `scripts/stores/services.sh up` starts: every 2 s it
// checks that each store recorded in <data>/run is alive, and every 5th check (every check
// after a failed read) that it answers a real read; it restarts one that died or stopped
// answering, on the same port (the server's drivers then reconnect by themselves). It logs
// what it saw and did to <data>/logs/supervisor.log. Reads cost the stores CPU (FerretDB
// reads one collection of every database), so a healthy store is read less often than it is
// looked at.
//
// Reads, not pings: a wedged FerretDB answers `ping` while every query of the wedged
// database hangs, so each database gets a find on one of its collections.
//
//   node scripts/stores/supervise-stores.mjs <data-dir>     (started and stopped by services.sh)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';

const dataDir = path.resolve(process.argv[2] ?? '.data');
const runDir = path.join(dataDir, 'run');
const servicesSh = path.join(path.dirname(new URL(import.meta.url).pathname), 'services.sh');
const INTERVAL_MS = Number(process.env.SHELFMARK_SUPERVISE_INTERVAL_MS ?? 2000);
/** A healthy store is read every this many checks; one whose last read failed, every check. */
const READ_EVERY = Number(process.env.SHELFMARK_SUPERVISE_READ_EVERY ?? 5);
const READ_TIMEOUT_MS = 3000;
/** Failed checks in a row before a live but unresponsive store is restarted (a wedge lasts forever; a machine busy with a test run can be slow for a while). */
const MAX_FAILURES = { mongo: 5, es: 10 };

const log = (message, fields = {}) => {
  const line = JSON.stringify({ time: new Date().toISOString(), msg: message, ...fields });
  fs.appendFileSync(path.join(dataDir, 'logs', 'supervisor.log'), `${line}\n`);
};
fs.mkdirSync(path.join(dataDir, 'logs'), { recursive: true });

const readFile = (name) => {
  try {
    return fs.readFileSync(path.join(runDir, name), 'utf8').trim();
  } catch {
    return undefined;
  }
};
const alive = (pid) => {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
};
const withTimeout = (promise, ms, what) =>
  Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms).unref())]);

/** The stores `up` started and `down` has not stopped (their pid files). */
function recordedStores() {
  const stores = [];
  let names = [];
  try {
    names = fs.readdirSync(runDir);
  } catch {
    return stores;
  }
  for (const name of names) {
    const es = /^es-(.+)\.pid$/.exec(name);
    if (es) stores.push({ kind: 'es', key: `es-${es[1]}`, version: es[1], pid: readFile(name), url: readFile(`es-${es[1]}.url`) });
    if (name === 'ferretdb.pid') stores.push({ kind: 'mongo', key: 'ferretdb', pid: readFile(name), url: readFile('mongo.url') });
  }
  return stores;
}

let mongoClient;
let mongoClientUrl;
async function readMongo(url) {
  if (!mongoClient || mongoClientUrl !== url) {
    await mongoClient?.close().catch(() => undefined);
    mongoClientUrl = url;
    mongoClient = new mongoose.mongo.MongoClient(url, {
      maxPoolSize: 8,
      serverSelectionTimeoutMS: READ_TIMEOUT_MS,
      connectTimeoutMS: READ_TIMEOUT_MS,
      socketTimeoutMS: READ_TIMEOUT_MS,
    });
  }
  const admin = mongoClient.db('admin');
  const { databases } = await withTimeout(admin.command({ listDatabases: 1, nameOnly: true }), READ_TIMEOUT_MS, 'listDatabases');
  // One read per database: a wedge is per database (FerretDB keeps a pool per SQLite file).
  await Promise.all(
    databases.map(async ({ name }) => {
      const db = mongoClient.db(name);
      const [first] = await withTimeout(db.listCollections({}, { nameOnly: true }).toArray(), READ_TIMEOUT_MS, `${name}: listCollections`);
      if (first) await withTimeout(db.collection(first.name).findOne({}, { projection: { _id: 1 } }), READ_TIMEOUT_MS, `${name}.${first.name}: find`);
    }),
  );
}

function dropMongoClient() {
  const client = mongoClient;
  mongoClient = undefined;
  mongoClientUrl = undefined;
  void client?.close().catch(() => undefined);
}

async function readEs(url) {
  const res = await withTimeout(
    fetch(`${url}/_cluster/health?timeout=2s`, { signal: AbortSignal.timeout(READ_TIMEOUT_MS) }),
    READ_TIMEOUT_MS + 100,
    'cluster health',
  );
  if (!res.ok && res.status !== 408) throw new Error(`cluster health answered ${res.status}`);
  await res.arrayBuffer();
}

const failures = new Map();
let checks = 0;
const lastRestart = new Map();
/** A store is restarted at most this often (a restart that failed is tried again after it). */
const MIN_RESTART_GAP_MS = 5000;

function restart(store, why) {
  if (Date.now() - (lastRestart.get(store.key) ?? 0) < MIN_RESTART_GAP_MS) return;
  lastRestart.set(store.key, Date.now());
  log(`${store.key}: restarting on the same port`, { why, pid: store.pid });
  if (store.pid && alive(store.pid)) {
    try {
      process.kill(Number(store.pid), 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
  const started = Date.now();
  const env = { ...process.env, ...(store.kind === 'es' ? { SHELFMARK_ES_VERSION: store.version } : {}) };
  const r = spawnSync('bash', [servicesSh, 'restart', store.kind === 'es' ? 'es' : 'mongo'], { env, encoding: 'utf8', timeout: 240_000 });
  if (r.status === 0) log(`${store.key}: back in ${Date.now() - started} ms`);
  else log(`${store.key}: restart failed (exit ${r.status})`, { output: `${r.stderr ?? ''}`.slice(-2000) });
  failures.set(store.key, 0);
}

async function check() {
  checks++;
  const stores = recordedStores();
  if (stores.length === 0) {
    log('no local store is recorded as running; the supervisor stops');
    await mongoClient?.close().catch(() => undefined);
    process.exit(0);
  }
  for (const store of stores) {
    if (!store.pid || !alive(store.pid)) {
      restart(store, `process ${store.pid ?? '?'} is not running`);
      continue;
    }
    if (!store.url) continue;
    if ((failures.get(store.key) ?? 0) === 0 && checks % READ_EVERY !== 1 && READ_EVERY > 1) continue;
    try {
      await (store.kind === 'es' ? readEs(store.url) : readMongo(store.url));
      if ((failures.get(store.key) ?? 0) > 0) log(`${store.key}: answers reads again`);
      failures.set(store.key, 0);
    } catch (error) {
      // A new client for the next read: the driver keeps a client whose first connection
      // failed closed for ever ("Topology is closed"), which would make every later read fail
      // and the store be restarted again and again.
      if (store.kind === 'mongo') dropMongoClient();
      const n = (failures.get(store.key) ?? 0) + 1;
      failures.set(store.key, n);
      log(`${store.key}: a read failed (${n} in a row)`, { err: String(error?.message ?? error) });
      if (n >= MAX_FAILURES[store.kind]) restart(store, `${n} reads in a row failed: ${error?.message ?? error}`);
    }
  }
}

log('supervisor started', { pid: process.pid, dataDir });
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, async () => {
    log('supervisor stopped', { signal });
    await mongoClient?.close().catch(() => undefined);
    process.exit(0);
  });
}
for (;;) {
  await check().catch((error) => log('check failed', { err: String(error?.message ?? error) }));
  await new Promise((r) => setTimeout(r, INTERVAL_MS));
}
