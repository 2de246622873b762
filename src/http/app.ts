/**
 * createApp(ports, lifecycle): the Koa application. Middleware order reads like a checklist:
 * request context → error funnel → body parsing → routes → JSON 404.
 */
import Koa from 'koa';
import './state'; // ctx.state's declared shape (Koa module augmentation)
import type Router from '@koa/router';
import bodyParser from 'koa-bodyparser';
import { compression } from './middlewares/compression';
import type { Ports } from '../ports';
import type { Lifecycle } from '../services';
import { errorFunnel } from '../error-funnel';
import { requestContext } from './middlewares/request-context';
import { healthRoutes } from './routes/health';
import { dashboardStatic } from '../dashboard/static';
import { retrievalRoutes, legacyRoutes } from './routes/retrieval';
import { versionRoutes } from './routes/versions';
import { codeRoutes } from './routes/code';
import { libraryRoutes, v1RefreshRoutes } from './routes/libraries';
import { uploadRoutes } from './routes/libraries/upload';
import { sourceRoutes } from './routes/libraries/sources';
import { bundleRoutes } from './routes/libraries/bundles';
import { libraryPageRoutes } from './routes/libraries/manage';
import { NotFoundError } from '../errors';
import { requireApiKeyEverywhere } from './middlewares/auth';
import { mcpRoutes } from '../mcp/http-route';
import { authRoutes } from './routes/auth';
import { adminRoutes } from './routes/admin';
import { policyRoutes } from './routes/policies';
import { projectRoutes } from './routes/projects';
import { metricsRoutes } from './routes/metrics';
import { connectRoutes } from './routes/connect';

export function createApp(services: Ports, lifecycle: Pick<Lifecycle, 'monitor' | 'health'>): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // the error funnel logs; Koa's default stderr logging would duplicate it
  app.use(requestContext({ log: services.log }));
  // Requests keep the store monitor probing every second (it slows down when idle); liveness checks touch no store.
  app.use(async function storeActivity(ctx, next) {
    if (ctx.path !== '/livez' && ctx.path !== '/ping') lifecycle.monitor.touch();
    await next();
  });
  app.use(compression()); // gzip/brotli for JSON, text and the dashboard's files (errors included)
  app.use(errorFunnel({ log: services.log, onStoreUnavailable: (store) => lifecycle.monitor.suspect(store) }));
  app.use(requireApiKeyEverywhere(services)); // only while API_KEY is set: every endpoint needs a token
  const routers = appRouters(services, lifecycle);
  app.use(routers.mcp.routes()); // /mcp parses its own body: bad JSON is a JSON-RPC parse error
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '1mb', strict: true }));
  app.use(routers.health.routes()).use(routers.health.allowedMethods());
  app.use(dashboardStatic()); // the web UI's static files at /dashboard (GET/HEAD only)
  for (const routes of routers.api) app.use(routes.routes()).use(routes.allowedMethods());

  app.use(async function notFound(ctx) {
    if (ctx.body === undefined && ctx.status === 404) throw new NotFoundError(`No route for ${ctx.method} ${ctx.path}.`);
  });
  return app;
}

/**
 * Every router of the app. Each route is named after its operation in the permissions
 * table (auth/permissions.ts); the route-table test reads them from here.
 */
export function appRouters(services: Ports, lifecycle: Pick<Lifecycle, 'health'>): { mcp: Router; health: Router; api: Router[] } {
  const api: Router[] = [];
  // The API is mounted at /v2 and again at /api/v2, so a base URL ending in /api works.
  for (const prefix of ['/v2', '/api/v2']) {
    for (const routes of [
      retrievalRoutes(services),
      versionRoutes(services),
      codeRoutes(services),
      libraryRoutes(services),
      libraryPageRoutes(services),
      uploadRoutes(services),
      sourceRoutes(services),
      bundleRoutes(services),
      authRoutes(services),
      adminRoutes(services),
      policyRoutes(services),
      projectRoutes(services),
      metricsRoutes(services),
      connectRoutes(services),
    ]) {
      routes.prefix(prefix);
      api.push(routes);
    }
  }
  api.push(legacyRoutes(services), v1RefreshRoutes(services));
  return { mcp: mcpRoutes(services), health: healthRoutes(lifecycle), api };
}
