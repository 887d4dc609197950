// The device hub with the REAL @microsoft/signalr client in Node against a real server on a
// random port: negotiate, connect over WebSockets, subscribe (hub method and HTTP), receive
// what is ingested over HTTP; a client subscribed to device A receives nothing of device B; a
// supervisor of one tenant never receives another tenant's device; forged tokens are refused; an
// expiring token closes the connection; a server restart mid-stream loses nothing the client then
// fetches.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { createServer, type AppServer } from '../../src/server/server.js';
import { testConfig, type Config } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import type { Deps } from '../../src/server/http/api.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { signedIn, tokenFor } from '../helpers/auth.js';
import { GATEWAY_KEY, insertCustomer, insertDevice, message } from '../helpers/live.js';
import { HUB_AUDIENCE } from '../../src/server/realtime/hub.js';
import { TOKEN_ISSUER } from '../../src/server/auth/tokens.js';
import { ROLE_PERMISSIONS } from '../../src/shared/permissions.js';
import type { HubEventName, IngestMessageInput } from '../../src/shared/schemas/live.js';

let tdb: TestDb;
let srv: AppServer;
let config: Config;
let deps: Deps;
let admin: { id: string; token: string };
const IMEI = { a: '357000000000001', b: '357000000000002' };
let tenantA: string;
const open: HubConnection[] = [];

async function startServer(port = 0) {
  return createServer(deps, { port, hostname: '127.0.0.1' });
}

beforeAll(async () => {
  tdb = await createTestDb();
  config = testConfig();
  const log = () => {};
  deps = { db: tdb.db, config, outbox: createOutbox({ log, now: () => config.now() }), log };
  srv = await startServer();
  admin = await signedIn(tdb.db, config, ['SuperAdminRole']);
  const ca = await insertCustomer(tdb.db, randomUUID(), 'Tenant A Ltd');
  const cb = await insertCustomer(tdb.db, randomUUID(), 'Tenant B Ltd');
  tenantA = ca.tenantId;
  await insertDevice(tdb.db, { serialNumber: 'HUB-A-0001', imei: IMEI.a, status: 3, customerId: ca.id });
  await insertDevice(tdb.db, { serialNumber: 'HUB-B-0001', imei: IMEI.b, status: 3, customerId: cb.id });
});
afterAll(async () => {
  for (const c of open) await c.stop().catch(() => {});
  await srv?.close();
  await tdb?.close();
});

const base = () => `http://127.0.0.1:${srv.port}`;

async function post(path: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base()}${path}`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const ingest = (batch: IngestMessageInput[]) => post('/api/v1/device-messages/ingest', undefined, batch, { 'X-Gateway-Key': GATEWAY_KEY });

type Received = { event: HubEventName; payload: Record<string, unknown> };

/** Negotiates with the API token and connects the official client (straight to the WebSocket with `skipNegotiation`, as the app does); collects every event. */
async function connect(token: string, userId: string, skipNegotiation = false) {
  const n = await post(`/api/admin/negotiate?userid=${userId}`, token);
  expect(n.status).toBe(200);
  const received: Received[] = [];
  const conn = new HubConnectionBuilder()
    .withUrl(n.body.Url, { accessTokenFactory: () => n.body.AccessToken, transport: HttpTransportType.WebSockets, skipNegotiation })
    .configureLogging(LogLevel.None)
    .build();
  for (const event of ['MessageStream', 'DeviceMonitoring', 'DeviceConnected', 'DeviceConfigurationUpdated'] as const)
    conn.on(event, (payload: Record<string, unknown>) => received.push({ event, payload }));
  let closedWith: Error | undefined | null = null;
  conn.onclose((e) => (closedWith = e));
  await conn.start();
  open.push(conn);
  return { conn, received, negotiated: n.body as { Url: string; AccessToken: string }, closed: () => closedWith };
}

async function until(what: () => boolean, ms = 3_000) {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
const quiet = (ms = 400) => new Promise((r) => setTimeout(r, ms));

describe('negotiate and connect', () => {
  test('negotiate answers { Url, AccessToken }; the hub token opens the hub, not the API', async () => {
    const n = await post(`/api/admin/negotiate?userid=${admin.id}`, admin.token);
    expect(n.status).toBe(200);
    expect(n.body.Url).toBe(`${base()}/hub/devices`);
    expect(await post('/api/admin/negotiate?userid=someone-else', admin.token)).toMatchObject({ status: 400 });
    expect((await post('/api/admin/negotiate', undefined)).status).toBe(401);
    // the hub token is not an API token
    const api = await fetch(`${base()}/api/v1/get-user-info`, { headers: { authorization: `Bearer ${n.body.AccessToken}` } });
    expect(api.status).toBe(401);
    // and an API token is not a hub token
    const neg = await post('/hub/devices/negotiate?negotiateVersion=1', admin.token);
    expect(neg.status).toBe(401);
  });

  test('subscribe with joinGroup, receive what is ingested over HTTP', async () => {
    const c = await connect(admin.token, admin.id);
    expect(c.conn.state).toBe(HubConnectionState.Connected);
    const joined = await c.conn.invoke('joinGroup', [IMEI.a, 'unknown-identity']);
    expect(joined).toEqual({ Subscribed: [IMEI.a], Refused: ['unknown-identity'] });
    const m = message(IMEI.a, { message: 'SOS alarm', battery: 42 });
    const sent = Date.now();
    expect((await ingest([m])).status).toBe(200);
    await until(() => c.received.some((r) => r.event === 'MessageStream'), 1_000);
    expect(Date.now() - sent).toBeLessThan(1_000);
    const stream = c.received.find((r) => r.event === 'MessageStream')!.payload;
    expect(stream).toMatchObject({
      MessageId: m.messageId,
      Message: 'SOS alarm',
      Battery: 42,
      Serial: 'HUB-A-0001',
      DeviceIdentity: IMEI.a,
      PartitionKey: IMEI.a,
    });
    // spec document 2 §3: "Live update carries serial, date, message, battery, signal, partitionKey"
    expect(stream).toMatchObject({ serial: 'HUB-A-0001', date: m.date, message: 'SOS alarm', battery: 42, signal: m.signal ?? null, partitionKey: IMEI.a });
    await until(() => c.received.some((r) => r.event === 'DeviceMonitoring') && c.received.some((r) => r.event === 'DeviceConnected'));
    expect(c.received.find((r) => r.event === 'DeviceMonitoring')!.payload).toMatchObject({
      SerialNumber: 'HUB-A-0001',
      Message: 'SOS alarm',
      IsConnected: true,
      serial: 'HUB-A-0001',
      date: m.date,
      message: 'SOS alarm',
      battery: 42,
      partitionKey: IMEI.a,
    });
    expect(c.received.find((r) => r.event === 'DeviceConnected')!.payload).toMatchObject({ DeviceIdentity: IMEI.a, IsConnected: true });
  });

  test("the app's way: straight to the WebSocket without the hub's negotiate (skipNegotiation), joinGroup, receive", async () => {
    const c = await connect(admin.token, admin.id, true);
    expect(c.conn.state).toBe(HubConnectionState.Connected);
    expect(await c.conn.invoke('joinGroup', [IMEI.a, IMEI.b])).toEqual({ Subscribed: [IMEI.a, IMEI.b], Refused: [] });
    const m = message(IMEI.b, { message: 'Heartbeat' });
    expect((await ingest([m])).status).toBe(200);
    await until(() => c.received.some((r) => r.event === 'MessageStream' && r.payload.MessageId === m.messageId), 1_000);
    // a hub token is still required, and a made-up connection id is still refused
    const upgrade = (q: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/hub/devices${q}`);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
        ws.on('error', () => {});
      });
    expect(await upgrade('')).toBe(401);
    expect(await upgrade(`?access_token=${encodeURIComponent(admin.token)}`)).toBe(401); // an API token is not a hub token
    expect(await upgrade(`?id=made-up-connection-id.sig&access_token=${encodeURIComponent(c.negotiated.AccessToken)}`)).toBe(404);
    expect(await upgrade(`?access_token=${encodeURIComponent(c.negotiated.AccessToken)}`)).toBe(101);
  });

  test('subscribe with POST /devices/subscribe-for-monitoring and the connection id', async () => {
    const c = await connect(admin.token, admin.id);
    const r = await post('/devices/subscribe-for-monitoring', admin.token, { connectionId: c.conn.connectionId, deviceIdentities: [IMEI.b] });
    expect(r).toEqual({ status: 200, body: { Subscribed: [IMEI.b], Refused: [] } });
    const other = await signedIn(tdb.db, config, ['SuperAdminRole']);
    expect((await post('/devices/subscribe-for-monitoring', other.token, { connectionId: c.conn.connectionId, deviceIdentities: [IMEI.a] })).status).toBe(404);
    expect((await post('/devices/subscribe-for-monitoring', admin.token, { connectionId: 'nope', deviceIdentities: [IMEI.a] })).status).toBe(404);
    await ingest([message(IMEI.b, { message: 'Fall detected' })]);
    await until(() => c.received.some((r) => r.event === 'MessageStream' && r.payload.Message === 'Fall detected'));
    // someone else's subscribe did not add device A
    await ingest([message(IMEI.a, { message: 'not for this client' })]);
    await quiet();
    expect(c.received.filter((r) => r.payload.DeviceIdentity === IMEI.a)).toEqual([]);
  });
});

describe('exactly the subscribers of the device', () => {
  test('a client subscribed to device A receives nothing of device B', async () => {
    const onlyA = await connect(admin.token, admin.id);
    await onlyA.conn.invoke('joinGroup', IMEI.a);
    await ingest([message(IMEI.b, { message: 'B only' }), message(IMEI.b, { message: 'Power off' })]);
    await ingest([message(IMEI.a, { message: 'A message' })]);
    await until(() => onlyA.received.some((r) => r.payload.Message === 'A message'));
    await quiet();
    expect(onlyA.received.every((r) => r.payload.DeviceIdentity === IMEI.a)).toBe(true);
    // leaving the group stops the events
    await onlyA.conn.invoke('leaveGroup', [IMEI.a]);
    const before = onlyA.received.length;
    await ingest([message(IMEI.a, { message: 'after leaving' })]);
    await quiet();
    expect(onlyA.received.length).toBe(before);
  });

  test("a supervisor of tenant A is refused tenant B's device and receives none of its events", async () => {
    const person = await signedIn(tdb.db, config, ['SuperAdminReadonlyRole']);
    await tdb.db.updateTable('persons').set({ tenantId: tenantA }).where('id', '=', person.id).execute();
    const token = await tokenFor(config, ['SuperAdminReadonlyRole'], { id: person.id, tenantId: tenantA });
    const c = await connect(token, person.id);
    expect(await c.conn.invoke('joinGroup', [IMEI.a, IMEI.b])).toEqual({ Subscribed: [IMEI.a], Refused: [IMEI.b] });
    // joins of one device each, one after the other (the look-up's text is made once and reused with other values)
    expect(await c.conn.invoke('joinGroup', [IMEI.b])).toEqual({ Subscribed: [], Refused: [IMEI.b] });
    expect(await c.conn.invoke('joinGroup', [IMEI.a])).toEqual({ Subscribed: [IMEI.a], Refused: [] });
    expect(await c.conn.invoke('joinGroup', ['HUB-B-0001'])).toEqual({ Subscribed: [], Refused: ['HUB-B-0001'] });
    const staff = await connect(admin.token, admin.id, true);
    expect(await staff.conn.invoke('joinGroup', [IMEI.b])).toEqual({ Subscribed: [IMEI.b], Refused: [] });
    expect(await staff.conn.invoke('joinGroup', [IMEI.a])).toEqual({ Subscribed: [IMEI.a], Refused: [] });
    // the API's tenant-data routes refuse a caller outside the provider tenant altogether (tenant-scope.ts)
    expect((await post('/devices/subscribe-for-monitoring', token, { connectionId: c.conn.connectionId, deviceIdentities: [IMEI.b] })).status).toBe(403);
    await ingest([message(IMEI.b, { message: 'tenant B secret' })]);
    await ingest([message(IMEI.a, { message: 'tenant A news' })]);
    await until(() => c.received.some((r) => r.payload.Message === 'tenant A news'));
    await quiet();
    expect(c.received.some((r) => r.payload.DeviceIdentity === IMEI.b)).toBe(false);
    // a role without device permissions gets nothing at all
    const controller = await signedIn(tdb.db, config, ['ArcControllerRole']);
    const cc = await connect(controller.token, controller.id);
    expect(await cc.conn.invoke('joinGroup', [IMEI.a])).toEqual({ Subscribed: [], Refused: [IMEI.a] });
  });
});

describe('tokens', () => {
  test('forged, missing or wrong-audience tokens are refused at negotiate and at the WebSocket upgrade', async () => {
    const forged = await new SignJWT({ tenantId: randomUUID(), permissions: ROLE_PERMISSIONS.SuperAdminRole, epoch: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(admin.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(HUB_AUDIENCE)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-server-secret-not-the-server-secret'));
    const conn = new HubConnectionBuilder()
      .withUrl(`${base()}/hub/devices`, { accessTokenFactory: () => forged, transport: HttpTransportType.WebSockets })
      .configureLogging(LogLevel.None)
      .build();
    await expect(conn.start()).rejects.toThrow();
    expect((await post('/hub/devices/negotiate?negotiateVersion=1', forged)).status).toBe(401);

    // a valid negotiate, then the upgrade with a forged token or someone else's connection token
    const good = await post(`/api/admin/negotiate?userid=${admin.id}`, admin.token);
    const neg = await post('/hub/devices/negotiate?negotiateVersion=1', good.body.AccessToken);
    expect(neg.status).toBe(200);
    expect(neg.body).toMatchObject({ negotiateVersion: 1, availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }] });
    const upgrade = (token: string, id: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/hub/devices?id=${encodeURIComponent(id)}&access_token=${encodeURIComponent(token)}`);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
        ws.on('error', () => {});
      });
    expect(await upgrade(forged, neg.body.connectionToken)).toBe(401);
    const other = await signedIn(tdb.db, config, ['SuperAdminRole']);
    const otherHub = (await post(`/api/admin/negotiate?userid=${other.id}`, other.token)).body.AccessToken;
    expect(await upgrade(otherHub, neg.body.connectionToken)).toBe(404);
    expect(await upgrade(good.body.AccessToken, `${neg.body.connectionId}.bad-signature`)).toBe(404);
    expect(await upgrade(good.body.AccessToken, neg.body.connectionToken)).toBe(101);
  });

  test('the connection is closed when its token expires', async () => {
    const person = await signedIn(tdb.db, config, ['SuperAdminRole']);
    const shortLived = await tokenFor({ ...config, accessTokenSeconds: 2 }, ['SuperAdminRole'], { id: person.id });
    const c = await connect(shortLived, person.id);
    await c.conn.invoke('joinGroup', [IMEI.a]);
    expect(c.conn.state).toBe(HubConnectionState.Connected);
    await until(() => c.conn.state === HubConnectionState.Disconnected, 5_000);
    expect(String(c.closed())).toContain('expired');
    // and an already expired one cannot connect
    const n = await post(`/api/admin/negotiate?userid=${person.id}`, shortLived);
    expect(n.status).toBe(401);
  }, 10_000);
});

test('a server restart mid-stream loses nothing the client then fetches', async () => {
  const c = await connect(admin.token, admin.id);
  await c.conn.invoke('joinGroup', [IMEI.a]);
  const before = [message(IMEI.a, { message: 'R1' }), message(IMEI.a, { message: 'R2' })];
  await ingest(before);
  await until(() => c.received.filter((r) => r.event === 'MessageStream' && String(r.payload.Message).startsWith('R')).length === 2);
  const port = srv.port;
  await srv.close();
  await until(() => c.conn.state === HubConnectionState.Disconnected);
  // the node comes back on the same port and database; messages arrive before the client is back
  srv = await startServer(port);
  const during = [message(IMEI.a, { message: 'R3' }), message(IMEI.a, { message: 'R4' })];
  await ingest(during);
  // the client reconnects (negotiate again), joins again and fetches what it missed
  const again = await connect(admin.token, admin.id);
  await again.conn.invoke('joinGroup', [IMEI.a]);
  const res = await fetch(`${base()}/devices/get-message-stream?deviceIdentity=${IMEI.a}&pageSize=100`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  const page = (await res.json()) as { Items: { MessageId: string }[] };
  const ids = page.Items.map((m) => m.MessageId);
  for (const m of [...before, ...during]) expect(ids).toContain(m.messageId);
  const after = message(IMEI.a, { message: 'R5' });
  await ingest([after]);
  await until(() => again.received.some((r) => r.payload.MessageId === after.messageId));
});
