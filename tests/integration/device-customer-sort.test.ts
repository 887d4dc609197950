// The asset list sorted by Customer (POST /api/v1/device/get-list, orderBy Customer) on SQLite
// and, with TEST_DB=pg, PostgreSQL: devices in the order of the customer name each row shows (text
// order, as every text sort: byte order), ties by serial number in the same direction, devices
// without a customer last in both directions. The list orders by a copy of the name kept on each
// device by triggers, so the order is checked again after customers are renamed (through the API
// and straight in the database) and devices change customer (allocation and release through the
// API, multi-row updates as imports and the seed write), and over random sequences of such writes.
// The Type sort follows the type names the list shows too: the three 'badge' types by their code.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { deviceRow, insertCustomer, ok } from '../helpers/customers.js';
import { pgSelected } from '../helpers/db.js';
import { sql } from '../../src/server/db/index.js';
import type { CustomerTable, DeviceTable } from '../../src/server/db/schema.js';
import { deviceTypeDisplayName } from '../../src/shared/codes.js';
import type { BulkChangeResponse, DeviceList } from '../../src/shared/schemas/devices.js';

let t: TestApp;
let admin: string;
const customers: CustomerTable[] = [];
const devices: DeviceTable[] = [];
// equal names (two customers 'Acme'), a lower-case initial, one name the prefix of another
const NAMES = ['Acme', 'Acme', 'acme Water', 'Zenith Care', 'Harbour Logistics', 'Zenith Care North'];
const STOCK = 1;
const ALLOCATED = 3;
const RETURNED = 5;

type Shown = { serialNumber: string; customerName: string | null };

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every page of the list sorted by Customer, as the rows show it. */
async function listed(desc: boolean, pageSize: number): Promise<Shown[]> {
  const out: Shown[] = [];
  for (let page = 1; ; page++) {
    const body = await ok<DeviceList>(
      await t.request('/api/v1/device/get-list', { method: 'POST', token: admin, json: { orderBy: 'Customer', desc, page, pageSize } }),
    );
    out.push(...body.devices.map((d) => ({ serialNumber: d.serialNumber, customerName: d.customerName })));
    if (out.length >= body.totalCount || body.devices.length === 0) return out;
  }
}

/** The order the rows' names call for, from the stored devices and customers. */
async function expected(desc: boolean): Promise<Shown[]> {
  const rows = await t.db
    .selectFrom('devices as d')
    .leftJoin('customers as c', 'c.id', 'd.customerId')
    .select(['d.serialNumber', 'c.name as customerName'])
    .execute();
  const dir = desc ? -1 : 1;
  return rows.sort(
    (a, b) =>
      Number(a.customerName === null) - Number(b.customerName === null) ||
      dir * order(a.customerName ?? '', b.customerName ?? '') ||
      dir * order(a.serialNumber, b.serialNumber),
  );
}

async function expectCustomerOrder(pageSize = 25) {
  for (const desc of [false, true]) expect(await listed(desc, pageSize)).toEqual(await expected(desc));
  // what the server stored: each device's sort key is its customer's name
  const stored = await t.db
    .selectFrom('devices as d')
    .leftJoin('customers as c', 'c.id', 'd.customerId')
    .select(['d.serialNumber', 'd.customerSortName', 'c.name'])
    .execute();
  expect(stored.filter((r) => r.customerSortName !== r.name)).toEqual([]);
}

const devicesOf = (ids: string[]) => t.db.selectFrom('devices').select(['id', 'etag', 'serialNumber']).where('id', 'in', ids).orderBy('serialNumber').execute();

beforeAll(async () => {
  t = await createTestApp({ now: () => new Date('2026-11-26T12:00:00.000Z') });
  admin = await tokenFor(t.config, ['SuperAdminRole']);
  for (const name of NAMES) customers.push(await insertCustomer(t.db, { name }));
  // 48 devices: two of every customer's in one multi-row insert, the rest one by one; 12 in stock
  for (let i = 0; i < 48; i++) {
    const owner = i < 36 ? customers[i % customers.length]! : null;
    devices.push(
      deviceRow({ serialNumber: `CS-${String((i * 37) % 100).padStart(3, '0')}`, status: owner ? ALLOCATED : STOCK, customerId: owner?.id ?? null }),
    );
  }
  await t.db.insertInto('devices').values(devices.slice(0, 12)).execute();
  for (const d of devices.slice(12)) await t.db.insertInto('devices').values(d).execute();
});
afterAll(async () => {
  await t?.close();
});

describe('sorted by Customer', () => {
  test('the customer names shown, in order both ways (ties by serial, no customer last); every page of 10, 25 and 100', async () => {
    for (const size of [10, 25, 100]) await expectCustomerOrder(size);
    const asc = await listed(false, 100);
    expect(asc[0]!.customerName).toBe('Acme');
    expect(asc.slice(-12).map((r) => r.customerName)).toEqual(Array(12).fill(null));
    // byte order: the lower-case name after every capitalised one
    expect(asc.filter((r) => r.customerName).at(-1)!.customerName).toBe('acme Water');
  });

  test('after a rename through the API, a rename in the database, an allocation and a release: still in name order', async () => {
    const [acme, , , , harbour, north] = customers;
    const renamed = await t.request(`/api/v1/customer/update?customerId=${acme!.id}`, {
      method: 'PUT',
      token: admin,
      json: { customerAccount: { name: 'Yew Tree Acme', isMigratedAccount: false, customerStatus: 2 }, etag: acme!.etag },
    });
    expect(renamed.status).toBe(200);
    await t.db.updateTable('customers').set({ name: 'Abbey Harbour' }).where('id', '=', harbour!.id).execute();
    await expectCustomerOrder();
    const first = (await listed(false, 10))[0]!;
    expect(first.customerName).toBe('Abbey Harbour');

    // allocate three stock devices to 'Zenith Care North' (API), release two of acme's (API)
    const stock = await devicesOf(devices.filter((d) => d.customerId === null).map((d) => d.id));
    const allocated = await t.request('/api/v1/device/allocate-many', {
      method: 'POST',
      token: admin,
      json: { customerId: north!.id, orderNumber: 'PO-SORT-1', devices: stock.slice(0, 3).map((d) => ({ id: d.id, etag: d.etag })) },
    });
    expect(allocated.status).toBe(200);
    const acmes = await devicesOf(devices.filter((d) => d.customerId === acme!.id).map((d) => d.id));
    const released = await ok<BulkChangeResponse>(
      await t.request('/api/v1/device/change-status-many', {
        method: 'PUT',
        token: admin,
        json: { status: RETURNED, devices: acmes.slice(0, 2).map((d) => ({ id: d.id, etag: d.etag })) },
      }),
    );
    expect(released.updated).toBe(2);
    const moved = await t.db
      .selectFrom('devices')
      .select(['serialNumber', 'customerId'])
      .where(
        'id',
        'in',
        stock.slice(0, 3).map((d) => d.id),
      )
      .execute();
    expect(moved.every((d) => d.customerId === north!.id)).toBe(true);
    await expectCustomerOrder();
    const asc = await listed(false, 100);
    expect(asc.filter((r) => r.customerName === 'Yew Tree Acme')).toHaveLength(acmes.length - 2);
    expect(asc.filter((r) => r.customerName === 'Zenith Care North')).toHaveLength(6 + 3);
  });

  test('over random renames and moves between customers (single and multi-row writes): always in name order', async () => {
    const ids = devices.map((d) => d.id);
    const write = fc.oneof(
      fc.record({
        kind: fc.constant('rename' as const),
        customer: fc.nat(customers.length - 1),
        name: fc.constantFrom('Acme', 'acme', 'Beta Ltd', 'Zenith Care', 'Zenith', 'Omega Group', 'Acme '),
      }),
      fc.record({
        kind: fc.constant('move' as const),
        devices: fc.uniqueArray(fc.nat(ids.length - 1), { minLength: 1, maxLength: 8 }),
        to: fc.option(fc.nat(customers.length - 1), { nil: null }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 5 }), async (writes) => {
        for (const w of writes) {
          if (w.kind === 'rename') await t.db.updateTable('customers').set({ name: w.name }).where('id', '=', customers[w.customer]!.id).execute();
          else
            await t.db
              .updateTable('devices')
              .set({ customerId: w.to === null ? null : customers[w.to]!.id, status: w.to === null ? STOCK : ALLOCATED })
              .where(
                'id',
                'in',
                w.devices.map((i) => ids[i]!),
              )
              .execute();
        }
        await expectCustomerOrder(100);
      }),
      { numRuns: 25, seed: 20261126 },
    );
  });
});

describe('two transactions at once (PostgreSQL; SQLite has one writer)', () => {
  const keyOf = async (id: string) =>
    (await t.db.selectFrom('devices').select('customerSortName').where('id', '=', id).executeTakeFirstOrThrow()).customerSortName;
  const pause = () => new Promise((r) => setTimeout(r, 300));

  test.runIf(pgSelected())(
    'a customer renamed while a device is being allocated to it, and the other way round: the device ends with the new name',
    async () => {
      const c = await insertCustomer(t.db, { name: 'Race Before' });
      const first = deviceRow({ serialNumber: 'RACE-1' });
      const second = deviceRow({ serialNumber: 'RACE-2' });
      await t.db.insertInto('devices').values([first, second]).execute();
      // the allocation first, the rename while it is open
      await t.db.connection().execute(async (a) => {
        await sql`begin`.execute(a);
        await a.updateTable('devices').set({ customerId: c.id, status: ALLOCATED }).where('id', '=', first.id).execute();
        const rename = t.db.updateTable('customers').set({ name: 'Race After' }).where('id', '=', c.id).execute();
        await pause();
        await sql`commit`.execute(a);
        await rename;
      });
      expect(await keyOf(first.id)).toBe('Race After');
      // the rename first, the allocation while it is open
      await t.db.connection().execute(async (a) => {
        await sql`begin`.execute(a);
        await a.updateTable('customers').set({ name: 'Race Again' }).where('id', '=', c.id).execute();
        const allocation = t.db.updateTable('devices').set({ customerId: c.id, status: ALLOCATED }).where('id', '=', second.id).execute();
        await pause();
        await sql`commit`.execute(a);
        await allocation;
      });
      expect([await keyOf(first.id), await keyOf(second.id)]).toEqual(['Race Again', 'Race Again']);
      await t.db.deleteFrom('devices').where('id', 'in', [first.id, second.id]).execute();
    },
  );
});

describe('sorted by Type', () => {
  test("the badges by the names shown ('badge (140)', 'badge (42)', 'badge (52)'), both ways, ties by serial", async () => {
    const badges = [52, 140, 42, 52, 140, 42].map((type, i) => deviceRow({ serialNumber: `BADGE-${i}`, type }));
    await t.db.insertInto('devices').values(badges).execute();
    for (const desc of [false, true]) {
      const body = await ok<DeviceList>(
        await t.request('/api/v1/device/get-list', {
          method: 'POST',
          token: admin,
          json: { orderBy: 'Type', desc, deviceTypeIds: [42, 52, 140], pageSize: 10 },
        }),
      );
      const shown = body.devices.map((d) => `${deviceTypeDisplayName(d.type)} ${d.serialNumber}`);
      const asc = ['badge (140) BADGE-1', 'badge (140) BADGE-4', 'badge (42) BADGE-2', 'badge (42) BADGE-5', 'badge (52) BADGE-0', 'badge (52) BADGE-3'];
      expect(shown).toEqual(desc ? [...asc].reverse() : asc);
    }
  });
});
