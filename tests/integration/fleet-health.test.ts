// Fleet Health against the real app on SQLite (PostgreSQL with TEST_DB=pg): each category with
// devices just inside and just outside its threshold (messages through ingestion at a fixed
// clock), the device list's fleetHealth filter holding exactly the counted devices (the asset
// list and a customer's devices), a customer's override and the provider's thresholds moving
// devices in and out, customers worst first, the roles refused, and the live sweep: two nodes
// sweeping side by side announce a change once, and nothing while the figures stay.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { insertCustomer, insertDevice } from '../helpers/live.js';
import { forgetIngestDevices, ingestMessages } from '../../src/server/modules/live/ingest.js';
import { DEVICE_MESSAGE } from '../../src/shared/schemas/live.js';
import { FLEET_CATEGORIES, FLEET_HEALTH_CHANGED_EVENT, type FleetCategory, type FleetHealthDto } from '../../src/shared/schemas/fleet.js';
import { sweepFleetHealth } from '../../src/server/modules/fleet/sweep.js';

/** Wednesday 15 July 2026, 13:00 in London (BST): London's today is 2026-07-15. */
const NOW = new Date('2026-07-15T12:00:00.000Z');
const H = 3_600_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
/** Noon in London on a July day. */
const onDay = (day: string) => `${day}T11:00:00.000Z`;

let t: TestApp;
let admin: string;
const customers: Record<'a' | 'b', { id: string }> = {} as never;

type Msg = { date: string; message: string; battery?: number | null };
type Spec = { serial: string; customer: 'a' | 'b' | null; firmware?: string; messages: Msg[]; expect: FleetCategory[]; pending?: string[] };

/** A device doing all it should: a check-in and a charge within the hour. */
const fine = (extra: Msg[] = []): Msg[] => [
  { date: ago(2 * H), message: DEVICE_MESSAGE.charging, battery: 60 },
  { date: ago(1 * H), message: DEVICE_MESSAGE.checkIn, battery: 80 },
  ...extra,
];

const SPECS: Spec[] = [
  { serial: 'FH-FINE', customer: 'a', messages: fine(), expect: [] },
  // silent: no message for longer than 24 hours
  {
    serial: 'FH-SILENT-IN',
    customer: 'a',
    messages: [
      { date: ago(24 * H + 1), message: DEVICE_MESSAGE.checkIn, battery: 80 },
      { date: ago(25 * H), message: DEVICE_MESSAGE.charging },
    ],
    expect: ['silent'],
  },
  {
    serial: 'FH-SILENT-OUT',
    customer: 'a',
    messages: [
      { date: ago(24 * H), message: DEVICE_MESSAGE.checkIn, battery: 80 },
      { date: ago(25 * H), message: DEVICE_MESSAGE.charging },
    ],
    expect: [],
  },
  { serial: 'FH-NEVER', customer: 'b', messages: [], expect: ['silent', 'unused'] },
  // not charged: last battery at or below 20 % and no charge on the last 3 London days (13–15 July)
  {
    serial: 'FH-FLAT-IN',
    customer: 'a',
    messages: [
      { date: onDay('2026-07-12'), message: DEVICE_MESSAGE.charging, battery: 90 },
      { date: ago(H), message: DEVICE_MESSAGE.checkIn, battery: 20 },
    ],
    expect: ['notCharged'],
  },
  {
    serial: 'FH-FLAT-OUT-DAY',
    customer: 'a',
    messages: [
      { date: onDay('2026-07-13'), message: DEVICE_MESSAGE.charging, battery: 90 },
      { date: ago(H), message: DEVICE_MESSAGE.checkIn, battery: 20 },
    ],
    expect: [],
  },
  {
    serial: 'FH-FLAT-OUT-LEVEL',
    customer: 'a',
    messages: [
      { date: onDay('2026-07-01'), message: DEVICE_MESSAGE.charging, battery: 90 },
      { date: ago(H), message: DEVICE_MESSAGE.checkIn, battery: 21 },
    ],
    expect: [],
  },
  // unused: no check-in or power-on on the last 7 London days (9–15 July)
  {
    serial: 'FH-UNUSED-IN',
    customer: 'b',
    messages: [
      { date: onDay('2026-07-08'), message: DEVICE_MESSAGE.powerOn, battery: 90 },
      { date: ago(H), message: DEVICE_MESSAGE.heartbeat, battery: 80 },
      { date: ago(2 * H), message: DEVICE_MESSAGE.charging },
    ],
    expect: ['unused'],
  },
  {
    serial: 'FH-UNUSED-OUT',
    customer: 'b',
    messages: [
      { date: onDay('2026-07-09'), message: DEVICE_MESSAGE.powerOn, battery: 90 },
      { date: ago(H), message: DEVICE_MESSAGE.heartbeat, battery: 80 },
      { date: ago(2 * H), message: DEVICE_MESSAGE.charging },
    ],
    expect: [],
  },
  // London's day, not UTC's: 23:30 UTC on 8 July is 00:30 on 9 July in London
  {
    serial: 'FH-UNUSED-BST',
    customer: 'b',
    messages: [
      { date: '2026-07-08T23:30:00.000Z', message: DEVICE_MESSAGE.checkIn, battery: 90 },
      { date: ago(H), message: DEVICE_MESSAGE.heartbeat, battery: 80 },
      { date: ago(2 * H), message: DEVICE_MESSAGE.charging },
    ],
    expect: [],
  },
  // switched off: the last message is 'Power off'
  { serial: 'FH-OFF-IN', customer: 'a', messages: fine([{ date: ago(H / 2), message: DEVICE_MESSAGE.powerOff, battery: 70 }]), expect: ['switchedOff'] },
  {
    serial: 'FH-OFF-OUT',
    customer: 'a',
    messages: fine([
      { date: ago(H / 2), message: DEVICE_MESSAGE.powerOff, battery: 70 },
      { date: ago(H / 4), message: DEVICE_MESSAGE.powerOn, battery: 70 },
    ]),
    expect: [],
  },
  // configuration not acknowledged: queued longer than 24 hours ago, not applied
  { serial: 'FH-CFG-IN', customer: 'a', messages: fine(), pending: [ago(24 * H + 1)], expect: ['configPending'] },
  { serial: 'FH-CFG-OUT', customer: 'a', messages: fine(), pending: [ago(24 * H)], expect: [] },
  // firmware behind the newest of its type (5.2.0)
  { serial: 'FH-FW-IN', customer: 'b', firmware: '5.1.4', messages: fine(), expect: ['firmwareBehind'] },
  // not allocated: never counted, whatever its state
  { serial: 'FH-STOCK', customer: null, firmware: '4.3.1', messages: [], expect: [] },
];
const ids = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  admin = await tokenFor(t.config, ['SuperAdminRole']);
  customers.a = await insertCustomer(t.db, undefined, 'Alpha Care');
  customers.b = await insertCustomer(t.db, undefined, 'Beta Works');
  await t.db
    .insertInto('deviceTypeFirmware')
    .values({ type: 640, newestVersion: '5.2.0' })
    .onConflict((oc) => oc.column('type').doUpdateSet({ newestVersion: '5.2.0' }))
    .execute();
  let n = 0;
  for (const s of SPECS) {
    const imei = `35620000000${String(++n).padStart(4, '0')}`;
    const row = await insertDevice(t.db, {
      serialNumber: s.serial,
      imei,
      type: 640,
      firmwareVersion: s.firmware ?? '5.2.0',
      status: s.customer ? 3 : 1,
      customerId: s.customer ? customers[s.customer].id : null,
    });
    ids.set(s.serial, row.id);
    for (const [i, at] of (s.pending ?? []).entries())
      await t.db
        .insertInto('desiredConfigurations')
        .values({
          id: `${s.serial}-cfg-${i}`,
          deviceId: row.id,
          payload: '{"isTrackingEnabled":true,"trackingIntervalMinutes":15}',
          requestedBy: null,
          requestedAt: at,
          appliedAt: null,
        })
        .execute();
    forgetIngestDevices();
    if (s.messages.length)
      await ingestMessages(
        t.db,
        s.messages.map((m, i) => ({
          messageId: `${s.serial}-${i}`,
          deviceIdentity: imei,
          deviceType: 640,
          date: m.date,
          message: m.message,
          battery: m.battery ?? 50,
          signal: 50,
          rawMessage: 'raw',
          properties: {},
        })),
        NOW,
      );
  }
});
afterAll(async () => {
  await t?.close();
});

const api = async <T>(path: string, init: Parameters<TestApp['request']>[1] = {}, token = admin) => {
  const res = await t.request(path, { token, ...init });
  return { status: res.status, body: (await res.json()) as T };
};
const health = async () => (await api<FleetHealthDto>('/ps-admin/fleet-health')).body;
const listed = async (category: FleetCategory, customerId?: string) => {
  const path = customerId ? `/api/v1/customer/get-device-list/${customerId}` : '/api/v1/device/get-list';
  const r = await api<{ devices: { serialNumber: string }[]; totalCount: number }>(path, { method: 'POST', json: { fleetHealth: category, pageSize: 100 } });
  expect(r.status).toBe(200);
  expect(r.body.totalCount).toBe(r.body.devices.length);
  return r.body.devices.map((d) => d.serialNumber).sort();
};
const expected = (category: FleetCategory, customer?: 'a' | 'b') =>
  SPECS.filter((s) => s.expect.includes(category) && (!customer || s.customer === customer))
    .map((s) => s.serial)
    .sort();

describe('categories at their thresholds', () => {
  test.each(FLEET_CATEGORIES)('%s: the count and the device list hold exactly the devices inside the threshold', async (category) => {
    const h = await health();
    expect(await listed(category)).toEqual(expected(category));
    expect(h.Counts[category]).toBe(expected(category).length);
    for (const c of ['a', 'b'] as const) {
      expect(await listed(category, customers[c].id)).toEqual(expected(category, c));
      expect(h.Customers.find((x) => x.CustomerId === customers[c].id)?.Counts[category] ?? 0).toBe(expected(category, c).length);
    }
  });

  test('totals: every allocated device, affected once however many categories; customers worst first', async () => {
    const h = await health();
    const allocated = SPECS.filter((s) => s.customer);
    expect(h.Devices).toBe(allocated.length);
    expect(h.Affected).toBe(allocated.filter((s) => s.expect.length).length);
    const affected = (c: 'a' | 'b') => allocated.filter((s) => s.customer === c && s.expect.length).length;
    expect(h.Customers.map((c) => [c.CustomerName, c.Affected])).toEqual(
      [
        ['Alpha Care', affected('a')],
        ['Beta Works', affected('b')],
      ].sort((x, y) => (y[1] as number) - (x[1] as number)),
    );
    expect(h.Thresholds).toEqual({ silentHours: 24, lowBattery: 20, notChargedDays: 3, unusedDays: 7, configHours: 24 });
  });
});

describe('thresholds', () => {
  test("a customer's override holds for its devices only; clearing it gives the provider's back", async () => {
    // Beta's devices count as unused after 8 days: FH-UNUSED-IN's power-on of 8 July is inside them now
    let r = await api('/ps-admin/customers/fleet-thresholds', { method: 'PUT', json: { customerId: customers.b.id, unusedDays: 8 } });
    expect(r.status).toBe(200);
    expect(await listed('unused')).toEqual(['FH-NEVER']);
    const got = await api<{ Override: Record<string, number | null>; Effective: Record<string, number> }>(
      `/ps-admin/customers/fleet-thresholds?customerId=${customers.b.id}`,
    );
    expect(got.body.Override.unusedDays).toBe(8);
    expect(got.body.Effective.unusedDays).toBe(8);
    expect(got.body.Effective.silentHours).toBe(24);
    expect((await health()).Customers.find((c) => c.CustomerId === customers.b.id)?.HasOverride).toBe(true);
    r = await api('/ps-admin/customers/fleet-thresholds', { method: 'PUT', json: { customerId: customers.b.id, unusedDays: null } });
    expect(r.status).toBe(200);
    expect(await listed('unused')).toEqual(expected('unused'));
    expect(await t.db.selectFrom('fleetThresholds').select('scope').where('scope', '=', customers.b.id).executeTakeFirst()).toBeUndefined();
  });

  test("the provider's thresholds move devices in and out, and are audited", async () => {
    const r = await api('/ps-admin/fleet-health/thresholds', {
      method: 'PUT',
      json: { silentHours: 24, lowBattery: 21, notChargedDays: 3, unusedDays: 7, configHours: 24 },
    });
    expect(r.status).toBe(200);
    expect(await listed('notCharged')).toEqual(['FH-FLAT-IN', 'FH-FLAT-OUT-LEVEL']);
    expect((await health()).Thresholds.lowBattery).toBe(21);
    const entry = await t.db
      .selectFrom('auditLog')
      .select(['details'])
      .where('action', '=', 'fleet-thresholds.update')
      .where('entityId', '=', 'fleetThresholds')
      .executeTakeFirst();
    expect(JSON.parse(entry!.details!)).toMatchObject({ after: { lowBattery: 21 } });
    await api('/ps-admin/fleet-health/thresholds', {
      method: 'PUT',
      json: { silentHours: 24, lowBattery: 20, notChargedDays: 3, unusedDays: 7, configHours: 24 },
    });
    expect(await listed('notCharged')).toEqual(expected('notCharged'));
  });

  test('a threshold out of bounds is refused with its message', async () => {
    const r = await api<{ Content: { Message: string } }>('/ps-admin/fleet-health/thresholds', {
      method: 'PUT',
      json: { silentHours: 0, lowBattery: 20, notChargedDays: 3, unusedDays: 7, configHours: 24 },
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('Silent after must be a whole number from 1 to 2160.');
  });
});

describe('roles', () => {
  test('provider staff read Fleet Health; ARC roles and customer roles are refused', async () => {
    for (const role of ['SuperAdminRole', 'SuperAdminReadonlyRole'] as const)
      expect((await api('/ps-admin/fleet-health', {}, await tokenFor(t.config, [role]))).status).toBe(200);
    for (const role of ['ArcManagerRole', 'ArcSupervisorRole', 'ArcControllerRole', 'PortalUserRole', 'AdminRole'] as const)
      expect((await api('/ps-admin/fleet-health', {}, await tokenFor(t.config, [role]))).status).toBe(403);
    const readonly = await tokenFor(t.config, ['SuperAdminReadonlyRole']);
    expect(
      (
        await api(
          '/ps-admin/fleet-health/thresholds',
          { method: 'PUT', json: { silentHours: 1, lowBattery: 1, notChargedDays: 1, unusedDays: 1, configHours: 1 } },
          readonly,
        )
      ).status,
    ).toBe(403);
    expect((await api('/ps-admin/customers/fleet-thresholds', { method: 'PUT', json: { customerId: customers.a.id, silentHours: 1 } }, readonly)).status).toBe(
      403,
    );
  });
});

describe('live', () => {
  test('two nodes sweeping side by side announce a change once; unchanged figures are not announced', async () => {
    const announced: { node: string; event: string; at: string }[] = [];
    const node = (name: string) => async (event: string, payload: { At: string }) => void announced.push({ node: name, event, at: payload.At });
    const sweep = (at: Date) => Promise.all([sweepFleetHealth(t.db, at, node('a')), sweepFleetHealth(t.db, at, node('b'))]);
    await sweep(NOW);
    expect(announced).toHaveLength(1);
    expect(announced[0]).toMatchObject({ event: FLEET_HEALTH_CHANGED_EVENT, at: NOW.toISOString() });
    // swept again with nothing changed (the devices at their thresholds cross with any time that passes)
    await sweep(NOW);
    expect(announced).toHaveLength(1);
    // an hour on: FH-SILENT-OUT (its last message exactly 24 hours old) has crossed into silent
    const later = new Date(NOW.getTime() + H);
    await sweep(later);
    expect(announced).toHaveLength(2);
    expect(announced[1]!.at).toBe(later.toISOString());
  });
});
