// A test app behind a real @hono/node-server socket on a free port (what `npm start` runs), for
// tests about the wire: streamed bodies, socket addresses, headers as sent.
import { serve, type ServerType } from '@hono/node-server';
import http from 'node:http';
import type { TestApp } from './app.js';

export async function listen(t: Pick<TestApp, 'app'>): Promise<{ port: number; url: string; close: () => Promise<void> }> {
  let server!: ServerType;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as http.Server).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export type Sent = { status: number; body: string; sent: number; headers: http.IncomingHttpHeaders };

/**
 * POSTs `total` bytes of `fill` in 64 KB chunks with Transfer-Encoding: chunked (no
 * Content-Length), honouring backpressure, and stops writing as soon as the response arrives.
 * `sent` is how many bytes were written by then.
 */
export function postStream(
  port: number,
  path: string,
  opts: { total: number; headers?: Record<string, string>; prefix?: string; fill?: string },
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'transfer-encoding': 'chunked', ...opts.headers } });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', (e) => {
      if (!answered) reject(e); // after the answer the server may drop the rest: expected
    });
    const chunk = Buffer.alloc(64 * 1024, opts.fill ?? 'a');
    if (opts.prefix) {
      req.write(opts.prefix);
      sent += Buffer.byteLength(opts.prefix);
    }
    const pump = () => {
      while (!answered && sent < opts.total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** Sends only the request head announcing `length` bytes, and waits for the answer. */
export function announce(port: number, path: string, length: number, headers: Record<string, string> = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-length': String(length), ...headers } });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, sent: 0, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}
