// While the database is migrated (and on first start the demo data generated) the port is held by
// this small responder: /health and /ready answer 503 { status: 'starting' } and every other
// request 503 in the API's error shape, all with Retry-After, so a load balancer or an
// orchestrator sees a node that is starting rather than one that refuses connections (whoever
// waits for /health to say 200 still waits for the real server). main.ts closes it just before the
// real server binds the same port.
import { createServer, type Server } from 'node:http';
import { errorBody } from '../http/api.js';
import { CODE, MSG } from '../../shared/messages.js';

export async function startingResponder(port: number, hostname: string): Promise<{ close: () => Promise<void> }> {
  if (!port) return { close: async () => {} }; // an ephemeral port is chosen by the real server
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: unknown) =>
      res
        .writeHead(status, { 'Content-Type': 'application/json', 'Retry-After': '5', 'Cache-Control': 'no-store', Connection: 'close' })
        .end(JSON.stringify(body));
    if (path === '/health' || path === '/ready') return json(503, { status: 'starting', phase: 'starting' });
    return json(503, errorBody(MSG.cosmosConflict, CODE.unavailable));
  });
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false)); // port taken: the real server reports it
    server.listen(port, hostname, () => resolve(true));
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        if (!bound) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
