/**
 * Shared test harness: real Elasticsearch and FerretDB/MongoDB (started by
 * `npm run services -- up` when not running), with a unique index prefix and database
 * per test file so parallel runs cannot collide, and cleanup afterwards.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import type Koa from 'koa';
import { loadConfig, ROOT_DIR, type Config } from '../src/config';
import { createLogger } from '../src/logger';
import { createServices, openStores, portsOf, type Lifecycle, type StoreHandles } from '../src/services';
import type { Ports } from '../src/ports';
import { dropTestStores } from './drop-stores';

export { deleteIndices, dropStoresNamed, dropTestStores } from './drop-stores';
import { createApp } from '../src/http/app';

let storesChecked = false;

/** Starts the local stores unless URLs are configured or they already run. */
export function ensureStores(): void {
  if (storesChecked) return;
  storesChecked = true;
  const runDir = path.join(process.env.SHELFMARK_DATA_DIR ?? path.join(ROOT_DIR, '.data'), 'run');
  const haveEs = Boolean(process.env.ELASTICSEARCH_URL) || fs.existsSync(path.join(runDir, 'es.url'));
  const haveMongo = Boolean(process.env.MONGODB_URI) || fs.existsSync(path.join(runDir, 'mongo.url'));
  if (!haveEs || !haveMongo) {
    execFileSync('bash', [path.join(ROOT_DIR, 'scripts', 'stores', 'services.sh'), 'up'], { stdio: 'inherit' });
  }
}

/** A name unique to this test process and call. */
export function uniqueName(prefix = 't'): string {
  return `${prefix}${process.pid}${crypto.randomBytes(3).toString('hex')}`;
}

export function testConfig(overrides: Record<string, string> = {}): Readonly<Config> {
  ensureStores();
  const name = uniqueName('test');
  return loadConfig({
    ...process.env,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    MONGODB_DB: name,
    SHELFMARK_INDEX_PREFIX: name,
    STORE_TIMEOUT_MS: '2000',
    SHELFMARK_SECRET: 'test-secret-0123456789abcdef0123456789abcdef',
    SHELFMARK_DEMO_LIBRARY: 'off', // other tests' catalogues stay empty
    // Each test process would load the model and embed its fixtures; tests of hybrid
    // retrieval turn it on (test/search/hybrid.test.ts).
    SHELFMARK_EMBEDDINGS: process.env.SHELFMARK_EMBEDDINGS ?? 'off',
    // Kept code per test (libraries of the same id in other test processes prune their own).
    CODE_DIR: path.join(os.tmpdir(), `shelfmark-code-${name}`),
    ...overrides,
  });
}

export interface TestApp {
  /** What use cases and routes are handed (a superset of each one's Pick). */
  services: Ports;
  /** The worker, the scheduler, the monitor, close (what the entry points own). */
  lifecycle: Lifecycle;
  /** The raw connections and models, for tests that read or break stores beneath the app. */
  handles: StoreHandles;
  app: Koa;
  request: ReturnType<typeof supertest>;
  close(): Promise<void>;
}

/** The app on a real port (for clients that speak HTTP themselves: MCP, fetch); `close` ends its connections. */
export async function listenApp(app: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(app.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Builds services and the Koa app on fresh, private stores; `close` drops them. */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  const log = createLogger(config.logLevel);
  const handles = await openStores(config, log);
  const composition = await createServices(config, log, handles);
  const { lifecycle } = composition;
  const services = portsOf(composition);
  if (config.workerMode === 'in-process') lifecycle.startWorker();
  const app = createApp(services, lifecycle);
  return {
    services,
    lifecycle,
    handles,
    app,
    request: supertest(app.callback()),
    async close() {
      // Counts still in memory would be written by close() after the drop, leaving a
      // database behind (the supervisor reads every database, so they add up).
      await lifecycle.worker?.stop();
      await services.usage.flush();
      await dropTestStores({ es: handles.es, prefix: config.indexPrefix, mongo: handles.mongo });
      await lifecycle.close();
      fs.rmSync(config.code.dir, { recursive: true, force: true });
    },
  };
}
