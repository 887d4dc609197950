// The one way tests pick a port for a server of their own: the system hands out a port nobody
// holds (listen on 0, read it, release it). A random number in a fixed range can fall on a port
// another test's server or an outgoing connection already holds, and the server then fails to
// start with EADDRINUSE.
import { createServer, type AddressInfo } from 'node:net';

/** A TCP port on 127.0.0.1 that nobody listens on right now. */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = srv.address() as AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/**
 * `start(port)` on a free port; started again on another (three tries in all) when it fails because
 * the port was taken between freePort() and the server's listen (its error names EADDRINUSE).
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (e) {
      if (attempt >= 3 || !(e instanceof Error) || !e.message.includes('EADDRINUSE')) throw e;
    }
  }
}
