// createServer: the Node server main.ts runs, on an ephemeral port. WebSocket upgrades attached
// with onUpgrade see the signed-in user (token in the Authorization header or ?access_token=);
// without a valid token they are refused. ?access_token= counts only on WebSocket upgrades and
// event streams, never on a plain API request. Unknown paths keep the API's error shape; client
// routes get index.html.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import { createServer, type AppServer } from '../../src/server/server.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import type { AuthUser } from '../../src/server/http/api.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { signedIn, tokenFor } from '../helpers/auth.js';

let tdb: TestDb;
let srv: AppServer;
let clientDir: string;
let user: { id: string; email: string; token: string };
const wss = new WebSocketServer({ noServer: true });
const logs: Record<string, unknown>[] = [];
let closeHookRan = false;

beforeAll(async () => {
  tdb = await createTestDb();
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Workspace test shell</title>');
  const config = testConfig();
  const log = (e: Record<string, unknown>) => void logs.push(e);
  srv = await createServer({ db: tdb.db, config, outbox: createOutbox({ log, now: () => config.now() }), log }, { port: 0, hostname: '127.0.0.1', clientDir });
  user = await signedIn(tdb.db, config, ['SuperAdminRole']);

  // A stand-in for the hub: greets each connection with the user the upgrade was authenticated as.
  srv.onUpgrade('/test-hub', (req, socket, head, who) => {
    wss.handleUpgrade(req, socket, head, (ws) => ws.send(JSON.stringify({ id: who?.id, email: who?.email, permissions: who?.permissions.length })));
  });
  srv.onUpgrade(
    '/test-public',
    (req, socket, head, who) => {
      wss.handleUpgrade(req, socket, head, (ws) => ws.send(JSON.stringify({ signedIn: !!who })));
    },
    { access: 'public' },
  );
  srv.onClose(() => {
    closeHookRan = true;
    for (const c of wss.clients) c.terminate();
    wss.close();
  });
});
afterAll(async () => {
  await srv?.close();
  await tdb?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const wsUrl = (path: string) => `ws://127.0.0.1:${srv.port}${path}`;

/** Connects; resolves with the first message, or with the HTTP status the upgrade was refused with. */
function connect(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ message?: Record<string, unknown>; status?: number; body?: string }>((resolve, reject) => {
    const ws = new WebSocket(wsUrl(path), { headers });
    ws.once('message', (data) => {
      resolve({ message: JSON.parse(String(data)) });
      ws.close();
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    ws.once('error', (e) => {
      if (!/Unexpected server response/.test(e.message)) reject(e);
    });
  });
}

describe('WebSocket upgrades', () => {
  test('?access_token= on an upgrade: the handler sees the signed-in user', async () => {
    const r = await connect(`/test-hub?access_token=${encodeURIComponent(user.token)}`);
    expect(r.message).toEqual({ id: user.id, email: user.email, permissions: expect.any(Number) });
    expect(r.message!.permissions as number).toBeGreaterThan(5);
  });

  test('the Authorization header works on an upgrade too', async () => {
    const r = await connect('/test-hub', { authorization: `Bearer ${user.token}` });
    expect(r.message).toMatchObject({ id: user.id });
  });

  test('a missing, forged or expired token is refused with 401 in the API error shape', async () => {
    const expired = await tokenFor(testConfig({ now: () => new Date(Date.now() - 86_400_000) }), ['SuperAdminRole'], { id: user.id });
    const forged = user.token.slice(0, -4) + (user.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const path of [
      '/test-hub',
      '/test-hub?access_token=',
      '/test-hub?access_token=not-a-jwt',
      `/test-hub?access_token=${forged}`,
      `/test-hub?access_token=${expired}`,
    ]) {
      const r = await connect(path);
      expect(r.status, path).toBe(401);
      expect(JSON.parse(r.body!), path).toEqual({ Content: { Message: MSG.sessionExpired, Code: CODE.unauthorized } });
    }
  });

  test('a public upgrade path takes anonymous connections and checks its own token; an unknown path is 404', async () => {
    expect((await connect('/test-public')).message).toEqual({ signedIn: false });
    // no API access token is verified for a public path: its handler (the hub) checks its own
    expect((await connect(`/test-public?access_token=${user.token}`)).message).toEqual({ signedIn: false });
    const r = await connect(`/no-such-hub?access_token=${user.token}`);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body!)).toEqual({ Content: { Message: 'Not found.', Code: CODE.notFound } });
  });

  test('authenticate(req) is the same check for any Node request', async () => {
    const fake = (url: string, headers: Record<string, string>) => ({ url, headers }) as unknown as Parameters<AppServer['authenticate']>[0];
    const seen: (AuthUser | undefined)[] = await Promise.all([
      srv.authenticate(fake(`/x?access_token=${user.token}`, { upgrade: 'websocket' })),
      srv.authenticate(fake(`/x?access_token=${user.token}`, { accept: 'text/event-stream' })),
      srv.authenticate(fake(`/x?access_token=${user.token}`, { accept: 'application/json' })),
      srv.authenticate(fake('/x', { authorization: `Bearer ${user.token}` })),
    ]);
    expect(seen.map((u) => u?.id)).toEqual([user.id, user.id, undefined, user.id]);
  });
});

describe('?access_token= on HTTP requests', () => {
  const api = (path: string, headers: Record<string, string>) => fetch(`${srv.url}${path}`, { headers });

  test('accepted on a server-sent-event request (Accept: text/event-stream)', async () => {
    const res = await api(`/api/v1/get-user-info?access_token=${encodeURIComponent(user.token)}`, { accept: 'text/event-stream' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ userId: user.id, email: user.email });
  });

  test('refused (401) on a normal JSON GET, and on a GET without Accept', async () => {
    for (const headers of [{ accept: 'application/json' }, {} as Record<string, string>]) {
      const res = await api(`/api/v1/get-user-info?access_token=${encodeURIComponent(user.token)}`, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ Content: { Message: MSG.sessionExpired, Code: CODE.unauthorized } });
    }
    // the header still works there
    expect((await api('/api/v1/get-user-info', { authorization: `Bearer ${user.token}` })).status).toBe(200);
  });

  test('the token in the query string never reaches the request log', async () => {
    await api(`/api/v1/get-user-info?access_token=${encodeURIComponent(user.token)}`, { accept: 'text/event-stream' });
    expect(JSON.stringify(logs)).not.toContain(user.token);
  });
});

describe('not found and the client', () => {
  test('an unknown API path is 404 with { Content: { Message, Code } }', async () => {
    const inits: RequestInit[] = [{ headers: { accept: 'application/json' } }, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }];
    for (const init of inits) {
      const res = await fetch(`${srv.url}/api/whatever`, init);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toEqual({ Content: { Message: 'Not found.', Code: CODE.notFound } });
    }
  });

  test('a client route asked for as HTML gets index.html', async () => {
    const res = await fetch(`${srv.url}/persons/some-id`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Workspace test shell');
  });

  test('a missing asset is a JSON 404, not index.html', async () => {
    const res = await fetch(`${srv.url}/assets/nope.js`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ Content: { Message: 'Not found.', Code: CODE.notFound } });
  });
});

test('close() runs the close hooks and stops the server', async () => {
  const open = new WebSocket(wsUrl(`/test-hub?access_token=${user.token}`));
  await new Promise((r) => open.once('message', r));
  const closed = new Promise((r) => open.once('close', r));
  await srv.close();
  expect(closeHookRan).toBe(true);
  await closed;
  await expect(fetch(`${srv.url}/health`)).rejects.toThrow();
});
