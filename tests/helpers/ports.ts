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

/** Whether a child server's output says its port was taken between freePort() and its listen (then start it again on another). */
export const portTaken = (output: string) => output.includes('EADDRINUSE');
