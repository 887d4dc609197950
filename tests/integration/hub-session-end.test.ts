// A live-hub connection lives only as long as its session: after a sign-out, a refresh-token
// reuse, a password change, a role change or a lock, the hub closes the person's open connections
// within 5 s (the real @microsoft/signalr client in Node against a real server), a join on a
// connection whose session ended is refused, and with two nodes behind Redis a sign-out on node A
// closes the connection held by node B. Each case prints the measured time to close.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { createServer, type AppServer } from '../../src/server/server.js';
import { testConfig, type Config } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { openRedis, openRedisBus, type OpenedRedis, type RedisBus } from '../../src/server/platform/redis.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { bumpSessionEpoch } from '../../src/server/auth/session-epoch.js';
import type { Deps } from '../../src/server/http/api.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { insertPerson, signedIn } from '../helpers/auth.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import { insertCustomer, insertDevice } from '../helpers/live.js';
import { ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';

const PASSWORD = 'Hub-Sessi0n-End!';
const CLIENT = { client_id: 'hub-session-test', client_secret: 'hub-session-s3cret' };
const END_WITHIN_MS = 5_000;
const IMEI = '357100000000001';

let tdb: TestDb;
let config: Config;
let srv: AppServer;
let hash: string;
const open: HubConnection[] = [];
const measured: Record<string, number> = {};

function depsFor(over: Partial<Deps> = {}): Deps {
  const log = () => {};
  return { db: tdb.db, config, outbox: createOutbox({ log, now: () => config.now() }), log, ...over };
}

beforeAll(async () => {
  tdb = await createTestDb();
  config = testConfig({ clientSecrets: { [CLIENT.client_id]: CLIENT.client_secret }, hubChannelPrefix: `test-hub-session-${randomUUID()}` });
  srv = await createServer(depsFor(), { port: 0, hostname: '127.0.0.1' });
  hash = await hashPassword(PASSWORD);
  const customer = await insertCustomer(tdb.db, randomUUID(), 'Session End Ltd');
  await insertDevice(tdb.db, { serialNumber: 'HUB-SESSION-0001', imei: IMEI, status: 3, customerId: customer.id });
});
afterAll(async () => {
  for (const c of open) await c.stop().catch(() => {});
  await srv?.close();
  await tdb?.close();
  console.log(
    'hub session end (ms):',
    JSON.stringify(measured),
    'loadavg',
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  );
});

const base = (s: AppServer = srv) => `http://127.0.0.1:${s.port}`;

async function form(path: string, body: Record<string, string>, s: AppServer = srv) {
  const res = await fetch(`${base(s)}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}
async function json(method: string, path: string, token: string, body?: unknown, s: AppServer = srv) {
  const res = await fetch(`${base(s)}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

type Session = { id: string; email: string; access_token: string; refresh_token: string };

/** A person with a password, signed in through /connect/token (a confidential client: no captcha). */
async function session(roles: RoleName[] = ['SuperAdminRole'], s: AppServer = srv): Promise<Session> {
  const email = `hub-session-${randomUUID().slice(0, 8)}@hub-session.test`;
  const id = await insertPerson(tdb.db, { email, roles, passwordHash: hash });
  const res = await form('/connect/token', { grant_type: 'password', ...CLIENT, username: email, password: PASSWORD }, s);
  expect(res.status).toBe(200);
  return { id, email, ...(res.body as { access_token: string; refresh_token: string }) };
}

/** Connects the official client with a hub token negotiated by the API token; records when it closes. */
async function connect(who: { id: string; access_token: string }, s: AppServer = srv) {
  const n = await json('POST', `/api/admin/negotiate?userid=${who.id}`, who.access_token, undefined, s);
  expect(n.status).toBe(200);
  const conn = new HubConnectionBuilder()
    .withUrl(String(n.body!.Url), { accessTokenFactory: () => String(n.body!.AccessToken), transport: HttpTransportType.WebSockets })
    .configureLogging(LogLevel.None)
    .build();
  let closedAt: number | undefined;
  let closedWith: Error | undefined;
  conn.onclose((e) => {
    closedAt = Date.now();
    closedWith = e;
  });
  await conn.start();
  open.push(conn);
  expect(await conn.invoke('joinGroup', [IMEI])).toEqual({ Subscribed: [IMEI], Refused: [] });
  return { conn, closedAt: () => closedAt, closedWith: () => closedWith };
}

/** Waits for the close; returns the milliseconds from `since`, failing past END_WITHIN_MS. */
async function closedWithin(c: { closedAt: () => number | undefined }, since: number, name: string) {
  const end = since + END_WITHIN_MS;
  while (c.closedAt() === undefined && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  const at = c.closedAt();
  expect(at, `${name}: the connection is still open ${END_WITHIN_MS} ms later`).toBeDefined();
  measured[name] = at! - since;
  return at! - since;
}

describe('the hub ends the connections of an ended session', () => {
  test('sign-out (/connect/revocation) closes the connection; a new connection with the old token is refused', async () => {
    const s = await session();
    const c = await connect(s);
    const t0 = Date.now();
    expect((await form('/connect/revocation', { token: s.refresh_token, token_type_hint: 'refresh_token', ...CLIENT })).status).toBe(200);
    expect(await closedWithin(c, t0, 'sign-out')).toBeLessThan(END_WITHIN_MS);
    expect(String(c.closedWith())).toContain('the session ended');
    expect((await json('POST', `/api/admin/negotiate?userid=${s.id}`, s.access_token)).status).toBe(401);
  });

  test('refresh-token reuse closes the connection', async () => {
    const s = await session();
    const c = await connect(s);
    expect((await form('/connect/token', { grant_type: 'refresh_token', ...CLIENT, refresh_token: s.refresh_token })).status).toBe(200);
    const t0 = Date.now();
    expect((await form('/connect/token', { grant_type: 'refresh_token', ...CLIENT, refresh_token: s.refresh_token })).status).toBe(400);
    expect(await closedWithin(c, t0, 'refresh-token reuse')).toBeLessThan(END_WITHIN_MS);
  });

  test('a password change closes the connection', async () => {
    const s = await session();
    const c = await connect(s);
    const captchaResponse = await solvedCaptcha((path) => fetch(`${base()}${path}`));
    const t0 = Date.now();
    const res = await json('POST', '/api/v1/change-password', s.access_token, {
      oldPassword: PASSWORD,
      newPassword: 'An0ther-Passw0rd!',
      newPasswordRepeated: 'An0ther-Passw0rd!',
      captchaResponse,
    });
    expect(res.status).toBe(200);
    expect(await closedWithin(c, t0, 'password change')).toBeLessThan(END_WITHIN_MS);
  });

  test('a role change (read-only admin to ARC controller) closes the connection', async () => {
    const admin = await signedIn(tdb.db, config, ['SuperAdminRole']);
    const s = await session(['SuperAdminReadonlyRole']);
    const c = await connect(s);
    const row = await tdb.db.selectFrom('persons').select('etag').where('id', '=', s.id).executeTakeFirstOrThrow();
    const t0 = Date.now();
    const res = await json('PUT', `/api/v1/person/${s.id}/identity-update`, admin.token, {
      personId: s.id,
      person: { firstName: 'Test', lastName: 'Person', emailAddress: s.email, roleIds: [ROLE_IDS.ArcControllerRole], etag: row.etag },
    });
    expect(res.status).toBe(200);
    expect(await closedWithin(c, t0, 'role change')).toBeLessThan(END_WITHIN_MS);
  });

  test("an administrator's lock (stored by any node, no announcement) closes the connection within 5 s", async () => {
    const s = await session();
    const c = await connect(s);
    const t0 = Date.now();
    await tdb.db.updateTable('persons').set({ isLocked: 1, lockedUntil: null }).where('id', '=', s.id).execute();
    expect(await closedWithin(c, t0, 'lock')).toBeLessThan(END_WITHIN_MS);
  });

  test('a join on a connection whose session ended is refused and the connection closes', async () => {
    const s = await session();
    const c = await connect(s);
    await bumpSessionEpoch(tdb.db, s.id); // stored, not announced: only the join can notice at once
    const joined = await c.conn.invoke('joinGroup', [IMEI]).catch((e: Error) => e);
    // Either the completion refuses it or the close arrives first; never a subscription.
    if (!(joined instanceof Error)) expect(joined).toEqual({ Subscribed: [], Refused: [IMEI] });
    const t0 = Date.now();
    await closedWithin(c, t0 - 1, 'join after the session ended');
  });

  test('a session that still stands keeps its connection', async () => {
    const s = await session();
    const other = await session();
    const c = await connect(s);
    await form('/connect/revocation', { token: other.refresh_token, ...CLIENT });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(c.closedAt()).toBeUndefined();
    expect(await c.conn.invoke('joinGroup', [IMEI])).toEqual({ Subscribed: [IMEI], Refused: [] });
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('two nodes behind Redis (TEST_REDIS_URL)', () => {
  const nodes: { srv: AppServer; redis: OpenedRedis; bus: RedisBus }[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const redis = openRedis(REDIS_URL!);
      const bus = openRedisBus(redis);
      // a long session check: only the announcement on the bus can end the connection in time
      const nodeConfig = { ...config, sessionCheckMs: 60_000 };
      const node = await createServer(depsFor({ redis, bus, config: nodeConfig }), { port: 0, hostname: '127.0.0.1' });
      await node.services.hub.ready();
      nodes.push({ srv: node, redis, bus });
    }
  });
  afterAll(async () => {
    for (const n of nodes) {
      await n.srv.close();
      await n.bus.close();
      await n.redis.close();
    }
  });

  test('a sign-out on node A closes the connection held by node B', async () => {
    const s = await session(['SuperAdminRole'], nodes[0]!.srv);
    const c = await connect(s, nodes[1]!.srv);
    const t0 = Date.now();
    expect((await form('/connect/revocation', { token: s.refresh_token, ...CLIENT }, nodes[0]!.srv)).status).toBe(200);
    expect(await closedWithin(c, t0, 'sign-out on another node (Redis)')).toBeLessThan(END_WITHIN_MS);
  });
});
