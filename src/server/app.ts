import { Hono } from 'hono';
import { Api, ApiError, RequestAborted, allowedMethods, errorBody, requestIdOf, type AppEnv, type Deps } from './http/api.js';
import { CODE, MSG } from '../shared/messages.js';
import type { DB } from './db/index.js';
import { authRoutes, createAuthLimiters } from './auth/routes.js';
import { captchaRoutes } from './captcha/index.js';
import { personReader, personRoutes } from './modules/persons/routes.js';
import { personSearch } from './modules/persons/search.js';
import { customerSearch } from './modules/customers/search.js';
import { deviceSearch } from './modules/devices/search.js';
import { deviceReader, deviceRoutes } from './modules/devices/routes.js';
import { alarmReportReader, alarmReportRoutes } from './modules/alarm-reports/routes.js';
import { customerReader, customerRoutes } from './modules/customers/routes.js';
import { alarmReportSearch } from './modules/alarm-reports/search.js';
import { referenceRoutes } from './modules/reference/routes.js';
import { searchRoutes } from './modules/search/routes.js';
import { createSearchService } from './modules/search/service.js';
import { securityHeaders, ssoConnectSources } from './http/security-headers.js';
import { faultResponse, health, readiness } from './platform/faults.js';
import { requestContext } from './platform/logger.js';
import { METRICS_CONTENT_TYPE, METRICS_TOKEN_REQUIRED, metricsAuthorized, requestMetrics, scrape } from './platform/metrics.js';
import { ssoRoutes } from './auth/sso/routes.js'; // sso
import { createHub } from './realtime/hub.js';
import type { RecordReaders } from './realtime/records.js';
import { createIngestLimiter, liveRoutes } from './modules/live/routes.js';
import { openApiRoutes } from './http/openapi.js';
import { createExportPool } from './exports/pool.js';
import { EXPORT_WORKER_FILE } from './modules/export-definitions.js';
import './modules/scheduled-reports.js'; // each module's kinds of scheduled report, registered with the scheduler
import { exportRoutes } from './exports/routes.js';
import { adminRoutes } from './modules/admin/routes.js';
import { scheduleRoutes } from './modules/schedules/routes.js';
import { fleetRoutes } from './modules/fleet/routes.js';

/** The palette search with each module's group registered (the order breaks ties between groups). */
export function createSearch(db: DB) {
  const search = createSearchService(db);
  search.register(deviceSearch);
  search.register(customerSearch);
  search.register(personSearch);
  search.register(alarmReportSearch);
  return search;
}

/** Who may follow which record live (a tab open on it): each module's read rule (realtime/records.ts). */
const RECORD_READERS: RecordReaders = { 'alarm-report': alarmReportReader, customer: customerReader, person: personReader, device: deviceReader };

/** The services the routes use, built once per app from its deps (no lookups keyed by deps). */
export function createServices(deps: Deps) {
  return {
    search: createSearch(deps.db),
    authLimiters: createAuthLimiters(deps),
    /** the device hub (live devices): its connections live in this process */
    hub: createHub(deps, { records: RECORD_READERS }),
    /** batches per gateway key (live ingestion) */
    ingestLimiter: createIngestLimiter(deps),
    /** the export pool: every export runs on its worker threads (src/server/exports) */
    exports: createExportPool({
      db: deps.db,
      source: deps.dbSource,
      size: deps.config.exports?.workers,
      maxQueue: deps.config.exports?.queue,
      importStep: deps.config.exports?.importStep,
      workerFile: deps.config.exports?.workerFile ?? EXPORT_WORKER_FILE,
      // several nodes: jobs shared through Redis (progress, Cancel, one per user, the queue limit)
      redis: deps.redis,
      bus: deps.redis ? deps.bus : undefined,
      log: deps.log,
    }),
  };
}
export type Services = ReturnType<typeof createServices>;

/** Builds the API. Tests call `app.request()` on it directly; createServer (server.ts) adds static files and the Node server. */
export function createApp(deps: Deps, services: Services = createServices(deps)) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    const requestId = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    const started = performance.now();
    // every log line written while the request runs carries its id (logger.ts)
    await requestContext.run({ requestId }, next);
    if (deps.config.logRequests && !c.req.path.startsWith('/assets/'))
      deps.log({
        msg: 'request',
        requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        user: c.get('user')?.id,
      });
  });

  app.use('*', requestMetrics());

  // Unknown paths answer in the API's error shape too (createServer puts index.html in front of this for client routes);
  // a known path asked with a method it does not take answers 405 with the methods it does in Allow.
  app.notFound((c) => {
    const allow = allowedMethods(app.routes, c.req.path);
    if (allow.length) return c.json(errorBody(MSG.methodNotAllowed, CODE.methodNotAllowed), 405, { Allow: allow.join(', ') });
    return c.json(errorBody('Not found.', CODE.notFound), 404);
  });
  app.use('*', securityHeaders(ssoConnectSources(deps.config))); // sso: the identity provider's origin

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json({ ...errorBody(err.message, err.code, err.errors), ...err.extra }, err.status);
    if (err instanceof RequestAborted) {
      // the client dropped its upload: nobody waits for the answer, and the database is fine
      deps.log({
        msg: 'request aborted by the client',
        requestId: c.get('requestId'),
        path: c.req.path,
        error: String((err.reason as Error)?.message ?? err.reason),
      });
      return c.json(errorBody(MSG.requestAborted, CODE.validation), 400);
    }
    const fault = faultResponse(err, c, deps); // full disk, database away: 503 and a log line naming it
    if (fault) return fault;
    deps.log({ msg: 'unhandled error', requestId: c.get('requestId'), path: c.req.path, error: String(err?.stack ?? err) });
    return c.json(errorBody(MSG.default, CODE.internal), 500);
  });

  app.get('/health', (c) => health(c, deps));
  app.get('/ready', (c) => readiness(c, deps));
  // Prometheus scrapes with METRICS_TOKEN as a bearer token; without METRICS_TOKEN this path is not served (METRICS_PORT serves it on loopback).
  app.get('/metrics', async (c) => {
    const token = deps.config.metricsToken;
    if (!token) return c.json(errorBody('Not found.', CODE.notFound), 404);
    if (!metricsAuthorized(c.req.header('authorization'), token))
      return c.json(errorBody(METRICS_TOKEN_REQUIRED, CODE.unauthorized), 401, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    return c.body(await scrape(deps.db), 200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' });
  });

  const api = new Api(app);
  authRoutes(api, services.authLimiters);
  captchaRoutes(api);
  personRoutes(api, services.hub);
  referenceRoutes(api);
  deviceRoutes(api, services.exports, services.hub);
  alarmReportRoutes(api, services.exports, services.hub);
  customerRoutes(api, services.exports, services.hub);
  exportRoutes(api, services.exports);
  searchRoutes(api, services.search);
  ssoRoutes(api); // sso
  liveRoutes(api, services.hub, services.ingestLimiter, services.exports);
  openApiRoutes(app, api.routes); // the published contract and its reference page (outside the route table: they describe it)
  adminRoutes(api, services.exports, services.hub);
  scheduleRoutes(api);
  fleetRoutes(api, services.hub, services.exports);

  return { app, routes: api.routes, services };
}
