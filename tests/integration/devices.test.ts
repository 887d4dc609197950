// Device stock endpoints (spec document 2 §7 "Stock service") on SQLite and, with TEST_DB=pg,
// PostgreSQL: list filters, sorting, paging and counts; lookups by id, serial, ids and serials
// (placeholders for unknown serials); the general-details update with its etag; the bulk changes
// (all or nothing, stale etags and ineligible devices reported per device); the CSV import and its
// refusals; permission refusals per endpoint.
import { at } from '../helpers/lists.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { Insertable } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { deviceRow as stockDeviceRow } from '../helpers/customer-rows.js';
import { readXlsx } from '../helpers/xlsx.js';
import type { CustomerTable, DeviceTable } from '../../src/server/db/schema.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { errorBodySchema } from '../../src/shared/schemas/common.js';
import {
  DEVICE_CODE,
  DEVICE_TEXT,
  IMPORT_MAX_BYTES,
  deviceListSchema,
  placeholderDevice,
  type DeviceDto,
  type DeviceList,
} from '../../src/shared/schemas/devices.js';

let t: TestApp;
let admin: string;
let readOnly: string;
let controller: string;

const NOW = Date.now();
const iso = (daysAgo: number) => new Date(NOW - daysAgo * 86400_000).toISOString();
const acme = randomUUID();
const ids = { allocated: randomUUID(), awaiting: randomUUID(), fresh: randomUUID(), phone: randomUUID(), returned: randomUUID() };

/** A stock device received 30 days ago and updated yesterday. */
const deviceRow = (over: Partial<DeviceTable> & { serialNumber: string }) =>
  stockDeviceRow({ dateReceived: iso(30), lastUpdated: iso(1), addedToSystem: iso(30), etag: '"e0"', ...over });

beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(NOW) });
  admin = await tokenFor(t.config, ['SuperAdminRole']);
  readOnly = await tokenFor(t.config, ['SuperAdminReadonlyRole']);
  controller = await tokenFor(t.config, ['ArcControllerRole']);
  const now = new Date(NOW).toISOString();
  await t.db
    .insertInto('customers')
    .values({
      id: acme,
      tenantId: randomUUID(),
      name: 'Acme Security',
      etag: '"c"',
      deviceSubscriptionsEtag: '"d"',
      appSubscriptionsEtag: '"a"',
      createdAt: now,
      updatedAt: now,
    } as unknown as Insertable<CustomerTable>)
    .execute();
  const rows = [
    deviceRow({
      id: ids.allocated,
      serialNumber: 'ALLOC-0001',
      imei: '359000000000001',
      status: 3,
      customerId: acme,
      isUserAssigned: 1,
      orderNumber: 'PO-7',
      lastConfigurationDate: iso(0.5),
      simTypeId: 1,
      simSerial: '8944',
      phoneNumber: '+447700900001',
    }),
    deviceRow({
      id: ids.awaiting,
      serialNumber: 'AWAIT-0001',
      imei: '359000000000002',
      status: 4,
      customerId: acme,
      orderNumber: 'PO-7',
      lastConfigurationDate: iso(3),
      simTypeId: 1,
      simSerial: '8945',
      phoneNumber: '+447700900002',
    }),
    deviceRow({
      id: ids.fresh,
      serialNumber: 'NEW-0001',
      imei: '359000000000003',
      status: 1,
      type: 750,
      lastConfigurationDate: iso(60),
      simTypeId: 2,
      simSerial: '8946',
      phoneNumber: '+447700900003',
    }),
    deviceRow({ id: ids.phone, serialNumber: 'PHONE-0001', imei: '351234567890123', status: 1, type: 3, phoneNumber: '+447712345678' }),
    deviceRow({ id: ids.returned, serialNumber: 'RET-0001', imei: '359000000000005', status: 5, type: 803 }),
  ];
  for (let i = 0; i < 40; i++)
    rows.push(
      deviceRow({ serialNumber: `BULK-${String(i).padStart(4, '0')}`, imei: `35800000000${String(i).padStart(4, '0')}`, status: 2, type: i % 2 ? 620 : 750 }),
    );
  await t.db.insertInto('devices').values(rows).execute();
});
afterAll(async () => {
  await t?.close();
});

const req = (path: string, init: Parameters<TestApp['request']>[1] = {}) => t.request(path, { token: admin, ...init });
async function list(filter: Record<string, unknown>, token = admin) {
  const res = await t.request('/api/v1/device/get-list', { method: 'POST', token, json: filter });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(v.safeParse(deviceListSchema, body).success).toBe(true);
  return body as DeviceList;
}
const serials = (l: { devices: DeviceDto[] }) => l.devices.map((d) => d.serialNumber);
const stored = (id: string) => t.db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
async function errorOf(res: Response) {
  const body = await res.json();
  expect(v.safeParse(errorBodySchema, body).success, JSON.stringify(body)).toBe(true);
  return body.Content as { Message: string; Code: string; Errors?: Record<string, string> };
}

describe('get-list', () => {
  test('defaults: page 1 of 10 sorted by serial number, with totalCount and generalTotalCount', async () => {
    const l = await list({});
    expect(l.totalCount).toBe(45);
    expect(l.generalTotalCount).toBe(45);
    expect(serials(l)).toEqual([
      'ALLOC-0001',
      'AWAIT-0001',
      'BULK-0000',
      'BULK-0001',
      'BULK-0002',
      'BULK-0003',
      'BULK-0004',
      'BULK-0005',
      'BULK-0006',
      'BULK-0007',
    ]);
    const alloc = l.devices[0];
    expect(alloc).toMatchObject({
      id: ids.allocated,
      type: { value: 620, name: 'SG620' },
      status: { value: 3, name: 'Allocated' },
      customer: 'Acme Security',
      customerName: 'Acme Security',
      customerAccountId: acme,
      isUserAssigned: true,
      orderNumber: 'PO-7',
      isAllocatable: false,
    });
  });

  test('paging and descending sort', async () => {
    const p5 = await list({ page: 5, pageSize: 10 });
    expect(serials(p5)).toEqual(['BULK-0038', 'BULK-0039', 'NEW-0001', 'PHONE-0001', 'RET-0001']);
    const desc = await list({ pageSize: 25, desc: true });
    expect(serials(desc).slice(0, 3)).toEqual(['RET-0001', 'PHONE-0001', 'NEW-0001']);
    expect(desc.devices).toHaveLength(25);
  });

  test('search by serial, IMEI and phone; at least 5 characters', async () => {
    expect(serials(await list({ searchValue: 'alloc' }))).toEqual(['ALLOC-0001']);
    expect(serials(await list({ searchValue: '351234567' }))).toEqual(['PHONE-0001']);
    expect(serials(await list({ searchValue: '7712345678' }))).toEqual(['PHONE-0001']);
    expect(serials(await list({ searchValue: '07712 345678' }))).toEqual(['PHONE-0001']);
    expect(serials(await list({ searchValue: '+44 7712 345' }))).toEqual(['PHONE-0001']);
    const l = await list({ searchValue: 'BULK-003' });
    expect(l.totalCount).toBe(10);
    expect(l.generalTotalCount).toBe(45);
    const short = await req('/api/v1/device/get-list', { method: 'POST', json: { searchValue: 'abcd' } });
    expect(short.status).toBe(400);
    expect((await errorOf(short)).Message).toBe(DEVICE_TEXT.searchTooShort);
    expect((await list({ searchValue: '%%%%%' })).totalCount).toBe(0);
  });

  test('search pages in serial order both ways, whether the matches are few (sorted) or many (the serial index walked)', async () => {
    const want = Array.from({ length: 40 }, (_, i) => `BULK-${String(i).padStart(4, '0')}`);
    for (const [searchValue, matching] of [
      ['BULK-001', want.slice(10, 20)],
      ['BULK-', want],
    ] as const)
      for (const desc of [false, true]) {
        const ordered = desc ? [...matching].reverse() : matching;
        for (const page of [1, 2, 3, 4]) {
          const l = await list({ searchValue, page, pageSize: 10, orderBy: 'SerialNumber', desc });
          expect(l.totalCount).toBe(matching.length);
          expect(serials(l)).toEqual(ordered.slice((page - 1) * 10, page * 10));
        }
      }
  });

  test('type, status, order number, assigned and last config filters', async () => {
    expect((await list({ deviceTypeIds: [750] })).totalCount).toBe(21);
    expect(serials(await list({ statusIds: [3, 4] }))).toEqual(['ALLOC-0001', 'AWAIT-0001']);
    expect(serials(await list({ orderNumber: 'po-7' }))).toEqual(['ALLOC-0001', 'AWAIT-0001']);
    expect(serials(await list({ assigned: true }))).toEqual(['ALLOC-0001']);
    expect((await list({ assigned: false })).totalCount).toBe(44);
    expect(serials(await list({ lastConfig: 1 }))).toEqual(['ALLOC-0001']);
    expect(serials(await list({ lastConfig: 2 }))).toEqual(['ALLOC-0001', 'AWAIT-0001']);
    expect(serials(await list({ lastConfig: 4 }))).toEqual(['NEW-0001']);
    expect((await list({ lastConfig: 5 })).totalCount).toBe(42);
    expect(serials(await list({ statusIds: [1], deviceTypeIds: [3, 750] }))).toEqual(['NEW-0001', 'PHONE-0001']);
  });

  test('sort by a column with missing values puts them last; ties break on serial in the same direction', async () => {
    const byOrder = await list({ orderBy: 'OrderNumber', pageSize: 50 });
    expect(serials(byOrder).slice(0, 3)).toEqual(['ALLOC-0001', 'AWAIT-0001', 'BULK-0000']);
    const byOrderDesc = await list({ orderBy: 'OrderNumber', desc: true, pageSize: 50 });
    expect(serials(byOrderDesc).slice(0, 2)).toEqual(['AWAIT-0001', 'ALLOC-0001']);
    expect(serials(byOrderDesc).slice(-2)).toEqual(['BULK-0001', 'BULK-0000']);
    const byLast = await list({ orderBy: 'LastConfig', desc: true });
    expect(serials(byLast).slice(0, 3)).toEqual(['ALLOC-0001', 'AWAIT-0001', 'NEW-0001']);
    const byStatus = await list({ orderBy: 'Status', desc: true });
    expect(serials(byStatus)[0]).toBe('RET-0001');
  });

  test('bad filter values are 400 with the field named', async () => {
    for (const [body, field] of [
      [{ pageSize: 7 }, 'pageSize'],
      [{ page: 0 }, 'page'],
      [{ deviceTypeIds: [9999] }, 'deviceTypeIds.0'],
      [{ statusIds: [9] }, 'statusIds.0'],
      [{ orderBy: 'Nope' }, 'orderBy'],
      [{ lastConfig: 99 }, 'lastConfig'],
      [{ assigned: 'yes' }, 'assigned'],
    ] as const) {
      const res = await req('/api/v1/device/get-list', { method: 'POST', json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(res)).Errors).toHaveProperty(field);
    }
  });
});

describe('lookups', () => {
  test('get-by-id and get-by-serial (case-insensitive); unknown ones are 404 stock_device_not_found', async () => {
    const byId = await req(`/api/v1/device/get-by-id?id=${ids.fresh}`);
    expect(byId.status).toBe(200);
    expect(await byId.json()).toMatchObject({
      id: ids.fresh,
      serialNumber: 'NEW-0001',
      type: { value: 750, name: 'SG750' },
      simType: { value: 2, name: 'EE' },
    });
    const bySerial = await req('/api/v1/device/get-by-serial?serial=new-0001');
    expect((await bySerial.json()).id).toBe(ids.fresh);
    for (const path of [`/api/v1/device/get-by-id?id=${randomUUID()}`, '/api/v1/device/get-by-serial?serial=NOPE-1']) {
      const res = await req(path);
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toMatchObject({ Code: CODE.deviceNotFound, Message: MSG.deviceUnknown });
    }
    expect((await req('/api/v1/device/get-by-id?id=nope')).status).toBe(400);
    expect((await req('/api/v1/device/get-by-serial?serial=%20')).status).toBe(400);
  });

  test('get-list-by-ids: known ones in the order asked, each once', async () => {
    const res = await req('/api/v1/device/get-list-by-ids', { method: 'POST', json: { ids: [ids.returned, randomUUID(), ids.allocated, ids.returned] } });
    expect(serials(await res.json())).toEqual(['RET-0001', 'ALLOC-0001']);
  });

  test('get-list-by-serials: order kept, repeats once, placeholders for unknown serials', async () => {
    const res = await req('/api/v1/device/get-list-by-serials', {
      method: 'POST',
      json: { serials: ['ret-0001', 'GHOST-1', 'ALLOC-0001', 'RET-0001', ' GHOST-1 '] },
    });
    const { devices } = (await res.json()) as { devices: DeviceDto[] };
    expect(serials({ devices })).toEqual(['RET-0001', 'GHOST-1', 'ALLOC-0001']);
    expect(devices[1]).toMatchObject({
      id: 'not-found:GHOST-1',
      etag: 'not-found',
      status: { value: 0, name: 'Unknown' },
      type: { value: 0, name: 'Unknown' },
    });
  });

  test('get-list-by-serials answers each device exactly as get-list-by-ids does (its JSON is built by the database)', async () => {
    await t.db
      .insertInto('devices')
      .values([
        deviceRow({
          serialNumber: 'ODD-0001',
          type: 9999,
          status: 77,
          simTypeId: 42,
          simStatus: 'Active',
          supplier: 'Quote " back \\ slash é 😀 new\nline\ttab \u0001',
          firmwareVersion: '1.0',
        }),
        deviceRow({ serialNumber: 'ODD-0002', status: 6, simTypeId: 2, customerId: acme, isUserAssigned: 1 }),
      ])
      .execute();
    const all = await t.db.selectFrom('devices').select(['id', 'serialNumber']).orderBy('serialNumber').execute();
    const bySerials = await req('/api/v1/device/get-list-by-serials', { method: 'POST', json: { serials: all.map((d) => d.serialNumber) } });
    expect(bySerials.headers.get('content-type')).toMatch(/^application\/json/);
    const byIds = await req('/api/v1/device/get-list-by-ids', { method: 'POST', json: { ids: all.map((d) => d.id) } });
    const got = (await bySerials.json()) as { devices: DeviceDto[] };
    expect(got.devices).toHaveLength(all.length);
    expect(got).toEqual(await byIds.json());
    await t.db.deleteFrom('devices').where('serialNumber', 'like', 'ODD-%').execute();
  });

  test('a placeholder is placeholderDevice of the serial as asked, whatever its characters', async () => {
    const odd = ['GHOST "quote" \\ back', 'GHOST é 😀', "GHOST 'single'", 'GHOST\ttab'];
    const res = await req('/api/v1/device/get-list-by-serials', { method: 'POST', json: { serials: odd.map((s) => ` ${s} `) } });
    expect(((await res.json()) as { devices: DeviceDto[] }).devices).toEqual(odd.map((s) => placeholderDevice(s)));
  });

  test('more serials than one look-up takes: every one once, in the order asked', async () => {
    const many = Array.from({ length: 7500 }, (_, i) => (i % 250 === 0 ? `BULK-${String(i / 250).padStart(4, '0')}` : `MISSING-${7500 - i}`));
    const res = await req('/api/v1/device/get-list-by-serials', { method: 'POST', json: { serials: [...many, ...many.slice(0, 10)] } });
    const { devices } = (await res.json()) as { devices: DeviceDto[] };
    expect(devices.map((d) => d.serialNumber)).toEqual(many);
    expect(devices.filter((d) => d.etag !== 'not-found').map((d) => d.serialNumber)).toEqual(many.filter((s) => s.startsWith('BULK-')));
  });

  test('5,000 serials in one request', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => (i % 100 === 0 ? `BULK-${String(i / 100).padStart(4, '0')}` : `MISSING-${i}`));
    const res = await req('/api/v1/device/get-list-by-serials', { method: 'POST', json: { serials: many } });
    expect(res.status).toBe(200);
    const { devices } = (await res.json()) as { devices: DeviceDto[] };
    expect(devices).toHaveLength(5000);
    expect(devices.filter((d) => d.etag !== 'not-found')).toHaveLength(40);
    const tooMany = await req('/api/v1/device/get-list-by-serials', { method: 'POST', json: { serials: Array.from({ length: 10_001 }, (_, i) => `S${i}`) } });
    expect(tooMany.status).toBe(400);
  });
});

describe('general-details update', () => {
  const put = (id: string, json: unknown, token = admin) => t.request(`/api/v1/device/${id}/general-details`, { method: 'PUT', token, json });

  test('saves, adds the + to the phone number, answers the device with a new etag; the old etag is then stale', async () => {
    const before = await stored(ids.fresh);
    const res = await put(ids.fresh, {
      etag: before.etag,
      generalDetails: { supplier: ' New Supplier ', phoneNumber: '447700900999', imsi: '234150000000001' },
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ id: ids.fresh, supplier: 'New Supplier', phoneNumber: '+447700900999', imsi: '234150000000001' });
    expect(body.etag).not.toBe(before.etag);
    expect(await stored(ids.fresh)).toMatchObject({ supplier: 'New Supplier', phoneNumber: '+447700900999', etag: body.etag });
    const stale = await put(ids.fresh, { etag: before.etag, generalDetails: { supplier: 'Other' } });
    expect(stale.status).toBe(409);
    expect((await errorOf(stale)).Code).toBe(CODE.conflict);
    expect((await stored(ids.fresh)).supplier).toBe('New Supplier');
  });

  test('a national phone number is stored as the international number; an invalid one is refused with the message', async () => {
    const national = await put(ids.fresh, { etag: (await stored(ids.fresh)).etag, generalDetails: { phoneNumber: '07700 900123' } });
    expect(national.status).toBe(200);
    expect((await stored(ids.fresh)).phoneNumber).toBe('+447700900123');
    const bad = await put(ids.fresh, { etag: (await stored(ids.fresh)).etag, generalDetails: { phoneNumber: '0770' } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).Errors?.['generalDetails.phoneNumber']).toBe(MSG.validPhoneExample('07400 123456'));
    expect((await stored(ids.fresh)).phoneNumber).toBe('+447700900123');
  });

  test('supplier required; SIM fields required unless the type is exempt; order number only for allocated devices', async () => {
    const d = await stored(ids.fresh);
    const noSupplier = await put(ids.fresh, { etag: d.etag, generalDetails: { supplier: '' } });
    expect(noSupplier.status).toBe(400);
    expect((await errorOf(noSupplier)).Errors).toHaveProperty('generalDetails.supplier', DEVICE_TEXT.supplierRequired);
    const noSim = await put(ids.fresh, { etag: d.etag, generalDetails: { simSerial: null } });
    expect((await errorOf(noSim)).Errors).toHaveProperty('generalDetails.simSerial', DEVICE_TEXT.simSerialRequired);
    // A smartphone (type 3) is exempt: no SIM fields needed.
    const phone = await stored(ids.phone);
    expect((await put(ids.phone, { etag: phone.etag, generalDetails: { supplier: 'X' } })).status).toBe(200);
    const order = await put(ids.fresh, { etag: d.etag, generalDetails: { orderNumber: 'PO-9' } });
    expect(order.status).toBe(400);
    expect((await errorOf(order)).Message).toBe(DEVICE_TEXT.orderNumberNotEditable);
    expect((await stored(ids.fresh)).etag).toBe(d.etag);
    expect((await put(randomUUID(), { etag: '"x"', generalDetails: { supplier: 'X' } })).status).toBe(404);
    expect((await put('not-an-id', { etag: '"x"', generalDetails: { supplier: 'X' } })).status).toBe(400);
    expect((await put(ids.fresh, { generalDetails: { supplier: 'X' } })).status).toBe(400);
  });
});

describe('bulk changes: all or nothing, per-device report', () => {
  const refs = async (...list: string[]) => Promise.all(list.map(async (id) => ({ id, etag: (await stored(id)).etag })));
  const bulkIds = async (n: number) =>
    await t.db.selectFrom('devices').select(['id', 'etag']).where('serialNumber', 'like', 'BULK-%').orderBy('serialNumber').limit(n).execute();

  test('change-status-many: one stale etag changes nothing and is named; then all change with new etags', async () => {
    const three = await bulkIds(3);
    const third = at(three, 2);
    const stale = [...three.slice(0, 2), { id: third.id, etag: '"old"' }];
    const missing = randomUUID();
    const res = await req('/api/v1/device/change-status-many', { method: 'PUT', json: { status: 7, devices: [...stale, { id: missing, etag: '"x"' }] } });
    expect(res.status).toBe(409);
    const err = await errorOf(res);
    expect(err.Code).toBe(CODE.conflict);
    expect(err.Errors).toEqual({ [third.id]: DEVICE_TEXT.stale, [missing]: DEVICE_TEXT.missing });
    for (const d of three) expect((await stored(d.id)).status).toBe(2);

    const ok = await req('/api/v1/device/change-status-many', { method: 'PUT', json: { status: 7, devices: three } });
    const body = await ok.json();
    expect(ok.status, JSON.stringify(body)).toBe(200);
    expect(body.updated).toBe(3);
    for (const d of three) {
      const row = await stored(d.id);
      expect(row.status).toBe(7);
      expect(row.etag).toBe(body.devices.find((x: { id: string }) => x.id === d.id).etag);
      expect(row.etag).not.toBe(d.etag);
    }
    await req('/api/v1/device/change-status-many', { method: 'PUT', json: { status: 2, devices: body.devices } });
  });

  test('change-status-many: Allocated is not a target; leaving a customer account unassigns and removes the customer', async () => {
    const refused = await req('/api/v1/device/change-status-many', { method: 'PUT', json: { status: 3, devices: await refs(ids.returned) } });
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).Message).toBe(DEVICE_TEXT.allocatedNotTarget);
    expect((await stored(ids.returned)).status).toBe(5);
    // allocated → awaiting return keeps the customer; awaiting return → Returned removes it
    const a = await req('/api/v1/device/change-status-many', { method: 'PUT', json: { status: 10, devices: await refs(ids.allocated) } });
    expect(a.status).toBe(200);
    expect(await stored(ids.allocated)).toMatchObject({ status: 10, customerId: acme, isUserAssigned: 1 });
    const b = await req('/api/v1/device/change-status-many', { method: 'PUT', json: { status: 5, devices: await refs(ids.allocated) } });
    expect(b.status).toBe(200);
    expect(await stored(ids.allocated)).toMatchObject({ status: 5, customerId: null, isUserAssigned: 0, assignedPersonId: null });
    // put it back for the other tests
    await t.db.updateTable('devices').set({ status: 3, customerId: acme, isUserAssigned: 1 }).where('id', '=', ids.allocated).execute();
  });

  test('change-order-number-many: only devices in a customer account; an ineligible one refuses all', async () => {
    const mixed = await refs(ids.allocated, ids.awaiting, ids.returned);
    const res = await req('/api/v1/device/change-order-number-many', { method: 'PUT', json: { orderNumber: 'PO-NEW', devices: mixed } });
    expect(res.status).toBe(422);
    const err = await errorOf(res);
    expect(err.Code).toBe(DEVICE_CODE.notEligible);
    expect(err.Errors).toEqual({ [ids.returned]: DEVICE_TEXT.notEligibleOrderNumber });
    expect((await stored(ids.allocated)).orderNumber).toBe('PO-7');
    const ok = await req('/api/v1/device/change-order-number-many', { method: 'PUT', json: { orderNumber: 'PO-NEW', devices: mixed.slice(0, 2) } });
    expect(ok.status).toBe(200);
    expect((await stored(ids.allocated)).orderNumber).toBe('PO-NEW');
    expect((await stored(ids.awaiting)).orderNumber).toBe('PO-NEW');
    const empty = await req('/api/v1/device/change-order-number-many', { method: 'PUT', json: { orderNumber: ' ', devices: mixed.slice(0, 1) } });
    expect(empty.status).toBe(400);
    const none = await req('/api/v1/device/change-order-number-many', { method: 'PUT', json: { orderNumber: 'X', devices: [] } });
    expect((await errorOf(none)).Message).toBe(MSG.selectOneDevice);
  });

  test('change-device-type: blocked for devices in a customer account; unknown serials named; nothing half-done', async () => {
    const blocked = await req('/api/v1/device/change-device-type', { method: 'PUT', json: { serials: ['BULK-0010', 'alloc-0001'], newDeviceType: 640 } });
    expect(blocked.status).toBe(422);
    expect((await errorOf(blocked)).Errors).toEqual({ 'ALLOC-0001': DEVICE_TEXT.notEligibleType });
    const unknown = await req('/api/v1/device/change-device-type', { method: 'PUT', json: { serials: ['BULK-0010', 'GHOST-9'], newDeviceType: 640 } });
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ Code: CODE.deviceNotFound, Errors: { 'GHOST-9': DEVICE_TEXT.missing } });
    const b10 = await t.db.selectFrom('devices').selectAll().where('serialNumber', '=', 'BULK-0010').executeTakeFirstOrThrow();
    expect(b10.type).toBe(750);
    const ok = await req('/api/v1/device/change-device-type', { method: 'PUT', json: { serials: ['bulk-0010', 'BULK-0011'], newDeviceType: 640 } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).updated).toBe(2);
    expect((await stored(b10.id)).type).toBe(640);
    expect((await req('/api/v1/device/change-device-type', { method: 'PUT', json: { serials: ['BULK-0010'], newDeviceType: 1 } })).status).toBe(400);
  });

  test('overlapping bulk changes listed in opposite orders do not deadlock', async () => {
    for (let round = 0; round < 3; round++) {
      const list = await bulkIds(20);
      const reversed = [...list].reverse();
      const results = await Promise.all([
        req('/api/v1/device/change-status-many', { method: 'PUT', json: { status: 6, devices: list } }),
        req('/api/v1/device/change-status-many', { method: 'PUT', json: { status: 7, devices: reversed } }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    }
    await t.db.updateTable('devices').set({ status: 2 }).where('serialNumber', 'like', 'BULK-%').execute();
  });

  test('concurrent bulk changes with the same etags: exactly one wins', async () => {
    const two = await bulkIds(2);
    const results = await Promise.all(
      [5, 6, 7, 8].map((status) => req('/api/v1/device/change-status-many', { method: 'PUT', json: { status, devices: two } })),
    );
    const codes = results.map((r) => r.status).sort();
    expect(codes).toEqual([200, 409, 409, 409]);
    const after = await Promise.all(two.map((d) => stored(d.id)));
    expect(at(after, 0).status).toBe(at(after, 1).status);
    await t.db
      .updateTable('devices')
      .set({ status: 2 })
      .where(
        'id',
        'in',
        two.map((d) => d.id),
      )
      .execute();
  });
});

describe('import', () => {
  const upload = (content: BlobPart, name = 'devices.csv', type = 'text/csv', token = admin) => {
    const fd = new FormData();
    fd.append('File', new File([content], name, { type }));
    return t.request('/api/v1/import/devices', { method: 'POST', token, body: fd });
  };

  test('creates new devices, keeps known ones, answers idList in file order; comma or semicolon; empty serials skipped', async () => {
    const before = (await list({})).generalTotalCount;
    const res = await upload('Serial Number;TYPE;imei;Phone Number\nIMP-0001;620;359111111111111;07700 900555\n;620;;\nnew-0001;SG750;;\nIMP-0002;MG370;;\n');
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.created).toBe(2);
    // the serial that already existed is reported apart (and left as it is)
    expect(body.alreadyPresent).toEqual([(await stored(ids.fresh)).serialNumber]);
    // the 'All Assets' total (cached for a few seconds) counts the new devices at once
    expect(await list({})).toMatchObject({ generalTotalCount: before + 2, totalCount: before + 2 });
    expect(body.idList).toHaveLength(3);
    expect(body.idList[1]).toBe(ids.fresh);
    expect(await stored(body.idList[0])).toMatchObject({
      serialNumber: 'IMP-0001',
      type: 620,
      imei: '359111111111111',
      phoneNumber: '+447700900555', // a national number is a GB number (libphonenumber-js)
      status: 1,
    });
    expect((await stored(body.idList[2])).type).toBe(370);
    const comma = await upload('serialnumber,type\r\nIMP-0003,640\r\n');
    expect((await comma.json()).created).toBe(1);
    // the imported devices are findable by the palette search too
    const found = await req('/api/search?q=IMP-0003');
    expect(JSON.stringify(await found.json())).toContain('IMP-0003');
  });

  test('a file of serials that all exist creates nothing and says which were already present', async () => {
    const known = await stored(ids.fresh);
    const res = await upload(`SerialNumber,Type,Supplier\n${known.serialNumber},620,Changed Ltd\n${known.serialNumber.toLowerCase()},620,\n`);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ created: 0, alreadyPresent: [known.serialNumber], idList: [known.id] });
    expect((await stored(ids.fresh)).supplier).toBe(known.supplier);
  });

  test('an invalid phone number or a bidirectional control character is refused per row, with its line number; nothing is imported', async () => {
    const phone = await upload('SerialNumber,Type,PhoneNumber\nPH-0001,620,+447700900001\nPH-0002,620,12345\n');
    expect(phone.status).toBe(400);
    expect((await errorOf(phone)).Message).toBe(DEVICE_TEXT.importRow(3, DEVICE_TEXT.phoneInvalid));
    for (const [column, ch] of [
      ['SerialNumber', '\u202E'],
      ['Supplier', '\u2066'],
      ['OrderNumber', '\u202E'],
    ] as const) {
      const cells = { SerialNumber: 'BIDI-0002', Supplier: 'Acme', OrderNumber: 'PO-1' };
      cells[column] = `${cells[column]}${ch}X`;
      const res = await upload(
        `SerialNumber,Type,Supplier,OrderNumber\nBIDI-0001,620,Acme,PO-1\n${cells.SerialNumber},620,${cells.Supplier},${cells.OrderNumber}\n`,
      );
      expect(res.status, column).toBe(400);
      expect((await errorOf(res)).Message, column).toBe(DEVICE_TEXT.importRow(3, `${column}: Text must not contain bidirectional override characters.`));
    }
    const none = await t.db.selectFrom('devices').select('serialNumber').where('serialNumber', 'in', ['PH-0001', 'PH-0002', 'BIDI-0001']).execute();
    expect(none).toEqual([]);
  });

  test('refusals with the spec messages', async () => {
    const cases: [Response, number, string][] = [
      [await upload('SerialNumber,Type\nX-1,620\n', 'devices.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), 415, MSG.notCsv],
      [await upload('Serial,Type\nX-1,620\n'), 400, MSG.csvMissingColumn('SerialNumber')],
      [await upload('SerialNumber,Kind\nX-1,620\n'), 400, MSG.csvMissingColumn('Type')],
      [
        await upload(
          new Uint8Array([
            0x53, 0x65, 0x72, 0x69, 0x61, 0x6c, 0x4e, 0x75, 0x6d, 0x62, 0x65, 0x72, 0x2c, 0x54, 0x79, 0x70, 0x65, 0x0a, 0xff, 0xfe, 0x41, 0x2c, 0x36, 0x32,
            0x30, 0x0a,
          ]),
        ),
        400,
        MSG.csvParseFailed,
      ],
      [await upload('SerialNumber,Type\n"X-1,620\n'), 400, MSG.csvParseFailed],
      [await upload(''), 400, MSG.csvParseFailed],
      [await upload('SerialNumber,Type\n,620\n,\n'), 400, DEVICE_TEXT.importNoRows],
      [await upload('SerialNumber,Type\nX-1,Toaster\n'), 400, DEVICE_TEXT.importRow(2, DEVICE_TEXT.unknownType)],
    ];
    for (const [res, status, message] of cases) {
      expect(res.status, message).toBe(status);
      expect((await errorOf(res)).Message).toBe(message);
    }
    expect(await t.db.selectFrom('devices').select('id').where('serialNumber', '=', 'X-1').executeTakeFirst()).toBeUndefined();
    const noFile = await t.request('/api/v1/import/devices', { method: 'POST', token: admin, form: { File: 'SerialNumber,Type\nX-1,620' } });
    expect(noFile.status).toBe(400);
    expect((await errorOf(noFile)).Message).toBe(DEVICE_TEXT.fileRequired);
  });

  test('concurrent imports of the same new serials by four people: no 500, each serial stored once', async () => {
    const csv = 'SerialNumber,Type\n' + Array.from({ length: 50 }, (_, i) => `RACE-${i},620`).join('\n');
    // Four people (one import each at a time is the rule for one person: a second gets 429).
    const people = await Promise.all(Array.from({ length: 4 }, () => tokenFor(t.config, ['SuperAdminRole'])));
    const results = await Promise.all(people.map((token) => upload(csv, 'devices.csv', 'text/csv', token)));
    for (const r of results) expect([200, 409]).toContain(r.status);
    const created = await Promise.all(results.filter((r) => r.status === 200).map(async (r) => (await r.json()).created as number));
    expect(created.reduce((a, b) => a + b, 0)).toBe(50);
    const n = await t.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('serialNumber', 'like', 'RACE-%')
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(50);
  });

  test('a 10 MB file is refused (413) and nothing is imported', async () => {
    const line = 'BIG-000000,620\n';
    const big = 'SerialNumber,Type\n' + line.repeat(Math.ceil((10 * 1024 * 1024) / line.length));
    expect(big.length).toBeGreaterThan(IMPORT_MAX_BYTES);
    const res = await upload(big);
    expect(res.status).toBe(413);
    expect((await errorOf(res)).Message).toBe(DEVICE_TEXT.fileTooLarge);
  });
});

describe('permissions', () => {
  test('read-only staff can list and look up but not change; ARC controllers get 403 everywhere', async () => {
    expect((await list({}, readOnly)).totalCount).toBeGreaterThan(0);
    const d = await stored(ids.returned);
    const changes: [string, string, unknown][] = [
      ['PUT', `/api/v1/device/${ids.returned}/general-details`, { etag: d.etag, generalDetails: { supplier: 'Nope' } }],
      ['PUT', '/api/v1/device/change-status-many', { status: 7, devices: [{ id: d.id, etag: d.etag }] }],
      ['PUT', '/api/v1/device/change-order-number-many', { orderNumber: 'X', devices: [{ id: d.id, etag: d.etag }] }],
      ['PUT', '/api/v1/device/change-device-type', { serials: [d.serialNumber], newDeviceType: 640 }],
    ];
    for (const [method, path, json] of changes) {
      const res = await t.request(path, { method, token: readOnly, json });
      expect(res.status, path).toBe(403);
      expect((await errorOf(res)).Message).toBe(MSG.forbidden);
    }
    expect(await stored(ids.returned)).toMatchObject({ status: 5, type: 803, supplier: d.supplier, etag: d.etag });
    for (const path of ['/api/v1/device/get-list', '/api/v1/device/get-list-by-ids', '/api/v1/device/get-list-by-serials'])
      expect((await t.request(path, { method: 'POST', token: controller, json: {} })).status, path).toBe(403);
    expect((await t.request(`/api/v1/device/get-by-id?id=${ids.fresh}`, { token: controller })).status).toBe(403);
    const fd = new FormData();
    fd.append('File', new File(['SerialNumber,Type\nRO-1,620\n'], 'd.csv', { type: 'text/csv' }));
    expect((await t.request('/api/v1/import/devices', { method: 'POST', token: readOnly, body: fd })).status).toBe(403);
  });
});

describe('export', () => {
  test('the filtered export holds every matching device (not one page) as an .xlsx an independent reader opens', async () => {
    const res = await req('/api/v1/device/export/list-with-filters', { method: 'POST', json: { page: 1, pageSize: 10 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="Devices_\d{8}_\d{6}\.xlsx"$/);
    const [sheet] = await readXlsx(Buffer.from(await res.arrayBuffer()));
    const total = (
      await t.db
        .selectFrom('devices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    expect(total).toBeGreaterThan(10);
    expect((sheet?.data.length ?? 0) - 1).toBe(Number(total));
  });

  test('nothing to export: 400 with the spec message; a read-only admin may export, a controller may not', async () => {
    const none = await req('/api/v1/device/export/list-by-ids', { method: 'POST', json: { ids: [randomUUID()] } });
    expect(none.status).toBe(400);
    expect((await errorOf(none)).Message).toBe(MSG.exportPayloadEmpty);
    const ro = await tokenFor(t.config, ['SuperAdminReadonlyRole']);
    expect((await t.request('/api/v1/device/export/list-with-filters', { method: 'POST', token: ro, json: {} })).status).toBe(200);
    const arc = await tokenFor(t.config, ['ArcControllerRole']);
    expect((await t.request('/api/v1/device/export/list-with-filters', { method: 'POST', token: arc, json: {} })).status).toBe(403);
  });
});
