// A provider setting change reaches signed-in users without a restart: after the admin switches a
// feature, the 2FA mode or an enforced single-sign-on domain, every open hub connection (the
// official @microsoft/signalr client, watching no device at all) receives SettingsChanged naming
// what changed, so the client refetches it. With Redis (TEST_REDIS_URL) a change made on node A
// reaches a client connected to node B. SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { HubConnection } from '@microsoft/signalr';
import { testConfig, type Config } from '../../src/server/platform/config.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { callNode as call, negotiatedHub, startNode, startRedisNodes, stopNodes, type HubNode as Node } from '../helpers/hub-nodes.js';
import { signedIn } from '../helpers/auth.js';
import { SETTINGS_CHANGED_EVENT, type SettingsChangedEvent } from '../../src/shared/schemas/admin.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
type Person = { id: string; token: string };

/** A signed-in tab's hub connection: negotiate with the API token, connect, collect SettingsChanged. */
async function connect(node: Node, p: Person, conns: HubConnection[]) {
  const got: SettingsChangedEvent[] = [];
  const conn = await negotiatedHub(node, p);
  conn.on(SETTINGS_CHANGED_EVENT, (e: SettingsChangedEvent) => got.push(e));
  await conn.start();
  conns.push(conn);
  return got;
}
async function until(what: () => boolean, ms = 3_000) {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('one node', () => {
  let tdb: TestDb;
  let config: Config;
  let node: Node;
  let admin: Person;
  let controller: Person;
  const conns: HubConnection[] = [];
  beforeAll(async () => {
    tdb = await createTestDb();
    config = testConfig();
    node = await startNode(tdb.db, config);
    admin = await signedIn(tdb.db, config, ['SuperAdminRole']);
    controller = await signedIn(tdb.db, config, ['ArcControllerRole']);
  });
  afterAll(async () => {
    await stopNodes([node], conns);
    await tdb?.close();
  });

  test('a feature, the 2FA mode and an enforced domain are announced to every connection, after they are stored', async () => {
    const mine = await connect(node, admin, conns);
    const theirs = await connect(node, controller, conns);
    // nothing is announced while nothing changes
    await new Promise((r) => setTimeout(r, 200));
    expect(theirs).toEqual([]);

    expect((await call(node, 'PUT', '/ps-admin/settings/feature', admin.token, { name: 'CustomCheckInTime', isEnabled: false })).status).toBe(200);
    await until(() => theirs.length === 1 && mine.length === 1);
    expect(theirs[0]).toEqual({ Kind: 'feature', Name: 'CustomCheckInTime', At: expect.any(String) });
    // what the client refetches is already changed when the announcement arrives
    const features = await call(node, 'GET', '/features?name=CustomCheckInTime', controller.token);
    expect(JSON.stringify(features.body)).not.toMatch(/"IsEnabled":true/);

    expect((await call(node, 'PUT', '/ps-admin/settings/two-factor-mode', admin.token, { value: 1 })).status).toBe(200);
    await until(() => theirs.length === 2);
    expect(theirs[1]).toMatchObject({ Kind: 'global-setting', Name: 'TwoFactorAuthentication.Mode.Value' });

    expect((await call(node, 'POST', '/ps-admin/sso-domains', admin.token, { domain: 'live-announce.test' })).status).toBe(200);
    await until(() => theirs.length === 3);
    expect(theirs[2]).toMatchObject({ Kind: 'sso-domain', Name: 'live-announce.test' });

    // a refused change (the read-only check: the controller may not) announces nothing
    expect((await call(node, 'PUT', '/ps-admin/settings/feature', controller.token, { name: 'Devices', isEnabled: false })).status).toBe(403);
    await new Promise((r) => setTimeout(r, 300));
    expect(theirs).toHaveLength(3);
  });
});

describe.skipIf(!REDIS_URL)('two nodes behind Redis (TEST_REDIS_URL)', () => {
  let tdb: TestDb;
  const nodes: Node[] = [];
  const conns: HubConnection[] = [];
  let admin: Person;
  let controller: Person;
  beforeAll(async () => {
    tdb = await createTestDb();
    const config = testConfig({ hubChannelPrefix: `test-settings-${randomUUID()}` });
    await startRedisNodes(nodes, tdb.db, config, REDIS_URL!);
    admin = await signedIn(tdb.db, config, ['SuperAdminRole']);
    controller = await signedIn(tdb.db, config, ['ArcControllerRole']);
  });
  afterAll(async () => {
    await stopNodes(nodes, conns);
    await tdb?.close();
  });

  test('a feature switched on node A reaches a client connected to node B', async () => {
    const onB = await connect(nodes[1]!, controller, conns);
    expect((await call(nodes[0]!, 'PUT', '/ps-admin/settings/feature', admin.token, { name: 'ScheduledReports', isEnabled: true })).status).toBe(200);
    await until(() => onB.length === 1);
    expect(onB[0]).toMatchObject({ Kind: 'feature', Name: 'ScheduledReports' });
  });
});
