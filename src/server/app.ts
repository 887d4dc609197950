import { Hono } from 'hono';
import { Api, ApiError, errorBody, requestIdOf, type AppEnv, type Deps } from './http.js';
import { CODE, MSG } from '../shared/messages.js';
import { authRoutes } from './auth/routes.js';
import { personRoutes } from './modules/persons/routes.js';
import { referenceRoutes } from './modules/reference/routes.js';
import { searchRoutes } from './modules/search/routes.js';
import { securityHeaders } from './security-headers.js';
import { faultResponse, health } from './faults.js';

/** Builds the API. Tests call `app.request()` on it directly; main.ts adds static files and the server. */
export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    const requestId = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
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

  app.use('*', securityHeaders());

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json({ ...errorBody(err.message, err.code, err.errors), ...err.extra }, err.status);
    const fault = faultResponse(err, c, deps); // full disk, database away: 503 and a log line naming it
    if (fault) return fault;
    deps.log({ msg: 'unhandled error', requestId: c.get('requestId'), path: c.req.path, error: String(err?.stack ?? err) });
    return c.json(errorBody(MSG.default, CODE.internal), 500);
  });

  app.get('/health', (c) => health(c, deps));

  const api = new Api(app);
  authRoutes(api);
  personRoutes(api);
  referenceRoutes(api);
  searchRoutes(api);

  return { app, routes: api.routes };
}
