// Records open in several tabs stay live: a tab that opens an alarm report (hub method openRecord,
// the official @microsoft/signalr client against a real server) receives RecordChanged within 2 s
// of a note or change committed by someone else, and RecordPresence naming who else has it open.
// Only users who may read the record by its REST read's rules may open it: a customer
// administrator of another customer, or a user without the read permission, is refused and
// receives nothing; a sign-out ends the connection and with it the tab's interest and presence.
// With Redis (TEST_REDIS_URL) the same holds across two nodes. SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { HubConnection } from '@microsoft/signalr';
import { testConfig, type Config } from '../../src/server/platform/config.js';
import { hashPassword } from '../../src/server/auth/password.js';
import type { DB } from '../../src/server/db/index.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { callNode as call, negotiatedHub, startNode, startRedisNodes, stopNodes, type HubNode as Node } from '../helpers/hub-nodes.js';
import { insertPerson, tokenFor } from '../helpers/auth.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { insertCustomer, insertDevice } from '../helpers/live.js';
import { ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';
import {
  RECORD_CHANGED_EVENT,
  RECORD_METHODS,
  RECORD_PRESENCE_EVENT,
  type OpenRecordResult,
  type RecordChangedEvent,
  type RecordPresenceEvent,
} from '../../src/shared/schemas/record-live.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
const WITHIN_MS = 2_000;
const PASSWORD = 'Rec0rd-Live-Pass!';
const CLIENT = { client_id: 'record-live-test', client_secret: 'record-live-s3cret' };

type Person = { id: string; token: string; name: string };
type Tab = { conn: HubConnection; changes: RecordChangedEvent[]; presence: RecordPresenceEvent[]; closed: () => boolean };

/** A person with a name and roles (tenant: the provider's unless given) and an access token for them. */
async function person(db: DB, config: Config, roles: RoleName[], first: string, over: { tenantId?: string; tokenRoles?: RoleName[] } = {}): Promise<Person> {
  const email = `${first.toLowerCase()}-${randomUUID().slice(0, 8)}@record-live.test`;
  const id = await insertPerson(db, { email, roles, firstName: first, lastName: 'Tester', tenantId: over.tenantId });
  return { id, name: `${first} Tester`, token: await tokenFor(config, over.tokenRoles ?? roles, { id, email, tenantId: over.tenantId }) };
}

/** A tab's hub connection: negotiate with the API token, connect, collect RecordChanged and RecordPresence. */
async function connect(node: Node, p: Pick<Person, 'id' | 'token'>, conns: HubConnection[]): Promise<Tab> {
  const conn = await negotiatedHub(node, p);
  const tab: Tab = { conn, changes: [], presence: [], closed: () => closed };
  let closed = false;
  conn.on(RECORD_CHANGED_EVENT, (e: RecordChangedEvent) => tab.changes.push(e));
  conn.on(RECORD_PRESENCE_EVENT, (e: RecordPresenceEvent) => tab.presence.push(e));
  conn.onclose(() => (closed = true));
  await conn.start();
  conns.push(conn);
  return tab;
}
const open = (t: Tab, kind: string, id: string) => t.conn.invoke<OpenRecordResult>(RECORD_METHODS.open, kind, id);
const lastPresence = (t: Tab) => t.presence.at(-1)?.Present;

async function until(what: () => boolean, ms = WITHIN_MS) {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const quiet = (ms = 400) => new Promise((r) => setTimeout(r, ms));

describe('one node', () => {
  let tdb: TestDb;
  let config: Config;
  let node: Node;
  let reportA: string;
  let customerA: { id: string; tenantId: string };
  let customerB: { id: string; tenantId: string };
  const conns: HubConnection[] = [];
  beforeAll(async () => {
    tdb = await createTestDb();
    config = testConfig({ clientSecrets: { [CLIENT.client_id]: CLIENT.client_secret }, hubChannelPrefix: `test-record-live-${randomUUID()}` });
    node = await startNode(tdb.db, config);
    customerA = await insertCustomer(tdb.db, randomUUID(), 'Record Live Alpha');
    customerB = await insertCustomer(tdb.db, randomUUID(), 'Record Live Beta');
    reportA = (await insertAlarmReport(tdb.db, { customerId: customerA.id })).id;
  });
  afterAll(async () => {
    await stopNodes([node], conns);
    await tdb?.close();
  });

  test("a note by one user reaches another's open tab within 2 s, with who wrote it; presence shows each to the other", async () => {
    const alice = await person(tdb.db, config, ['ArcSupervisorRole'], 'Alice');
    const bob = await person(tdb.db, config, ['ArcControllerRole'], 'Bob');
    const aliceTab = await connect(node, alice, conns);
    const bobTab = await connect(node, bob, conns);

    expect(await open(aliceTab, 'alarm-report', reportA)).toEqual({ Open: true, Present: [], At: expect.any(String), Changed: null });
    expect(await open(bobTab, 'alarm-report', reportA.toUpperCase())).toEqual({ Open: true, Present: ['Alice Tester'], At: expect.any(String), Changed: null });
    await until(() => lastPresence(aliceTab)?.[0] === 'Bob Tester');
    expect(aliceTab.presence.at(-1)).toEqual({ Kind: 'alarm-report', Id: reportA, Present: ['Bob Tester'] });

    const t0 = Date.now();
    const added = await call(node, 'POST', '/alarm-report/add-note', bob.token, { alarmReportId: reportA, note: 'Called the site, all well.' });
    expect(added.status).toBe(200);
    await until(() => aliceTab.changes.length === 1);
    console.log('note to the other tab (ms):', Date.now() - t0);
    expect(aliceTab.changes[0]).toEqual({
      Kind: 'alarm-report',
      Id: reportA,
      What: 'note',
      By: 'Bob Tester',
      ByUserId: bob.id,
      At: expect.any(String),
      Note: expect.objectContaining({ Id: added.body.Id, Note: 'Called the site, all well.' }),
    });
    // what the other tab refetches is stored already
    const details = await call(node, 'GET', `/alarm-report/get-details?AlarmId=${await alarmIdOf(tdb.db, reportA)}`, alice.token);
    expect(JSON.stringify(details.body)).toContain('Called the site, all well.');

    // a change (escalation plan followed) is announced without content
    const etag = (details.body as { Etag: string }).Etag;
    expect((await call(node, 'PUT', '/alarm-report/update', alice.token, { alarmReportId: reportA, escalationPlanFollowed: true, etag })).status).toBe(200);
    await until(() => bobTab.changes.some((e) => e.What === 'change'));
    expect(bobTab.changes.find((e) => e.What === 'change')).toMatchObject({
      Kind: 'alarm-report',
      Id: reportA,
      By: 'Alice Tester',
      ByUserId: alice.id,
      Note: null,
    });

    // Bob closes the tab: Alice sees nobody else; a later note no longer reaches Bob
    await bobTab.conn.invoke(RECORD_METHODS.close, 'alarm-report', reportA);
    await until(() => lastPresence(aliceTab)?.length === 0);
    const before = bobTab.changes.length;
    expect((await call(node, 'POST', '/alarm-report/add-note', alice.token, { alarmReportId: reportA, note: 'Second note.' })).status).toBe(200);
    await until(() => aliceTab.changes.length === 3);
    await quiet();
    expect(bobTab.changes).toHaveLength(before);
  });

  test('a customer administrator of another customer cannot open the report and receives none of its notes, even with a token carrying read permissions', async () => {
    const writer = await person(tdb.db, config, ['ArcControllerRole'], 'Carol');
    // the real role: no admin-panel permission at all
    const adminB = await person(tdb.db, config, ['AdminRole'], 'Dave', { tenantId: customerB.tenantId });
    // a token minted with the signing key for a person of customer B, carrying every permission
    const forgedB = await person(tdb.db, config, ['AdminRole'], 'Erin', { tenantId: customerB.tenantId, tokenRoles: ['SuperAdminRole'] });
    // the same for customer A's own tenant: also refused (tenant data is the provider staff's)
    const forgedA = await person(tdb.db, config, ['AdminRole'], 'Fay', { tenantId: customerA.tenantId, tokenRoles: ['SuperAdminRole'] });
    const tabs = [await connect(node, adminB, conns), await connect(node, forgedB, conns), await connect(node, forgedA, conns)];
    for (const t of tabs) expect(await open(t, 'alarm-report', reportA)).toEqual({ Open: false, Present: [] });
    expect((await call(node, 'POST', '/alarm-report/add-note', writer.token, { alarmReportId: reportA, note: 'Not for other tenants.' })).status).toBe(200);
    await quiet();
    for (const t of tabs) {
      expect(t.changes).toEqual([]);
      expect(t.presence).toEqual([]);
    }
  });

  test('a user without the read permission cannot open a record; unknown records and kinds are refused', async () => {
    const controller = await person(tdb.db, config, ['ArcControllerRole'], 'Gail');
    const manager = await person(tdb.db, config, ['ArcManagerRole'], 'Hank');
    const portal = await person(tdb.db, config, ['PortalUserRole'], 'Ivy');
    const customerAdmin = await person(tdb.db, config, ['AdminRole'], 'Jack', { tenantId: customerA.tenantId });
    const c = await connect(node, controller, conns);
    const m = await connect(node, manager, conns);
    const p = await connect(node, portal, conns);
    // an ARC controller reads alarm reports, not customers, devices or persons
    expect(await open(c, 'customer', customerA.id)).toEqual({ Open: false, Present: [] });
    expect(await open(c, 'person', manager.id)).toEqual({ Open: false, Present: [] });
    // an ARC manager lists persons, but only the centre's staff: not a customer's administrator
    expect(await open(m, 'person', controller.id)).toMatchObject({ Open: true, Present: [] });
    expect(await open(m, 'person', customerAdmin.id)).toEqual({ Open: false, Present: [] });
    // no admin-panel permission: nothing
    expect(await open(p, 'alarm-report', reportA)).toEqual({ Open: false, Present: [] });
    // unknown id, bad id, unknown kind
    expect(await open(c, 'alarm-report', randomUUID())).toEqual({ Open: false, Present: [] });
    expect(await open(c, 'alarm-report', 'not-an-id')).toEqual({ Open: false, Present: [] });
    expect(await open(c, 'schedule', reportA)).toEqual({ Open: false, Present: [] });
  });

  test('a customer change reaches the tabs that have the customer open, not those of another customer', async () => {
    const admin = await person(tdb.db, config, ['SuperAdminRole'], 'Kim');
    const reader = await person(tdb.db, config, ['SuperAdminReadonlyRole'], 'Lee');
    const onA = await connect(node, reader, conns);
    const onB = await connect(node, reader, conns);
    expect((await open(onA, 'customer', customerA.id)).Open).toBe(true);
    expect((await open(onB, 'customer', customerB.id)).Open).toBe(true);
    const r = await call(node, 'PUT', '/ps-admin/customers/fleet-thresholds', admin.token, { customerId: customerA.id, silentHours: 36 });
    expect(r.status).toBe(200);
    await until(() => onA.changes.length === 1);
    expect(onA.changes[0]).toMatchObject({ Kind: 'customer', Id: customerA.id, What: 'change', By: 'Kim Tester' });
    await quiet();
    expect(onB.changes).toEqual([]);
  });

  test('a change committed while a tab was disconnected is named when the tab opens the record again; its own changes and older ones are not', async () => {
    const admin = await person(tdb.db, config, ['SuperAdminRole'], 'Mia');
    const reader = await person(tdb.db, config, ['SuperAdminReadonlyRole'], 'Ned');
    const first = await connect(node, reader, conns);
    const opened = await open(first, 'customer', customerA.id);
    expect(opened).toMatchObject({ Open: true, Changed: null });
    // the tab's connection goes down; meanwhile someone else changes the customer
    await first.conn.stop();
    await quiet(20);
    expect((await call(node, 'PUT', '/ps-admin/customers/fleet-thresholds', admin.token, { customerId: customerA.id, silentHours: 30 })).status).toBe(200);
    await quiet(100);
    expect(first.changes).toEqual([]);

    // the reconnected tab opens it again with the last time it was given: the missed change, by whom
    const again = await connect(node, reader, conns);
    const reopened = await again.conn.invoke<OpenRecordResult>(RECORD_METHODS.open, 'customer', customerA.id, opened.At);
    expect(reopened).toMatchObject({ Open: true, Changed: { By: 'Mia Tester', ByUserId: admin.id, At: expect.any(String) } });
    expect(reopened.Changed!.At > opened.At!).toBe(true);
    // from the newer time: nothing missed
    expect((await again.conn.invoke<OpenRecordResult>(RECORD_METHODS.open, 'customer', customerA.id, reopened.At)).Changed).toBeNull();
    // the one who made the change is not told of their own change
    const own = await connect(node, admin, conns);
    expect((await own.conn.invoke<OpenRecordResult>(RECORD_METHODS.open, 'customer', customerA.id, opened.At)).Changed).toBeNull();
    // another customer's record is still refused, with or without a time
    const tenantAdmin = await person(tdb.db, config, ['AdminRole'], 'Omar', { tenantId: customerB.tenantId });
    const b = await connect(node, tenantAdmin, conns);
    expect(await b.conn.invoke<OpenRecordResult>(RECORD_METHODS.open, 'customer', customerA.id, opened.At)).toEqual({ Open: false, Present: [] });
  });

  test('CSV imports: a device import leaves existing devices and their tabs alone; allocating the devices of a serials file reaches the tabs of that customer and its devices only', async () => {
    const admin = await person(tdb.db, config, ['SuperAdminRole'], 'Pia');
    const reader = await person(tdb.db, config, ['SuperAdminReadonlyRole'], 'Rex');
    const adminA = await person(tdb.db, config, ['AdminRole'], 'Sue', { tenantId: customerA.tenantId });
    const known = await insertDevice(tdb.db, { serialNumber: `REC-${randomUUID().slice(0, 8)}`, imei: null, status: 1, customerId: null });
    const fresh = `REC-${randomUUID().slice(0, 8)}`.toUpperCase();
    const upload = async (path: string, csv: string) => {
      const fd = new FormData();
      fd.append('File', new File([csv], 'devices.csv', { type: 'text/csv' }));
      const res = await fetch(`http://127.0.0.1:${node.srv.port}${path}`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: fd });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const onKnown = await connect(node, reader, conns);
    const onA = await connect(node, reader, conns);
    const onB = await connect(node, reader, conns);
    const tenantA = await connect(node, adminA, conns);
    expect((await open(onKnown, 'device', known.id)).Open).toBe(true);
    expect((await open(onA, 'customer', customerA.id)).Open).toBe(true);
    expect((await open(onB, 'customer', customerB.id)).Open).toBe(true);
    // a customer's administrator follows no customer's records, their own included
    expect((await open(tenantA, 'customer', customerA.id)).Open).toBe(false);

    // the device import creates the new serial and leaves the known one as it was: nothing to announce
    const imported = await upload('/api/v1/import/devices', `SerialNumber,Type\n${known.serialNumber},640\n${fresh},640\n`);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ created: 1, alreadyPresent: [known.serialNumber] });
    const stored = await tdb.db.selectFrom('devices').select(['etag', 'customerId']).where('id', '=', known.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ etag: known.etag, customerId: null });
    const freshId = (imported.body.idList as string[])[1]!;
    const onFresh = await connect(node, reader, conns);
    expect((await open(onFresh, 'device', freshId)).Open).toBe(true);

    // a serials file for customer A (read only), then the allocation of what it found: announced to A's and the devices' tabs
    const found = await upload(`/api/v1/import/devices-to-allocate/${customerA.id}`, `SerialNumber\n${fresh}\n${known.serialNumber}\n`);
    expect(found.status).toBe(200);
    const devices = (found.body.devices as { id: string; etag: string }[]).map((d) => ({ id: d.id, etag: d.etag, typeValue: 640 }));
    expect(devices).toHaveLength(2);
    await quiet(100);
    expect([onKnown, onFresh, onA].map((t) => t.changes.length)).toEqual([0, 0, 0]);
    const allocated = await call(node, 'POST', '/api/v1/device/allocate-many', admin.token, { customerId: customerA.id, devices, orderNumber: 'PO-REC-1' });
    expect(allocated.status).toBe(200);
    await until(() => onA.changes.length === 1 && onKnown.changes.length === 1 && onFresh.changes.length === 1);
    expect(onA.changes[0]).toMatchObject({ Kind: 'customer', Id: customerA.id, What: 'change', By: 'Pia Tester' });
    expect(onFresh.changes[0]).toMatchObject({ Kind: 'device', Id: freshId, What: 'change', By: 'Pia Tester' });
    await quiet();
    expect(onB.changes).toEqual([]);
    expect(tenantA.changes).toEqual([]);
  });

  test('who may read is asked again for every change: a person who leaves the centre stops reaching the ARC manager who had them open', async () => {
    const admin = await person(tdb.db, config, ['SuperAdminRole'], 'Olga');
    const manager = await person(tdb.db, config, ['ArcManagerRole'], 'Pete');
    const staff = await person(tdb.db, config, ['ArcControllerRole'], 'Quinn');
    const m = await connect(node, manager, conns);
    const a = await connect(node, admin, conns);
    expect((await open(m, 'person', staff.id)).Open).toBe(true);
    expect((await open(a, 'person', staff.id)).Open).toBe(true);
    const etagOf = async () => (await tdb.db.selectFrom('persons').select('etag').where('id', '=', staff.id).executeTakeFirstOrThrow()).etag;
    const update = async (roleIds: string[]) =>
      call(node, 'PUT', `/api/v1/person/${staff.id}/identity-update`, admin.token, {
        personId: staff.id,
        person: { firstName: 'Quinn', lastName: 'Tester', emailAddress: (await emailOf(tdb.db, staff.id)) ?? '', roleIds, etag: await etagOf() },
      });
    // still ARC staff: the manager may read the person, and hears of the change
    expect((await update([ROLE_IDS.ArcSupervisorRole])).status).toBe(200);
    await until(() => m.changes.length === 1 && a.changes.length === 1);
    // now a read-only provider admin: no longer the centre's staff, so no longer the manager's to see
    expect((await update([ROLE_IDS.SuperAdminReadonlyRole])).status).toBe(200);
    await until(() => a.changes.length === 2);
    await quiet();
    expect(m.changes).toHaveLength(1);
    expect((await call(node, 'GET', `/persons/get-by-id?Id=${staff.id}`, manager.token)).status).toBe(404);
  });

  test('after sign-out the connection ends, and with it the open record and the presence', async () => {
    const hash = await hashPassword(PASSWORD);
    const email = `mona-${randomUUID().slice(0, 8)}@record-live.test`;
    const monaId = await insertPerson(tdb.db, { email, roles: ['ArcSupervisorRole'], passwordHash: hash, firstName: 'Mona', lastName: 'Tester' });
    const base = `http://127.0.0.1:${node.srv.port}`;
    const form = (path: string, body: Record<string, string>) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() });
    const signIn = await form('/connect/token', { grant_type: 'password', ...CLIENT, username: email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const s = (await signIn.json()) as { access_token: string; refresh_token: string };
    const writer = await person(tdb.db, config, ['ArcControllerRole'], 'Ned');
    const mona = await connect(node, { id: monaId, token: s.access_token }, conns);
    const ned = await connect(node, writer, conns);
    expect((await open(mona, 'alarm-report', reportA)).Open).toBe(true);
    expect((await open(ned, 'alarm-report', reportA)).Present).toContain('Mona Tester');

    expect((await form('/connect/revocation', { token: s.refresh_token, token_type_hint: 'refresh_token', ...CLIENT })).status).toBe(200);
    await until(() => mona.closed(), 5_000);
    await until(() => !(lastPresence(ned) ?? ['x']).includes('Mona Tester'));
    const seen = mona.changes.length;
    expect((await call(node, 'POST', '/alarm-report/add-note', writer.token, { alarmReportId: reportA, note: 'After the sign-out.' })).status).toBe(200);
    await quiet();
    expect(mona.changes).toHaveLength(seen);
    expect(ned.changes.at(-1)).toMatchObject({ Note: { Note: 'After the sign-out.' } });
  });
});

async function emailOf(db: DB, personId: string) {
  return (await db.selectFrom('persons').select('email').where('id', '=', personId).executeTakeFirst())?.email;
}

async function alarmIdOf(db: DB, reportId: string) {
  return (await db.selectFrom('alarmReports').select('alarmId').where('id', '=', reportId).executeTakeFirstOrThrow()).alarmId;
}

describe.skipIf(!REDIS_URL)('two nodes behind Redis (TEST_REDIS_URL)', () => {
  let tdb: TestDb;
  let config: Config;
  const nodes: Node[] = [];
  const conns: HubConnection[] = [];
  let report: string;
  beforeAll(async () => {
    tdb = await createTestDb();
    config = testConfig({ hubChannelPrefix: `test-record-live-${randomUUID()}` });
    await startRedisNodes(nodes, tdb.db, config, REDIS_URL!);
    const customer = await insertCustomer(tdb.db, randomUUID(), 'Record Live Cluster');
    report = (await insertAlarmReport(tdb.db, { customerId: customer.id })).id;
  });
  afterAll(async () => {
    await stopNodes(nodes, conns);
    await tdb?.close();
  });

  test('a note written on node A reaches a tab on node B within 2 s; presence joins and leaves across nodes', async () => {
    const alice = await person(tdb.db, config, ['ArcSupervisorRole'], 'Alice');
    const bob = await person(tdb.db, config, ['ArcControllerRole'], 'Bob');
    const onB = await connect(nodes[1]!, alice, conns);
    const onA = await connect(nodes[0]!, bob, conns);
    expect((await open(onB, 'alarm-report', report)).Open).toBe(true);
    expect(await open(onA, 'alarm-report', report)).toMatchObject({ Open: true, Present: ['Alice Tester'] });
    await until(() => lastPresence(onB)?.[0] === 'Bob Tester');

    const t0 = Date.now();
    expect((await call(nodes[0]!, 'POST', '/alarm-report/add-note', bob.token, { alarmReportId: report, note: 'Across nodes.' })).status).toBe(200);
    await until(() => onB.changes.length === 1);
    console.log('note to a tab on the other node (ms):', Date.now() - t0);
    expect(onB.changes[0]).toMatchObject({ What: 'note', By: 'Bob Tester', Note: { Note: 'Across nodes.' } });

    // Bob's connection ends (tab closed, network gone): Alice on the other node sees him leave
    await onA.conn.stop();
    await until(() => lastPresence(onB)?.length === 0);
  });
});
