// Two server nodes sharing Redis (TEST_REDIS_URL; runs in the redis step of `npm test`, skipped
// without it): a browser connected to node B receives a message ingested on node A, and a
// subscribe-for-monitoring answered by node A for a connection held by node B takes effect there,
// and one for an unknown, ended or another user's connection answers 404 as on a single node.
// Each run uses its own hub channel prefix, so runs sharing a Redis do not hear each other.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { HubConnection } from '@microsoft/signalr';
import { testConfig } from '../../src/server/platform/config.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { negotiatedHub, startRedisNodes, stopNodes, type HubNode } from '../helpers/hub-nodes.js';
import { signedIn } from '../helpers/auth.js';
import { GATEWAY_KEY, insertDevice, message } from '../helpers/live.js';
import { LIVE_CODE } from '../../src/shared/schemas/live.js';

const REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('two nodes behind Redis (TEST_REDIS_URL)', () => {
  let tdb: TestDb;
  const nodes: HubNode[] = [];
  const conns: HubConnection[] = [];
  let admin: { id: string; token: string };
  let config: ReturnType<typeof testConfig>;
  const IMEI = '358000000000001';

  beforeAll(async () => {
    tdb = await createTestDb();
    config = testConfig({ hubChannelPrefix: `test-hub-${randomUUID()}` });
    await startRedisNodes(nodes, tdb.db, config, REDIS_URL!);
    admin = await signedIn(tdb.db, config, ['SuperAdminRole']);
    await insertDevice(tdb.db, { serialNumber: 'REDIS-0001', imei: IMEI });
  });
  afterAll(async () => {
    await stopNodes(nodes, conns);
    await tdb?.close();
  });

  const url = (i: number) => `http://127.0.0.1:${nodes[i]!.srv.port}`;
  const post = async (i: number, path: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(`${url(i)}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

  async function connectTo(i: number) {
    const got: Record<string, unknown>[] = [];
    const conn = await negotiatedHub(nodes[i]!, admin);
    conn.on('MessageStream', (p: Record<string, unknown>) => got.push(p));
    await conn.start();
    conns.push(conn);
    return { conn, got };
  }
  async function until(what: () => boolean, ms = 3_000) {
    const end = Date.now() + ms;
    while (!what()) {
      if (Date.now() > end) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  test('a message ingested on node A reaches a client connected to node B', async () => {
    const onB = await connectTo(1);
    expect(await onB.conn.invoke('joinGroup', [IMEI])).toEqual({ Subscribed: [IMEI], Refused: [] });
    const m = message(IMEI, { message: 'SOS alarm' });
    const sent = Date.now();
    expect((await post(0, '/api/v1/device-messages/ingest', [m], { 'X-Gateway-Key': GATEWAY_KEY })).status).toBe(200);
    await until(() => onB.got.some((p) => p.MessageId === m.messageId), 2_000);
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(onB.got).toHaveLength(1); // once, not once per node
  });

  test('subscribe-for-monitoring on node A for a connection held by node B', async () => {
    const onB = await connectTo(1);
    const r = await post(
      0,
      '/devices/subscribe-for-monitoring',
      { connectionId: onB.conn.connectionId, deviceIdentities: [IMEI] },
      { authorization: `Bearer ${admin.token}` },
    );
    expect(r).toEqual({ status: 200, body: { Subscribed: [IMEI], Refused: [] } });
    // The join went out on Redis before the answer; the events of the ingest follow it on the same channel order.
    const m = message(IMEI, { message: 'Fall detected' });
    expect((await post(0, '/api/v1/device-messages/ingest', [m], { 'X-Gateway-Key': GATEWAY_KEY })).status).toBe(200);
    await until(() => onB.got.some((p) => p.MessageId === m.messageId), 2_000);
  });

  test("subscribe-for-monitoring for an unknown connection, or another user's on another node, answers 404 as on one node", async () => {
    const onB = await connectTo(1);
    const other = await signedIn(tdb.db, config, ['SuperAdminRole']);
    const id = onB.conn.connectionId!;
    for (const [connectionId, token] of [
      ['no-such-connection-0000000000', admin.token],
      [id, other.token],
    ] as const) {
      const r = await post(0, '/devices/subscribe-for-monitoring', { connectionId, deviceIdentities: [IMEI] }, { authorization: `Bearer ${token}` });
      expect(r.status, connectionId).toBe(404);
      expect(r.body.Content.Code).toBe(LIVE_CODE.unknownConnection);
    }
    // the connection's own user still subscribes it from the other node
    const mine = await post(0, '/devices/subscribe-for-monitoring', { connectionId: id, deviceIdentities: [IMEI] }, { authorization: `Bearer ${admin.token}` });
    expect(mine.status).toBe(200);
    // a connection that ended: 404 too
    await onB.conn.stop();
    const subscribe = () =>
      post(0, '/devices/subscribe-for-monitoring', { connectionId: id, deviceIdentities: [IMEI] }, { authorization: `Bearer ${admin.token}` });
    const end = Date.now() + 3_000;
    let ended = await subscribe();
    while (ended.status !== 404 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      ended = await subscribe();
    }
    expect(ended.status).toBe(404);
  });
});
