// The hub keeps the tokens it has verified (a client presents the same hub token to the hub's
// negotiate, to the WebSocket upgrade and on every reconnect), but a kept token is still refused
// the moment its session ends (sign-out, epoch bump, lock) and once it expires — at the hub's
// negotiate, at the upgrade and at a join — exactly as a token seen the first time.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { createServer, type AppServer } from '../../src/server/server.js';
import { testConfig, type Config } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { bumpSessionEpoch, forgetSessionState } from '../../src/server/auth/session-epoch.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { signedIn } from '../helpers/auth.js';
import { insertDevice } from '../helpers/live.js';

let tdb: TestDb;
let config: Config;
let srv: AppServer;
let shift = 0; // ms added to the server's clock
const IMEI = '357200000000001';

beforeAll(async () => {
  tdb = await createTestDb();
  const base = testConfig();
  config = { ...base, now: () => new Date(Date.now() + shift) };
  const log = () => {};
  srv = await createServer({ db: tdb.db, config, outbox: createOutbox({ log, now: () => config.now() }), log }, { port: 0, hostname: '127.0.0.1' });
  await insertDevice(tdb.db, { serialNumber: 'HUB-CACHE-0001', imei: IMEI, status: 3 });
});
afterAll(async () => {
  await srv?.close();
  await tdb?.close();
});

const url = (path: string) => `http://127.0.0.1:${srv.port}${path}`;
async function post(path: string, token: string) {
  const res = await fetch(url(path), { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, string> | null };
}
/** A hub token for a new signed-in person (the API's negotiate). */
async function hubToken() {
  const who = await signedIn(tdb.db, config, ['SuperAdminRole']);
  const n = await post(`/api/admin/negotiate?userid=${who.id}`, who.token);
  expect(n.status).toBe(200);
  return { id: who.id, token: n.body!.AccessToken! };
}
const hubNegotiate = (token: string) => post('/hub/devices/negotiate?negotiateVersion=1', token);
/** The upgrade's answer: 101 when the WebSocket opened, else the HTTP status. */
function upgrade(token: string, connectionToken: string) {
  return new Promise<number>((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/hub/devices?id=${encodeURIComponent(connectionToken)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => {});
  });
}

describe('verified hub tokens', () => {
  test('a token used before is refused at once after a sign-out (epoch bumped and announced)', async () => {
    const { id, token } = await hubToken();
    const first = await hubNegotiate(token);
    expect(first.status).toBe(200);
    expect((await hubNegotiate(token)).status).toBe(200); // the kept token
    const kept = await srv.services.hub.verifyToken(token);
    expect(kept?.id).toBe(id);
    expect(await srv.services.hub.verifyToken(token)).toBe(kept); // the same verification, not a new one

    await bumpSessionEpoch(tdb.db, id);
    forgetSessionState(id);
    expect(await srv.services.hub.verifyToken(token)).toBeUndefined();
    expect((await hubNegotiate(token)).status).toBe(401);
    expect(await upgrade(token, first.body!.connectionToken!)).toBe(401);
  });

  test('a token used before is refused at once after an epoch bump that was not announced (stored by this node)', async () => {
    const { id, token } = await hubToken();
    expect((await hubNegotiate(token)).status).toBe(200);
    await bumpSessionEpoch(tdb.db, id); // drops this node's cached session state, tells no one
    expect((await hubNegotiate(token)).status).toBe(401);
  });

  test("a token used before is refused after an administrator's lock, once this node reads the session again", async () => {
    const { id, token } = await hubToken();
    expect((await hubNegotiate(token)).status).toBe(200);
    await tdb.db.updateTable('persons').set({ isLocked: 1, lockedUntil: null }).where('id', '=', id).execute();
    forgetSessionState(id);
    expect((await hubNegotiate(token)).status).toBe(401);
    await tdb.db.updateTable('persons').set({ isLocked: 0 }).where('id', '=', id).execute();
    forgetSessionState(id);
    expect((await hubNegotiate(token)).status).toBe(200); // unlocked: the same token stands again
  });

  test('a token used before is refused once it expires, at the negotiate and at the upgrade', async () => {
    const { token } = await hubToken();
    const n = await hubNegotiate(token);
    expect(n.status).toBe(200);
    expect(await upgrade(token, n.body!.connectionToken!)).toBe(101);
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
    shift = exp * 1000 - Date.now() + 1_000; // one second past its expiry
    try {
      expect(await srv.services.hub.verifyToken(token)).toBeUndefined();
      expect((await hubNegotiate(token)).status).toBe(401);
      expect(await upgrade(token, n.body!.connectionToken!)).toBe(401);
    } finally {
      shift = 0;
    }
  });

  test('a forged token is refused even when the real one is kept', async () => {
    const { token } = await hubToken();
    expect((await hubNegotiate(token)).status).toBe(200);
    const [h, p, s] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, tenantId: randomUUID() })).toString('base64url')}.${s}`;
    expect((await hubNegotiate(forged)).status).toBe(401);
  });

  test('a join with a kept token is refused once the session ends', async () => {
    const { id, token } = await hubToken();
    const n = await hubNegotiate(token);
    const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/hub/devices?id=${encodeURIComponent(n.body!.connectionToken!)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(...d.toString().split('\u001e').filter(Boolean)));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ protocol: 'json', version: 1 }) + '\u001e');
    const until = async (what: () => boolean) => {
      const end = Date.now() + 3_000;
      while (!what() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      expect(what()).toBe(true);
    };
    await until(() => frames.includes('{}'));
    ws.send(JSON.stringify({ type: 1, invocationId: '1', target: 'joinGroup', arguments: [[IMEI]] }) + '\u001e');
    await until(() => frames.some((f) => f.includes('"invocationId":"1"')));
    expect(JSON.parse(frames.find((f) => f.includes('"invocationId":"1"'))!).result).toEqual({ Subscribed: [IMEI], Refused: [] });
    await bumpSessionEpoch(tdb.db, id); // not announced: only the join notices
    ws.send(JSON.stringify({ type: 1, invocationId: '2', target: 'joinGroup', arguments: [[IMEI]] }) + '\u001e');
    await until(() => frames.some((f) => f.includes('"invocationId":"2"') || f.includes('"type":7')));
    const second = frames.find((f) => f.includes('"invocationId":"2"'));
    if (second) expect(JSON.parse(second).result).toEqual({ Subscribed: [], Refused: [IMEI] });
    ws.terminate();
  });
});
