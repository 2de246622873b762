/**
 * Boot: parse config, connect stores, start HTTP (and the in-process indexing worker);
 * graceful shutdown on SIGTERM/SIGINT: stop accepting, finish in-flight requests, close
 * stores.
 */
import http from 'node:http';
import { ConfigError, loadConfig, ROOT_DIR } from './config';
import { createLogger } from './logger';
import { createServices, portsOf } from './services';
import { createApp } from './http/app';
import { indexDemoLibrary } from './catalog/demo';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  const composition = await createServices(config, log);
  const { lifecycle } = composition;
  const services = portsOf(composition);
  // The catalogue index follows every write; this repairs what a crash between the two writes
  // left, and builds the index of an installation upgraded from before it (in the background).
  lifecycle.catalogSync.reconcile().then(
    (r) => {
      if (r.written + r.removed > 0) log.info(r, 'catalogue index reconciled with the library records');
    },
    (error: unknown) =>
      log.warn({ err: (error as Error).message }, 'the catalogue index could not be reconciled; it follows new writes and is checked again at the next start'),
  );
  if (process.argv[2] === 'worker') {
    // A standalone indexing worker: no HTTP, just jobs.
    lifecycle.startWorker();
    lifecycle.scheduler.start();
    log.info('indexing worker started');
    const stop = async () => {
      await lifecycle.close();
      process.exit(0);
    };
    process.on('SIGTERM', () => void stop());
    process.on('SIGINT', () => void stop());
    return;
  }
  if (config.workerMode === 'in-process') lifecycle.startWorker();
  lifecycle.scheduler.start();
  const app = createApp(services, lifecycle);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port, host: config.host }, `Shelfmark listening on http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`);
  // First run: something to try at once (in the background; the server already answers).
  indexDemoLibrary(services, { root: ROOT_DIR }).then(
    (outcome) => {
      if (outcome.added)
        log.info(
          { library: outcome.libraryName },
          "the catalogue was empty: indexed Shelfmark's own docs as a demo library (SHELFMARK_DEMO_LIBRARY=off turns this off)",
        );
    },
    (error: unknown) => log.warn({ err: (error as Error).message }, 'the demo library could not be indexed'),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      log.warn('in-flight requests did not finish in 20 s; closing anyway');
      server.closeAllConnections();
    }, 20_000);
    force.unref();
    server.close(async () => {
      await lifecycle.close();
      log.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`Shelfmark failed to start: ${(error as Error).message}`);
  process.exit(1);
});
