// The Node server around the app: the built client (static assets, index.html for client routes),
// the API (createApp) and WebSocket upgrades (the hub attaches itself with onUpgrade). main.ts
// calls this; tests start it on an ephemeral port.
import { errorEvents, registerExportPool } from './platform/metrics.js';
import { serve } from '@hono/node-server';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApp, createServices, type Services } from './app.js';
import { authenticateRequest, errorBody, type AuthUser, type Deps } from './http/api.js';
import { clientPage, serveClientFiles } from './http/static-client.js';
import { CODE, MSG } from '../shared/messages.js';
import { HUB_PATH } from '../shared/schemas/live.js';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, user: AuthUser | undefined) => void;

export type ServerOptions = {
  /** default: config.port; 0 picks a free port */
  port?: number;
  /** default: HOST or 0.0.0.0 */
  hostname?: string;
  /** the built client (index.html + assets/); served when it holds an index.html */
  clientDir?: string;
  services?: Services;
};

export type AppServer = Awaited<ReturnType<typeof createServer>>;

/** Writes a plain HTTP error on a socket that asked to upgrade, in the API's error shape, and closes it. */
function refuseUpgrade(socket: Duplex, status: 401 | 404 | 500, message: string, code: string) {
  const body = JSON.stringify(errorBody(message, code));
  const reason = status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Internal Server Error';
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}

/**
 * Builds the app and listens. Resolves once the port is bound. `onUpgrade(path, handler)` routes
 * WebSocket upgrades of that path to the handler, after authentication (the Authorization header
 * or `?access_token=`): without a valid token the upgrade is answered 401. A path attached with
 * `{ access: 'public' }` checks its own token (the hub's audience is not the API's): the handler
 * gets no user and no access token is verified for it. `close()` runs the onClose hooks (a hub
 * closes its sockets there), stops accepting and waits for open requests.
 */
export async function createServer(deps: Deps, opts: ServerOptions = {}) {
  const services = opts.services ?? createServices(deps);
  const { app, routes } = createApp(deps, services);

  // The built client: static assets (precompressed by the build, served in the encoding the browser
  // takes, hashed files cached for a year), and index.html for every other GET that wants HTML
  // (client routes).
  const clientDir = opts.clientDir;
  if (clientDir && existsSync(join(clientDir, 'index.html'))) {
    const files = serveClientFiles(resolve(clientDir));
    const page = clientPage(clientDir);
    app.use('/assets/*', files);
    app.get('/favicon.svg', files);
    app.get('*', (c) => {
      if ((c.req.header('accept') ?? '').includes('text/html')) return page(c);
      return c.notFound();
    });
  }

  const upgrades = new Map<string, { handler: UpgradeHandler; access: 'signed-in' | 'public' }>();
  const closeHooks: (() => void | Promise<void>)[] = [];

  // sso: the embedded identity provider (oidc-provider, Koa) takes its path prefix (/oidc) on the
  // Node server, before Hono; everything else goes to the app.
  const sso = deps.config.sso;
  // Loaded only when used: oidc-provider warns on stderr at import time on Node 20 (it asks for 22),
  // which would be a second line in start-up failures that have nothing to do with it.
  const idp = sso?.mode === 'embedded' ? await (await import('./auth/sso/embedded.js')).createEmbeddedProvider(deps.config, sso) : undefined;
  const server = serve({
    fetch: app.fetch,
    port: opts.port ?? deps.config.port,
    hostname: opts.hostname ?? process.env.HOST ?? '0.0.0.0',
    ...(idp && {
      createServer: ((options: object, listener: (req: IncomingMessage, res: import('node:http').ServerResponse) => void) =>
        createHttpServer(options, (req, res) => (idp.owns(req) ? idp.handle(req, res) : listener(req, res)))) as typeof createHttpServer,
    }),
  }) as Server;
  server.on('upgrade', async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const entry = upgrades.get(path);
      if (!entry) return refuseUpgrade(socket, 404, 'Not found.', CODE.notFound);
      if (entry.access === 'public') return entry.handler(req, socket, head, undefined);
      const user = await authenticateRequest(req, deps);
      if (!user) {
        deps.log({ msg: 'upgrade refused', path, reason: 'no valid access token' });
        return refuseUpgrade(socket, 401, MSG.sessionExpired, CODE.unauthorized);
      }
      entry.handler(req, socket, head, user);
    } catch (e) {
      deps.log({ msg: 'upgrade failed', error: String((e as Error)?.stack ?? e) });
      refuseUpgrade(socket, 500, MSG.default, CODE.internal);
    }
  });

  await new Promise<void>((resolve, reject) => {
    if (server.listening) return resolve();
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  // Once listening, an 'error' on the server (e.g. accept failing for want of file descriptors) is
  // logged; the server keeps serving the connections it has and accepts again when it can.
  server.on('error', (e: Error & { code?: string }) => {
    errorEvents.inc({ source: 'http_server' });
    deps.log({ msg: 'http server error', level: 'error', error: e.message, code: e.code });
  });
  // The device hub: WebSocket upgrades of HUB_PATH; the hub checks its own token (audience 'safety-workspace-hub').
  upgrades.set(HUB_PATH, { handler: (req, socket, head) => void services.hub.handleUpgrade(req, socket, head), access: 'public' });
  closeHooks.push(() => services.hub.close());
  const unregisterExports = registerExportPool(() => services.exports.stats());
  closeHooks.push(() => {
    unregisterExports();
    return services.exports.close();
  });

  let closing: Promise<void> | undefined;
  return {
    app,
    routes,
    services,
    /** the Node server (for what onUpgrade does not cover) */
    server,
    port,
    url: `http://localhost:${port}`,
    /** Sends WebSocket upgrades of `path` (exact pathname) to `handler`. Returns a function that detaches it. */
    onUpgrade(path: string, handler: UpgradeHandler, o: { access?: 'signed-in' | 'public' } = {}) {
      if (upgrades.has(path)) throw new Error(`an upgrade handler for ${path} is attached already`);
      upgrades.set(path, { handler, access: o.access ?? 'signed-in' });
      return () => void upgrades.delete(path);
    },
    /** The signed-in user of a Node request (header, or ?access_token= on upgrades and event streams). */
    authenticate: (req: IncomingMessage) => authenticateRequest(req, deps),
    /** Runs at close(), before the server stops (close WebSockets there). */
    onClose(hook: () => void | Promise<void>) {
      closeHooks.push(hook);
    },
    /**
     * Stops the server: close hooks first, then no new connections, open requests finish. A
     * keep-alive connection is closed once its request is answered (the answer says `Connection:
     * close`), so a client that keeps sending (a gateway) moves to another node instead of holding
     * this one open.
     */
    close: () =>
      (closing ??= (async () => {
        for (const hook of closeHooks.splice(0).reverse()) await hook();
        server.on('request', (_req: IncomingMessage, res: import('node:http').ServerResponse) => {
          if (!res.headersSent) res.setHeader('Connection', 'close');
        });
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        clearInterval(idle);
      })()),
  };
}
