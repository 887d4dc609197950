// SIGTERM drains: a request still open is answered, the hub closes its connections with a
// reconnect hint, new connections are refused, the outbox relay handles what is waiting, and the
// process exits 0 with a 'stopped' line. Run on the real process (`npm start` without a build: tsx).
import { afterAll, expect, test } from 'vitest';
import http from 'node:http';
import { rmSync } from 'node:fs';
import WebSocket from 'ws';
import { join } from 'node:path';
import { loadConfig } from '../../src/server/platform/config.js';
import { openSqlite } from '../../src/server/db/index.js';
import { tokenFor } from '../helpers/auth.js';
import { logLines, serverEnv, startServerProcess, tempDataDir } from '../helpers/process.js';

const dir = tempDataDir('shutdown');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test.skipIf(process.env.TEST_DB === 'pg')(
  'SIGTERM: open requests finish, hub clients are told to reconnect elsewhere, then exit 0',
  async () => {
    const env = serverEnv(dir, { LOG_REQUESTS: 'true' });
    const srv = await startServerProcess(['bin/start.mjs'], env);
    const token = await tokenFor(loadConfig({ ...env }), ['SuperAdminRole']);
    const post = async (path: string, bearer: string) => {
      const res = await fetch(`${srv.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` } });
      return (await res.json()) as Record<string, string>;
    };

    // a hub connection, handshake done
    const negotiated = await post('/api/admin/negotiate', token);
    const conn = await post('/hub/devices/negotiate?negotiateVersion=1', negotiated.AccessToken!);
    const ws = new WebSocket(
      `ws://127.0.0.1:${srv.port}/hub/devices?id=${encodeURIComponent(conn.connectionToken!)}&access_token=${encodeURIComponent(negotiated.AccessToken!)}`,
    );
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(...String(d).split('\x1e').filter(Boolean)));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send('{"protocol":"json","version":1}\x1e');
    while (!frames.includes('{}')) await new Promise((r) => setTimeout(r, 20));
    const wsClosed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

    // a message waiting in the outbox (written by another process, so nothing has asked the relay to send it yet)
    const db = openSqlite(join(dir, 'workspace.sqlite'));
    const waiting = {
      channel: 'email',
      recipient: 'drain-mail@staff.test',
      subject: 'Waiting',
      body: 'sent on shutdown',
      createdAt: new Date().toISOString(),
      sentAt: null,
      error: null,
    };
    await db.insertInto('outbox').values(waiting).execute();

    // a request in flight: its body arrives in two parts, the second after SIGTERM
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: srv.port,
          path: '/api/v1/person',
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"person":{"firstName":"Drain","lastName":"Test",');
      setTimeout(() => {
        srv.child.kill('SIGTERM');
        setTimeout(() => req.end('"emailAddress":"drain@staff.test","roleIds":["bogus-role"]}}'), 600);
      }, 300);
    });

    // while the request is open the hub has said goodbye with a reconnect hint
    await new Promise((r) => setTimeout(r, 500));
    const close = frames.map((f) => JSON.parse(f) as Record<string, unknown>).find((f) => f.type === 7);
    expect(close).toEqual({ type: 7, error: 'Server is shutting down.', allowReconnect: true });
    expect(await wsClosed).toBe(1000);

    const res = await answered;
    expect(res.status).toBeGreaterThanOrEqual(400); // answered (a validation error), not cut off
    expect(res.status).toBeLessThan(500);
    expect(JSON.parse(res.body)).toMatchObject({ Content: { Code: expect.any(String) } });

    expect(await srv.exited).toBe(0);
    await expect(fetch(`${srv.url}/health`)).rejects.toThrow(); // nothing listens any more
    const lines = logLines(srv.output());
    const msgs = lines.map((l) => l.msg);
    expect(msgs).toContain('shutting down');
    expect(msgs.at(-1)).toBe('stopped');
    // the outbox was flushed on the way out: the relay handled the waiting message (no SMTP_URL here: 'not sent', recorded)
    const row = await db.selectFrom('outbox').selectAll().where('recipient', '=', 'drain-mail@staff.test').executeTakeFirstOrThrow();
    await db.destroy();
    expect(row.error).toBe('not sent: SMTP_URL is not set');
    const relayed = lines.findIndex((l) => l.msg === 'outbox' && l.to === 'drain-mail@staff.test');
    expect(relayed).toBeGreaterThan(msgs.indexOf('shutting down'));
    // the drained request was logged before the process stopped
    expect(lines.find((l) => l.msg === 'request' && l.path === '/api/v1/person')).toMatchObject({ level: 'info', requestId: expect.any(String) });
  },
  60_000,
);
