// The device and customer list searches, exact, on SQLite (PostgreSQL with TEST_DB=pg). On SQLite a
// search with no other filter over every tenant is counted from the trigram table alone
// (devices_fts, customers_fts) and, when its matches are many, paged by walking the sort's index
// testing each row against the set of matches; a device search whose matches are exactly the serial
// numbers starting with its text (as typed or in capitals: 'hit-0', 'HIT-0001') is paged from that
// range of the serial index alone. All rest on the trigram table holding exactly one
// row per device (customer) under its rowid, kept by triggers, and on its MATCH finding exactly
// what the search selects. So, for searches most rows match and searches few match, with and
// without other filters, scoped and unscoped, totalCount and the rows of page 1, a middle page,
// the last page, Next and Previous (both directions) must equal a substring test over every row
// (the oracle), after inserts, key updates and deletes too; the trigram table must hold the base
// table's rowids exactly; and a row left in it without its device must show in the count (the
// comparison notices it). On PostgreSQL the same searches are counted from the search keys tables
// (deviceSearchKeys, customerSearchKeys; migration 040), which must hold exactly one row per device
// (customer) under its id with the keys the search computes, after the same writes, an id change
// and a truncate.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as v from 'valibot';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { customerRow, deviceRow } from '../helpers/customer-rows.js';
import { isPostgres, sql } from '../../src/server/db/index.js';
import { ALL_TENANTS, type TenantScope } from '../../src/server/auth/tenant-scope.js';
import { listDevices } from '../../src/server/modules/devices/repo.js';
import { ftsAloneFinds, listCustomers } from '../../src/server/modules/customers/repo.js';
import { deviceListBody } from '../../src/shared/schemas/devices.js';
import { customerListBody } from '../../src/shared/schemas/customers.js';
import { asciiLower, phoneKey, queryPhoneKey } from '../../src/server/lib/search-keys.js';

const NOW = new Date('2026-11-01T12:00:00.000Z');
let t: TestDb;
let pg = false;

beforeAll(async () => {
  t = await createTestDb();
  pg = isPostgres(t.db);
});
afterAll(async () => t?.close());

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const contains = (value: string | null | undefined, q: string) => value != null && asciiLower(value).includes(asciiLower(q));

/** The pages asked of a list for a search: 1, 2, a middle one, the last, Next from the middle one and Previous from the last. */
async function expectPagesExact<R extends { id: string }>(
  expected: string[],
  size: number,
  ask: (body: Record<string, unknown>) => Promise<{ rows: R[]; total: number }>,
  label: unknown,
) {
  const last = Math.max(1, Math.ceil(expected.length / size));
  const slice = (page: number) => expected.slice((page - 1) * size, page * size);
  const middle = Math.max(1, Math.ceil(last / 2));
  for (const page of new Set([1, 2, middle, last, last + 1])) {
    const got = await ask({ page, pageSize: size });
    expect({ label, page, total: got.total, ids: got.rows.map((r) => r.id) }).toEqual({ label, page, total: expected.length, ids: slice(page) });
  }
  if (last > 2) {
    const next = await ask({ page: middle + 1, pageSize: size, after: slice(middle).at(-1) });
    expect({ label, next: next.rows.map((r) => r.id) }).toEqual({ label, next: slice(middle + 1) });
    const previous = await ask({ page: last - 1, pageSize: size, before: slice(last)[0] });
    expect({ label, previous: previous.rows.map((r) => r.id) }).toEqual({ label, previous: slice(last - 1) });
  }
}

/**
 * Whether the trigram table holds exactly the base table's rowids (SQLite), or the search keys table
 * exactly one row per base row under its id with the keys the list's search computes (PostgreSQL).
 */
async function expectFtsRowPerRow(table: 'devices' | 'customers') {
  if (pg) {
    const keys =
      table === 'devices'
        ? sql`select id, lower("serialNumber") as a, lower(imei) as b, search_phone_key("phoneNumber") as c from devices`
        : sql`select id, lower(name) as a, lower("portalId") as b, null::text as c from customers`;
    const kept =
      table === 'devices' ? sql`select id, serial, imei, phone from "deviceSearchKeys"` : sql`select id, name, reference, null::text from "customerSearchKeys"`;
    const r = await sql<{ base: number; kept: number; missing: number; stale: number }>`select
      (select count(*) from ${sql.table(table)}) as base,
      (select count(*) from (${kept}) k) as kept,
      (select count(*) from ((${keys}) except (${kept})) x) as missing,
      (select count(*) from ((${kept}) except (${keys})) x) as stale`.execute(t.db);
    const x = r.rows[0]!;
    expect({ table, missing: Number(x.missing), stale: Number(x.stale), kept: Number(x.kept) }).toEqual({ table, missing: 0, stale: 0, kept: Number(x.base) });
    return;
  }
  const r = await sql<{ base: number; fts: number; missing: number; stale: number }>`select
    (select count(*) from ${sql.table(table)}) as base,
    (select count(*) from ${sql.table(`${table}_fts`)}) as fts,
    (select count(*) from ${sql.table(table)} where rowid not in (select rowid from ${sql.table(`${table}_fts`)})) as missing,
    (select count(*) from ${sql.table(`${table}_fts`)} where rowid not in (select rowid from ${sql.table(table)})) as stale`.execute(t.db);
  const x = r.rows[0]!;
  expect({ table, missing: Number(x.missing), stale: Number(x.stale), fts: Number(x.fts) }).toEqual({ table, missing: 0, stale: 0, fts: Number(x.base) });
}

describe('device list search', () => {
  type D = { id: string; serialNumber: string; imei: string | null; phoneNumber: string | null; type: number; customerId: string | null };
  let tenant: { id: string; tenantId: string };
  let n = 0;
  const addDevice = async (serialNumber: string, over: Partial<D> = {}) => {
    const i = n++;
    const row = deviceRow({
      serialNumber,
      type: i % 3 === 0 ? 620 : 640,
      imei: i % 4 === 0 ? `3500${String(i).padStart(11, '0')}` : null,
      phoneNumber: i % 5 === 0 ? `+44 7700 9${String(i).padStart(5, '0')}` : null,
      customerId: i % 2 === 0 ? tenant.id : null,
      ...over,
    });
    await t.db.insertInto('devices').values(row).execute();
  };

  /** The oracle: every device read, the search as substrings of serial, IMEI and phone key, in serial order. */
  async function expected(q: string, filter: { type?: number; customerId?: string; scope?: TenantScope }, orderBy: 'SerialNumber' | 'Imei', desc: boolean) {
    const all = (await t.db.selectFrom('devices').select(['id', 'serialNumber', 'imei', 'phoneNumber', 'type', 'customerId']).execute()) as D[];
    const phone = queryPhoneKey(q);
    const customerTenant = new Map([[tenant.id, tenant.tenantId]]);
    return all
      .filter((d) => contains(d.serialNumber, q) || contains(d.imei, q) || (phone !== null && phone.length >= 3 && contains(phoneKey(d.phoneNumber), phone)))
      .filter((d) => filter.type === undefined || d.type === filter.type)
      .filter((d) => filter.customerId === undefined || d.customerId === filter.customerId)
      .filter((d) => !filter.scope || filter.scope.all || (d.customerId !== null && customerTenant.get(d.customerId) === filter.scope.tenantId))
      .sort((a, b) => {
        const d = desc ? -1 : 1;
        // the IMEI sort: missing last in both directions, ties on the serial number
        const byImei = orderBy === 'Imei' ? (a.imei === null ? 1 : 0) - (b.imei === null ? 1 : 0) || d * cmp(a.imei ?? '', b.imei ?? '') : 0;
        return byImei || d * cmp(a.serialNumber, b.serialNumber);
      })
      .map((d) => d.id);
  }

  const ask =
    (q: string, filter: { type?: number; customerId?: string; scope?: TenantScope }, orderBy: 'SerialNumber' | 'Imei', desc: boolean) =>
    async (body: Record<string, unknown>) => {
      const f = v.parse(deviceListBody, { searchValue: q, orderBy, desc, ...(filter.type ? { deviceTypeIds: [filter.type] } : {}), ...body });
      const r = await listDevices(t.db, filter.scope ?? ALL_TENANTS, f, NOW, filter.customerId);
      return { rows: r.devices, total: r.totalCount };
    };

  async function expectSearchesExact() {
    const filters = [{}, { type: 620 }, { customerId: tenant.id }, { scope: { all: false, tenantId: tenant.tenantId } as TenantScope }];
    // many matches ('hit-0': half the devices; the walk), few ('HIT-0001', 'LOW-00042'; the sort), IMEI, phone
    for (const q of ['hit-0', 'HIT-0001', 'LOW-00042', '35000000', '07700 900', 'NONE-AT-ALL'])
      for (const filter of filters)
        for (const orderBy of ['SerialNumber', 'Imei'] as const)
          for (const desc of [false, true])
            await expectPagesExact(await expected(q, filter, orderBy, desc), 10, ask(q, filter, orderBy, desc), { q, filter, orderBy, desc });
    await expectFtsRowPerRow('devices');
  }

  beforeAll(async () => {
    const c = customerRow({ name: 'Search Tenant' });
    await t.db.insertInto('customers').values(c).execute();
    tenant = { id: c.id!, tenantId: c.tenantId! };
    for (let i = 0; i < 200; i++) await addDevice(`HIT-${String(i).padStart(5, '0')}`);
    for (let i = 0; i < 200; i++) await addDevice(`LOW-${String(i).padStart(5, '0')}`);
  });

  test('totalCount and pages equal the oracle for searches many and few devices match, with other filters and without', async () => {
    await expectSearchesExact();
  });

  test('after inserts, key updates (in and out of the match) and deletes: still exact', async () => {
    const ids = (await t.db.selectFrom('devices').select('id').orderBy('serialNumber').execute()).map((x) => x.id);
    // out of 'hit-0' and into it; a serial change, an IMEI and a phone number set and cleared
    await t.db
      .updateTable('devices')
      .set({ serialNumber: sql`'MOVED-' || "serialNumber"` })
      .where('id', 'in', ids.slice(0, 30))
      .execute();
    await t.db
      .updateTable('devices')
      .set({ serialNumber: sql`'HIT-0' || substr("serialNumber", 5)` })
      .where('id', 'in', ids.slice(300, 330))
      .execute();
    await t.db.updateTable('devices').set({ imei: '350000000000999' }).where('id', 'in', ids.slice(330, 335)).execute();
    await t.db.updateTable('devices').set({ imei: null, phoneNumber: null }).where('id', 'in', ids.slice(40, 60)).execute();
    await t.db.updateTable('devices').set({ firmwareVersion: '9.9.9' }).where('id', 'in', ids.slice(0, 100)).execute();
    // an id changed (the search table follows it on PostgreSQL)
    await t.db
      .updateTable('devices')
      .set({ id: sql`"id" || '-renamed'` })
      .where('id', 'in', ids.slice(200, 203))
      .execute();
    await t.db.deleteFrom('devices').where('id', 'in', ids.slice(100, 140)).execute();
    for (let i = 0; i < 25; i++) await addDevice(`HIT-9${String(i).padStart(4, '0')}`);
    await expectSearchesExact();
  });

  test('a row of the search table without its device is counted: the comparison notices it (devices_fts on SQLite, deviceSearchKeys on PostgreSQL)', async () => {
    const q = 'hit-0';
    const before = await expected(q, {}, 'SerialNumber', false);
    // a row the triggers would never leave: the count from the search table alone takes it in
    if (pg)
      await sql`insert into "deviceSearchKeys" (id, "serialNumber", serial, imei, phone) values ('stale-device', 'HIT-0STALE', 'hit-0stale', null, null)`.execute(
        t.db,
      );
    else await sql`insert into devices_fts (rowid, serial, imei, phone) values (999999999, 'HIT-0STALE', null, null)`.execute(t.db);
    try {
      const got = await ask(q, {}, 'SerialNumber', false)({ page: 1, pageSize: 10 });
      expect(got.total).toBe(before.length + 1);
      await expect(expectFtsRowPerRow('devices')).rejects.toThrow();
    } finally {
      if (pg) await sql`delete from "deviceSearchKeys" where id = 'stale-device'`.execute(t.db);
      else await sql`delete from devices_fts where rowid = 999999999`.execute(t.db);
    }
    expect((await ask(q, {}, 'SerialNumber', false)({ page: 1, pageSize: 10 })).total).toBe(before.length);
  });

  test('PostgreSQL: the devices one statement adds go into the search table in serial order', async () => {
    if (!pg) return;
    // one insert of devices whose serial numbers are out of order (a stock import of mixed types):
    // their keys lie on the table's pages in serial order, so a type's prefix reads few pages
    const serials = ['ORD-T400-0002', 'ORD-T200-0001', 'ORD-T400-0001', 'ORD-T200-0002', 'ORD-T300-0001'];
    const ids: string[] = [];
    await t.db.transaction().execute(async (tx) => {
      const rows = serials.map((serialNumber) => deviceRow({ serialNumber }));
      ids.push(...rows.map((r) => r.id));
      await tx.insertInto('devices').values(rows).execute();
      const stored = await sql<{ serialNumber: string }>`select "serialNumber" from "deviceSearchKeys" where id in (${sql.join(ids)}) order by ctid`.execute(
        tx,
      );
      expect(stored.rows.map((r) => r.serialNumber)).toEqual([...serials].sort(cmp));
    });
    await t.db.deleteFrom('devices').where('id', 'in', ids).execute();
    await expectFtsRowPerRow('devices');
  });

  test('deleting every device empties the search table (PostgreSQL: also truncate)', async () => {
    if (!pg) return;
    // in a transaction rolled back: the devices stay for the tests after this one
    const left = await t.db
      .transaction()
      .execute(async (tx) => {
        await sql`truncate devices cascade`.execute(tx);
        const n = Number((await sql<{ n: string }>`select count(*) as n from "deviceSearchKeys"`.execute(tx)).rows[0]!.n);
        throw Object.assign(new Error('rolled back'), { n });
      })
      .catch((e: Error & { n?: number }) => e.n);
    expect(left).toBe(0);
    await expectFtsRowPerRow('devices');
  });
});

describe('customer list search', () => {
  type C = { id: string; name: string; portalId: string | null; tier: number | null; tenantId: string };
  const WORDS = ['Abbey', 'Bridge', 'Copper', 'Delta', 'Elm', 'Forge', 'Grange', 'Harbour'];
  let n = 0;
  const addCustomer = async (name: string, over: Partial<C> = {}) => {
    const i = n++;
    await t.db
      .insertInto('customers')
      .values(customerRow({ name, portalId: i % 3 === 0 ? null : String(1000 + ((i * 7919) % 9000)), tier: i % 4 === 0 ? null : (i % 4) + 0, ...over }))
      .execute();
  };

  async function expected(q: string, filter: { tier?: number; scope?: TenantScope }, orderBy: 'Name' | 'Reference' | 'Tier', desc: boolean) {
    const all = (await t.db.selectFrom('customers').select(['id', 'name', 'portalId', 'tier', 'tenantId']).execute()) as C[];
    const d = desc ? -1 : 1;
    const byName = (a: C, b: C) => d * cmp(a.name, b.name) || d * cmp(a.id, b.id);
    const byReference = (a: C, b: C) =>
      (a.portalId === null ? 1 : 0) - (b.portalId === null ? 1 : 0) ||
      (a.portalId !== null && b.portalId !== null ? d * (a.portalId.length - b.portalId.length) || d * cmp(a.portalId, b.portalId) : 0) ||
      byName(a, b);
    // the Tier sort: missing last unless filtered by tier, ties on the name, then the id
    const byTier = (a: C, b: C) =>
      (filter.tier === undefined ? (a.tier === null ? 1 : 0) - (b.tier === null ? 1 : 0) : 0) || d * ((a.tier ?? 0) - (b.tier ?? 0)) || byName(a, b);
    return all
      .filter((c) => contains(c.name, q) || contains(c.portalId, q))
      .filter((c) => filter.tier === undefined || c.tier === filter.tier)
      .filter((c) => !filter.scope || filter.scope.all || c.tenantId === filter.scope.tenantId)
      .sort(orderBy === 'Name' ? byName : orderBy === 'Reference' ? byReference : byTier)
      .map((c) => c.id);
  }

  const ask =
    (q: string, filter: { tier?: number; scope?: TenantScope }, orderBy: 'Name' | 'Reference' | 'Tier', desc: boolean) =>
    async (body: Record<string, unknown>) => {
      const f = v.parse(customerListBody, { searchValue: q, orderBy, desc, ...(filter.tier ? { tierIds: [filter.tier] } : {}), ...body });
      const r = await listCustomers(t.db, filter.scope ?? ALL_TENANTS, f);
      return { rows: r.customers, total: r.totalCount };
    };

  async function expectSearchesExact() {
    const one = (await t.db.selectFrom('customers').select('tenantId').where('name', '=', 'Delta Care 0003').executeTakeFirstOrThrow()).tenantId;
    const filters = [{}, { tier: 2 }, { scope: { all: false, tenantId: one } as TenantScope }];
    // many matches ('care', 'are 0'), few ('grange care 00', '1042'), a text the trigram table alone would
    // over-count ('mason': 'Maſon' matches it there), under three characters ('ca'), none
    for (const q of ['care', 'are 0', 'grange care 00', '1042', 'mason', 'lodge', 'ca', 'nothing here'])
      for (const filter of filters)
        for (const orderBy of ['Name', 'Reference', 'Tier'] as const)
          for (const desc of [false, true])
            await expectPagesExact(await expected(q, filter, orderBy, desc), 10, ask(q, filter, orderBy, desc), { q, filter, orderBy, desc });
    await expectFtsRowPerRow('customers');
  }

  beforeAll(async () => {
    for (let i = 0; i < 240; i++) await addCustomer(`${WORDS[i % WORDS.length]} Care ${String(i).padStart(4, '0')}`);
    for (let i = 0; i < 60; i++) await addCustomer(`${WORDS[i % WORDS.length]} Lodge ${String(i).padStart(4, '0')}`);
    // the long s folds to 's' in the trigram table's MATCH, not in the LIKE (nor in PostgreSQL's lower())
    await addCustomer('Maſon Lodge');
    await addCustomer('Mason Lodge');
  });

  test('ftsAloneFinds: printable ASCII of three characters or more, without k or s', () => {
    expect(['care', 'are 0', '1042', 'CARE'].map(ftsAloneFinds)).toEqual([true, true, true, true]);
    expect(['ca', 'mason', 'Kent', 'café', 'Maſon'].map(ftsAloneFinds)).toEqual([false, false, false, false, false]);
  });

  test('totalCount and pages equal the oracle for searches many and few customers match, with other filters and without', async () => {
    await expectSearchesExact();
  });

  test('after inserts, renames (in and out of the match) and deletes: still exact', async () => {
    const ids = (await t.db.selectFrom('customers').select('id').orderBy('name').orderBy('id').execute()).map((x) => x.id);
    await t.db
      .updateTable('customers')
      .set({ name: sql`replace("name", 'Care', 'Home')` })
      .where('id', 'in', ids.slice(0, 30))
      .execute();
    await t.db
      .updateTable('customers')
      .set({ name: sql`replace("name", 'Lodge', 'Care')` })
      .where('id', 'in', ids.slice(250, 270))
      .execute();
    await t.db.updateTable('customers').set({ portalId: '91042' }).where('id', 'in', ids.slice(100, 105)).execute();
    await t.db.deleteFrom('customers').where('id', 'in', ids.slice(150, 180)).execute();
    for (let i = 0; i < 20; i++) await addCustomer(`Zephyr Care ${String(i).padStart(4, '0')}`);
    await expectSearchesExact();
  });

  test('a row of the search table without its customer is counted: the comparison notices it (customers_fts on SQLite, customerSearchKeys on PostgreSQL)', async () => {
    const before = await expected('care', {}, 'Name', false);
    if (pg) await sql`insert into "customerSearchKeys" (id, name, reference) values ('stale-customer', 'stale care', null)`.execute(t.db);
    else await sql`insert into customers_fts (rowid, name, reference) values (999999999, 'Stale Care', null)`.execute(t.db);
    try {
      expect((await ask('care', {}, 'Name', false)({ page: 1, pageSize: 10 })).total).toBe(before.length + 1);
      await expect(expectFtsRowPerRow('customers')).rejects.toThrow();
    } finally {
      if (pg) await sql`delete from "customerSearchKeys" where id = 'stale-customer'`.execute(t.db);
      else await sql`delete from customers_fts where rowid = 999999999`.execute(t.db);
    }
  });
});
