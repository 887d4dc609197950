// A bulk device change shows on each device's own History panel: every device of a status, order
// number, type, configuration or allocation change gets its own audit entry with the values it had
// and the values it got, by the person who made the change (what the panel reads: the audit list
// filtered by entity and record). A refused bulk change writes no entry at all. A change of more
// devices than one insert carries still writes every entry. SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn } from '../helpers/auth.js';
import { deviceRow, insertCustomer, ok } from '../helpers/customers.js';
import type { DeviceTable } from '../../src/server/db/schema.js';
import type { AuditEntryDto, AuditListDto } from '../../src/shared/schemas/admin.js';
import { describeAuditDetails } from '../../src/shared/schemas/admin.js';

let t: TestApp;
let admin: { id: string; token: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t.db, t.config, ['SuperAdminRole'], 'bulk-history-admin@test.test');
});
afterAll(async () => {
  await t?.close();
});

async function devices(prefix: string, n: number, over: Partial<DeviceTable> = {}) {
  const rows = Array.from({ length: n }, (_, i) => deviceRow({ serialNumber: `${prefix}-${String(i).padStart(4, '0')}`, ...over }));
  for (let i = 0; i < rows.length; i += 200)
    await t.db
      .insertInto('devices')
      .values(rows.slice(i, i + 200))
      .execute();
  return rows;
}
const refs = (rows: DeviceTable[]) => rows.map((d) => ({ id: d.id, etag: d.etag }));
const send = (path: string, method: string, json: unknown) => t.request(path, { method, token: admin.token, json });
/** A device's History panel: its latest entries. */
const history = async (deviceId: string): Promise<AuditEntryDto[]> =>
  (
    await ok<AuditListDto>(
      await t.request('/ps-admin/audit/get-list', { method: 'POST', token: admin.token, json: { entity: 'device', entityId: deviceId, pageSize: 25 } }),
    )
  ).Items;
const entries = (action: string) => t.db.selectFrom('auditLog').selectAll().where('action', '=', action).where('entity', '=', 'device').orderBy('id').execute();

describe('each device of a bulk change has its own History entry', () => {
  test('status: before and after on every device, by the admin; the panel shows it', async () => {
    const [a, b, c] = await devices('HIST-STATUS', 3);
    await ok(await send('/api/v1/device/change-status-many', 'PUT', { status: 7, devices: refs([a!, b!, c!]) }));
    for (const d of [a!, b!, c!]) {
      const [latest, ...rest] = await history(d.id);
      expect(rest).toEqual([]);
      expect(latest).toMatchObject({
        Action: 'device.change-status',
        ActorId: admin.id,
        Entity: 'device',
        EntityId: d.id,
        Details: { before: { status: 1 }, after: { status: 7 } },
      });
      expect(describeAuditDetails(latest!.Details)).toBe('{"status":1} → {"status":7}');
    }
  });

  test('status out of a customer account: the customer it left is in the before values', async () => {
    const cust = await insertCustomer(t.db, { name: 'History Leaving Ltd' });
    const [d] = await devices('HIST-LEAVE', 1, { status: 3, customerId: cust.id });
    await ok(await send('/api/v1/device/change-status-many', 'PUT', { status: 5, devices: refs([d!]) }));
    expect((await history(d!.id))[0]!.Details).toEqual({ before: { status: 3, customerId: cust.id }, after: { status: 5, customerId: null } });
  });

  test('order number and type', async () => {
    const cust = await insertCustomer(t.db, { name: 'History Orders Ltd' });
    const held = await devices('HIST-ORDER', 2, { status: 3, customerId: cust.id, orderNumber: 'PO-1' });
    await ok(await send('/api/v1/device/change-order-number-many', 'PUT', { orderNumber: 'PO-2', devices: refs(held) }));
    for (const d of held)
      expect((await history(d.id))[0]).toMatchObject({
        Action: 'device.change-order-number',
        Details: { before: { orderNumber: 'PO-1' }, after: { orderNumber: 'PO-2' } },
      });

    const stock = await devices('HIST-TYPE', 2, { type: 750 });
    await ok(await send('/api/v1/device/change-device-type', 'PUT', { serials: stock.map((d) => d.serialNumber), newDeviceType: 640 }));
    for (const d of stock)
      expect((await history(d.id))[0]).toMatchObject({ Action: 'device.change-type', Details: { before: { type: 750 }, after: { type: 640 } } });
  });

  test('configuration: what the device last reported and what was requested', async () => {
    const [a, b] = await devices('HIST-CONFIG', 2, { type: 620 });
    await t.db
      .insertInto('deviceConfigurations')
      .values({
        deviceId: a!.id,
        isConnected: 1,
        lastUpdated: '2026-11-01T10:00:00.000Z',
        isTracking: 1,
        trackingSeconds: 600,
        isFallDetection: 0,
        fallDetectionSettings: null,
        firmwareVersion: null,
        sosButton: 1,
        call1Type: null,
        call1Number: null,
        call2Type: null,
        call2Number: null,
        primaryEndPoint: null,
        secondaryEndPoint: null,
        smsBackup: 0,
        etag: '"cfg"',
      })
      .execute();
    await ok(
      await send('/api/v1/device/desired-configuration', 'PUT', {
        serials: [a!.serialNumber, b!.serialNumber],
        isTrackingEnabled: true,
        trackingIntervalMinutes: 15,
      }),
    );
    expect((await history(a!.id))[0]).toMatchObject({
      Action: 'device.desired-configuration',
      Details: { before: { isTrackingEnabled: true, trackingIntervalMinutes: 10 }, after: { isTrackingEnabled: true, trackingIntervalMinutes: 15 } },
    });
    expect((await history(b!.id))[0]!.Details).toMatchObject({ before: { isTrackingEnabled: null, trackingIntervalMinutes: null } });
  });

  test('allocation to a customer: each device, and one entry on the customer', async () => {
    const cust = await insertCustomer(t.db, { name: 'History Allocation Ltd' });
    await t.db.insertInto('deviceSubscriptions').values({ customerId: cust.id, deviceType: 620, purchased: 10 }).execute();
    const stock = await devices('HIST-ALLOC', 3, { type: 620 });
    await ok(await send('/api/v1/device/allocate-many', 'POST', { customerId: cust.id, orderNumber: 'SO-9', devices: refs(stock) }));
    for (const d of stock)
      expect((await history(d.id))[0]).toMatchObject({
        Action: 'device.allocate',
        ActorId: admin.id,
        Details: { before: { status: 1, customerId: null, orderNumber: null }, after: { status: 3, customerId: cust.id, orderNumber: 'SO-9' } },
      });
    const onCustomer = await t.db.selectFrom('auditLog').select('details').where('entity', '=', 'customer').where('entityId', '=', cust.id).execute();
    expect(onCustomer.map((r) => JSON.parse(r.details))).toEqual([expect.objectContaining({ orderNumber: 'SO-9', devices: 3 })]);
  });

  test('a refused bulk change writes no entry', async () => {
    const [d, e] = await devices('HIST-REFUSED', 2);
    const before = (await entries('device.change-status')).length;
    const res = await send('/api/v1/device/change-status-many', 'PUT', { status: 7, devices: [...refs([d!]), { id: e!.id, etag: '"stale"' }] });
    expect(res.status).toBe(409);
    expect((await entries('device.change-status')).length).toBe(before);
    expect(await history(d!.id)).toEqual([]);
  });

  test('more devices than one insert carries: every one gets its entry, in the same change', async () => {
    const many = await devices('HIST-MANY', 1005);
    const before = (await entries('device.change-status')).length;
    await ok(await send('/api/v1/device/change-status-many', 'PUT', { status: 2, devices: refs(many) }));
    const written = (await entries('device.change-status')).slice(before);
    expect(written).toHaveLength(1005);
    expect(new Set(written.map((w) => w.entityId))).toEqual(new Set(many.map((d) => d.id)));
    expect(new Set(written.map((w) => w.at)).size).toBe(1);
  });
});
