// Allocating devices to a customer (spec document 2 §4 "Allocation rows", §5 "Allocation", §7
// allocate-many, import devices-to-allocate, get-device-list) on SQLite and, with TEST_DB=pg,
// PostgreSQL: all or nothing (one stale etag or one ineligible device → nothing allocated), the
// per-type quota (purchased minus allocated) refused unless forced, the stored result, the
// customer's device list and export, and the CSV import's rules.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readXlsx } from '../helpers/xlsx.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { deviceRow, errorOf, insertCustomer, ok } from '../helpers/customers.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { DEVICE_CODE, DEVICE_TEXT, type BulkChangeResponse, type DeviceList, type DeviceMany } from '../../src/shared/schemas/devices.js';
import { CUSTOMER_CODE, CUSTOMER_TEXT } from '../../src/shared/schemas/customers.js';
import type { CustomerTable, DeviceTable } from '../../src/server/db/schema.js';

let t: TestApp;
let admin: string;
let cust: CustomerTable;
let other: CustomerTable;
const stock: DeviceTable[] = [];
let held: DeviceTable;

beforeAll(async () => {
  t = await createTestApp({ now: () => new Date('2026-11-22T12:00:00.000Z') });
  admin = await tokenFor(t.config, ['SuperAdminRole']);
  cust = await insertCustomer(t.db, { name: 'Allocate Ltd' });
  other = await insertCustomer(t.db, { name: 'Other Ltd' });
  // Quota: SG620 purchased 5 with 1 already allocated → 4 left; SG750 purchased 10, none allocated.
  await t.db
    .insertInto('deviceSubscriptions')
    .values([
      { customerId: cust.id, deviceType: 620, purchased: 5 },
      { customerId: cust.id, deviceType: 750, purchased: 10 },
    ])
    .execute();
  held = deviceRow({ serialNumber: 'HELD-0001', type: 620, status: 3, customerId: cust.id });
  for (let i = 0; i < 6; i++) stock.push(deviceRow({ serialNumber: `STOCK-620-${i}`, type: 620, status: i === 5 ? 5 : 1 }));
  for (let i = 0; i < 3; i++) stock.push(deviceRow({ serialNumber: `STOCK-750-${i}`, type: 750, status: 2 }));
  stock.push(deviceRow({ serialNumber: 'QUARANTINE-1', type: 750, status: 7 }));
  stock.push(deviceRow({ serialNumber: 'OTHERS-1', type: 750, status: 3, customerId: other.id }));
  await t.db
    .insertInto('devices')
    .values([held, ...stock])
    .execute();
});
afterAll(async () => {
  await t?.close();
});

const bySerial = (s: string) => stock.find((d) => d.serialNumber === s)!;
const ref = (d: DeviceTable) => ({ id: d.id, etag: d.etag, typeValue: d.type });
const allocate = async (json: Record<string, unknown>) => t.request('/api/v1/device/allocate-many', { method: 'POST', token: admin, json });
const stored = (ids: string[]) => t.db.selectFrom('devices').selectAll().where('id', 'in', ids).orderBy('serialNumber').execute();
const customerDevices = async (json: Record<string, unknown> = {}) =>
  ok<DeviceList>(await t.request(`/api/v1/customer/get-device-list/${cust.id}`, { method: 'POST', token: admin, json }));

describe('allocate-many', () => {
  test('one stale etag: 409 naming it, nothing allocated', async () => {
    const a = bySerial('STOCK-620-0');
    const b = bySerial('STOCK-750-0');
    const res = await allocate({ customerId: cust.id, orderNumber: 'PO-1', devices: [ref(a), { ...ref(b), etag: '"stale"' }] });
    expect(res.status).toBe(409);
    const e = await errorOf(res);
    expect(e).toMatchObject({ Code: CODE.conflict, Errors: { [b.id]: DEVICE_TEXT.stale } });
    expect((await stored([a.id, b.id])).map((d) => [d.status, d.customerId])).toEqual([
      [1, null],
      [2, null],
    ]);
    // A type other than the one the page showed counts as stale too; an unknown id as missing.
    const typed = await allocate({
      customerId: cust.id,
      devices: [
        { ...ref(a), typeValue: 750 },
        { id: randomUUID(), etag: '"x"' },
      ],
    });
    expect(typed.status).toBe(409);
    expect(Object.values((await errorOf(typed)).Errors ?? {}).sort()).toEqual([DEVICE_TEXT.missing, DEVICE_TEXT.stale].sort());
  });

  test('a device that is not allocatable (status or another customer): 422, nothing allocated', async () => {
    const ok1 = bySerial('STOCK-750-1');
    const bad = [bySerial('QUARANTINE-1'), bySerial('OTHERS-1'), bySerial('STOCK-620-5')]; // quarantined, in another account, Returned is allocatable
    const res = await allocate({ customerId: cust.id, devices: [ref(ok1), ...bad.map(ref)] });
    expect(res.status).toBe(422);
    const e = await errorOf(res);
    expect(e.Code).toBe(DEVICE_CODE.notEligible);
    expect(Object.keys(e.Errors ?? {}).sort()).toEqual([bad[0]!.id, bad[1]!.id].sort());
    expect(e.Message).toBe(CUSTOMER_TEXT.notAllocatableMany(2));
    expect((await stored([ok1.id]))[0]?.customerId).toBeNull();
  });

  test('over the quota with the check asked for (force: false): 422 naming the types', async () => {
    const five = [0, 1, 2, 3, 4].map((i) => ref(bySerial(`STOCK-620-${i}`)));
    const res = await allocate({ customerId: cust.id, devices: five, force: false });
    expect(res.status).toBe(422);
    const e = await errorOf(res);
    expect(e).toMatchObject({ Code: CUSTOMER_CODE.allocationExceeds, Message: CUSTOMER_TEXT.quotaExceededMany('SG620') });
    expect(e.Errors).toEqual({ '620': CUSTOMER_TEXT.quotaExceeded('SG620', 4, 5) });
    expect((await customerDevices()).generalTotalCount).toBe(1);
  });

  test('success: all allocated with the order number, new etags; they show on the customer device list', async () => {
    const devs = [bySerial('STOCK-620-0'), bySerial('STOCK-620-1'), bySerial('STOCK-750-0'), bySerial('STOCK-620-5')];
    const out = await ok<BulkChangeResponse>(await allocate({ customerId: cust.id, orderNumber: ' SO-0042 ', devices: devs.map(ref) }));
    expect(out.updated).toBe(4);
    const rows = await stored(devs.map((d) => d.id));
    for (const r of rows) expect(r).toMatchObject({ status: 3, customerId: cust.id, orderNumber: 'SO-0042' });
    expect(new Set(rows.map((r) => r.etag))).toEqual(new Set(out.devices.map((d) => d.etag)));
    const l = await customerDevices({ orderBy: 'SerialNumber' });
    expect(l.devices.map((d) => d.serialNumber)).toEqual(['HELD-0001', 'STOCK-620-0', 'STOCK-620-1', 'STOCK-620-5', 'STOCK-750-0']);
    expect(l).toMatchObject({ totalCount: 5, generalTotalCount: 5 });
    expect((await customerDevices({ deviceTypeIds: [750] })).totalCount).toBe(1);
    // Forced over the quota (620: 5 purchased, 4 now allocated, 2 asked).
    const more = [bySerial('STOCK-620-2'), bySerial('STOCK-620-3')];
    expect((await allocate({ customerId: cust.id, devices: more.map(ref), force: false })).status).toBe(422);
    expect((await ok<BulkChangeResponse>(await allocate({ customerId: cust.id, devices: more.map(ref), force: true }))).updated).toBe(2);
    const audit = await t.db.selectFrom('auditLog').selectAll().where('action', '=', 'device.allocate').where('entity', '=', 'customer').execute();
    expect(audit).toHaveLength(2);
  });

  test('no devices, unknown customer, bad body', async () => {
    const none = await allocate({ customerId: cust.id, devices: [] });
    expect(none.status).toBe(400);
    expect((await errorOf(none)).Message).toBe(MSG.noEligibleAllocation);
    const unknown = await allocate({ customerId: randomUUID(), devices: [ref(bySerial('STOCK-750-2'))] });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).Message).toBe(MSG.badUrl);
  });
});

describe('concurrent allocations', () => {
  test('the same devices sent twice at once: one request wins, the other is 409', async () => {
    const c2 = await insertCustomer(t.db, { name: 'Race Ltd' });
    await t.db.insertInto('deviceSubscriptions').values({ customerId: c2.id, deviceType: 620, purchased: 100 }).execute();
    const devs = Array.from({ length: 3 }, (_, i) => deviceRow({ serialNumber: `RACE-A-${i}`, type: 620 }));
    await t.db.insertInto('devices').values(devs).execute();
    const statuses = await Promise.all(Array.from({ length: 4 }, () => allocate({ customerId: c2.id, devices: devs.map(ref) }).then((r) => r.status)));
    expect(statuses.sort()).toEqual([200, 409, 409, 409]);
  });

  test('two allocations within the quota each but over it together: the customer row serialises them, one is refused', async () => {
    const c3 = await insertCustomer(t.db, { name: 'Quota Race Ltd' });
    await t.db.insertInto('deviceSubscriptions').values({ customerId: c3.id, deviceType: 620, purchased: 4 }).execute();
    const a = Array.from({ length: 3 }, (_, i) => deviceRow({ serialNumber: `RACE-B-${i}`, type: 620 }));
    const b = Array.from({ length: 3 }, (_, i) => deviceRow({ serialNumber: `RACE-C-${i}`, type: 620 }));
    await t.db
      .insertInto('devices')
      .values([...a, ...b])
      .execute();
    const statuses = await Promise.all([a, b].map((set) => allocate({ customerId: c3.id, devices: set.map(ref), force: false }).then((r) => r.status)));
    expect(statuses.sort()).toEqual([200, 422]);
    const n = await t.db.selectFrom('devices').select('id').where('customerId', '=', c3.id).execute();
    expect(n).toHaveLength(3);
  });
});

describe('the customer devices export', () => {
  test('an .xlsx of the customer devices matching the filters', async () => {
    const res = await t.request(`/api/v1/customer/export/device-list/${cust.id}`, { method: 'POST', token: admin, json: { deviceTypeIds: [750] } });
    expect(res.status).toBe(200);
    const [sheet] = await readXlsx(Buffer.from(await res.arrayBuffer()));
    expect((sheet?.data ?? []).slice(1).map((r) => r[0])).toEqual(['STOCK-750-0']);
  });
});

describe('import devices-to-allocate', () => {
  const upload = (content: string, name = 'devices.csv', type = 'text/csv', id = cust.id) => {
    const fd = new FormData();
    fd.append('File', new File([content], name, { type }));
    return t.request(`/api/v1/import/devices-to-allocate/${id}`, { method: 'POST', token: admin, body: fd });
  };

  test('answers the devices in file order, each once, with placeholders for unknown serials', async () => {
    const out = await ok<DeviceMany>(await upload('Type;serial number\n620;stock-750-2\n;\n620;NOPE-1\n620;STOCK-750-2\n750;QUARANTINE-1\n'));
    expect(out.devices.map((d) => [d.serialNumber, d.etag === 'not-found', d.isAllocatable])).toEqual([
      ['STOCK-750-2', false, true],
      ['NOPE-1', true, false],
      ['QUARANTINE-1', false, false],
    ]);
  });

  test('the spec CSV rules', async () => {
    const notCsv = await upload('SerialNumber\nA\n', 'devices.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(notCsv.status).toBe(415);
    expect((await errorOf(notCsv)).Message).toBe(MSG.notCsv);
    const noColumn = await upload('Serial;Type\nA;620\n');
    expect(noColumn.status).toBe(400);
    expect(await errorOf(noColumn)).toMatchObject({ Message: MSG.csvMissingColumn('SerialNumber'), Code: DEVICE_CODE.importInvalid });
    const broken = await upload('SerialNumber\n"unterminated\n');
    expect((await errorOf(broken)).Message).toBe(MSG.csvParseFailed);
    expect((await upload('SerialNumber\nA\n', 'devices.csv', 'text/csv', randomUUID())).status).toBe(404);
  });
});
