// The asset list's counts and name sorts (POST /api/v1/device/get-list) on SQLite (PostgreSQL with
// TEST_DB=pg): totalCount and generalTotalCount come from counts kept by triggers, so after any mix
// of inserts, bulk updates, configuration dates set and cleared, and deletes — made straight in
// the database, as the seed, imports and ingestion do — they must equal a count of the rows for
// every combination of filters (a property test over random filters). Type and Status sort by the
// name the screen shows, not by the hidden code, in both directions.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { insertDevice } from '../helpers/live.js';
import { sql } from '../../src/server/db/index.js';
import { ASSET_STATUSES, DEVICE_TYPES, lookupName } from '../../src/shared/codes.js';
import { statusLabel } from '../../src/shared/name-order.js';
import type { DeviceList } from '../../src/shared/schemas/devices.js';

const NOW = new Date('2026-11-01T12:00:00.000Z');
const DAY = 86_400_000;
// codes whose numeric order is not their name order: 3 Smartphone, 10 Identicom, 15 Eview, 20 TwigEx
const TYPES = [3, 10, 15, 20];
const STATUSES = ASSET_STATUSES.map((s) => s.Value);
const AGES = [null, 0.2, 3, 20, 45, 300]; // days since the last configuration (null: never)

let t: TestApp;
let admin: string;
let serial = 0;

function rng(seed: number) {
  let x = seed;
  return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const configuredAt = (age: number | null) => (age === null ? null : new Date(NOW.getTime() - age * DAY).toISOString());

async function addDevices(n: number, r: () => number) {
  for (let i = 0; i < n; i++)
    await insertDevice(t.db, {
      serialNumber: `CNT-${String(serial++).padStart(5, '0')}`,
      type: pick(r, TYPES),
      status: pick(r, STATUSES),
      isUserAssigned: r() < 0.4 ? 1 : 0,
      lastConfigurationDate: configuredAt(pick(r, AGES)),
    });
}

const list = async (body: Record<string, unknown>) => {
  const res = await t.request('/api/v1/device/get-list', { token: admin, json: { page: 1, pageSize: 100, ...body } });
  expect(res.status).toBe(200);
  return (await res.json()) as DeviceList;
};

type Filter = { deviceTypeIds: number[]; statusIds: number[]; assigned: boolean | null; lastConfig: number };
/** The same filter counted over the rows themselves. */
async function rawCount(f: Filter): Promise<number> {
  let q = t.db.selectFrom('devices').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (f.deviceTypeIds.length) q = q.where('type', 'in', f.deviceTypeIds);
  if (f.statusIds.length) q = q.where('status', 'in', f.statusIds);
  if (f.assigned !== null) q = q.where('isUserAssigned', '=', f.assigned ? 1 : 0);
  const since = (d: number) => new Date(NOW.getTime() - d * DAY).toISOString();
  if (f.lastConfig === 1) q = q.where('lastConfigurationDate', '>=', since(1));
  if (f.lastConfig === 2) q = q.where('lastConfigurationDate', '>=', since(7));
  if (f.lastConfig === 3) q = q.where('lastConfigurationDate', '>=', since(30));
  if (f.lastConfig === 4) q = q.where('lastConfigurationDate', '<', since(30));
  if (f.lastConfig === 5) q = q.where('lastConfigurationDate', 'is', null);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

const filterArb: fc.Arbitrary<Filter> = fc.record({
  deviceTypeIds: fc.subarray(TYPES, { maxLength: 3 }),
  statusIds: fc.subarray(STATUSES, { maxLength: 3 }),
  assigned: fc.constantFrom(null, true, false),
  lastConfig: fc.constantFrom(0, 1, 2, 3, 4, 5),
});

async function expectCountsExact(runs: number) {
  const all = Number(
    (
      await t.db
        .selectFrom('devices')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  await fc.assert(
    fc.asyncProperty(filterArb, async (f) => {
      const body = await list(f);
      expect(body.generalTotalCount).toBe(all);
      expect(body.totalCount).toBe(await rawCount(f));
      expect(body.devices.length).toBe(Math.min(100, body.totalCount));
    }),
    { numRuns: runs, seed: 20261101 },
  );
}

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  admin = await tokenFor(t.config, ['SuperAdminRole']);
  await addDevices(240, rng(7));
});
afterAll(async () => {
  await t.close();
});

describe('counts kept by triggers', () => {
  test('after inserts: totalCount and generalTotalCount equal a count of the rows for random filters', async () => {
    await expectCountsExact(60);
  });

  test('after bulk updates, configuration dates set and cleared, type changes and deletes: still exact', async () => {
    const r = rng(11);
    const ids = (await t.db.selectFrom('devices').select('id').orderBy('serialNumber').execute()).map((x) => x.id);
    // multi-row statements (one statement, many groups: PostgreSQL's statement-level trigger)
    await t.db.updateTable('devices').set({ status: 3, isUserAssigned: 1 }).where('id', 'in', ids.slice(0, 60)).execute();
    await t.db.updateTable('devices').set({ lastConfigurationDate: null }).where('id', 'in', ids.slice(40, 90)).execute();
    await t.db
      .updateTable('devices')
      .set({ lastConfigurationDate: configuredAt(0.5) })
      .where('id', 'in', ids.slice(80, 130))
      .execute();
    await t.db
      .updateTable('devices')
      .set({ type: sql<number>`case when type = 3 then 15 else 3 end` })
      .where('id', 'in', ids.slice(120, 150))
      .execute();
    // a change outside the counted columns
    await t.db.updateTable('devices').set({ firmwareVersion: '9.9.9' }).where('id', 'in', ids.slice(0, 200)).execute();
    // one by one, as single changes do
    for (const id of ids.slice(150, 170))
      await t.db
        .updateTable('devices')
        .set({ status: pick(r, STATUSES), isUserAssigned: r() < 0.5 ? 1 : 0, lastConfigurationDate: configuredAt(pick(r, AGES)) })
        .where('id', '=', id)
        .execute();
    await t.db.deleteFrom('devices').where('id', 'in', ids.slice(170, 200)).execute();
    await addDevices(25, r);
    await expectCountsExact(60);
    // and the kept counts hold no group below zero
    const negative = await t.db.selectFrom('deviceCounts').selectAll().where('n', '<', 0).execute();
    expect(negative).toEqual([]);
  });
});

describe('sort by the name shown', () => {
  const names = (body: DeviceList, key: 'type' | 'status') => body.devices.map((d) => (key === 'type' ? d.type.name : statusLabel(d.status.name)));
  const inOrder = (xs: string[], desc: boolean) => {
    const sorted = [...xs].sort((a, b) => (desc ? -1 : 1) * a.localeCompare(b, 'en', { sensitivity: 'base' }));
    expect(xs).toEqual(sorted);
  };

  test('Type ascending and descending follow the type names (Eview, Identicom, Smartphone, TwigEx), ties by serial', async () => {
    for (const desc of [false, true]) {
      const body = await list({ orderBy: 'Type', desc, pageSize: 100 });
      const shown = names(body, 'type');
      inOrder(shown, desc);
      expect(new Set(shown).size).toBeGreaterThan(1);
      // ties on the serial number in the same direction
      const first = body.devices.filter((d) => d.type.name === body.devices[0]!.type.name).map((d) => d.serialNumber);
      expect(first).toEqual([...first].sort((a, b) => (desc ? b.localeCompare(a) : a.localeCompare(b))));
    }
    const asc = await list({ orderBy: 'Type', pageSize: 100, page: 1 });
    expect(asc.devices[0]!.type.name).toBe(lookupName(DEVICE_TYPES, 15)); // Eview (code 15) before Smartphone (code 3)
  });

  test('Status ascending and descending follow the labels shown (Allocated, Awaiting Return …, New, …)', async () => {
    const seen: string[] = [];
    for (const desc of [false, true]) {
      for (let page = 1; page <= 3; page++) {
        const shown = names(await list({ orderBy: 'Status', desc, page, pageSize: 100 }), 'status');
        if (!desc) seen.push(...shown);
        inOrder(shown, desc);
      }
    }
    inOrder(seen, false);
    expect(seen[0]).toBe('Allocated');
  });
});

describe('filtered pages in serial order', () => {
  test('PostgreSQL reads them from the serial index that carries the filter columns (an index-only walk); SQLite needs no such index', async () => {
    if (t.dialect !== 'pg') {
      const r = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and name like 'devices_serial_%cover_idx'`.execute(t.db);
      expect(r.rows).toHaveLength(0);
      return;
    }
    const def = await sql<{
      indexname: string;
      indexdef: string;
    }>`select indexname, indexdef from pg_indexes where indexname like 'devices_serial_%cover_idx'`.execute(t.db);
    expect(def.rows.map((r) => r.indexname)).toEqual(['devices_serial_search_cover_idx']);
    expect(def.rows[0]?.indexdef).toMatch(
      /\("serialNumber"\) INCLUDE \(status, type, "isUserAssigned", "lastConfigurationDate", "customerId", imei, "phoneNumber"\)/,
    );
    // a page in serial order without sorting (what a large table gets): an index-only walk of it
    await sql`vacuum analyze devices`.execute(t.db);
    const plan = await t.db.transaction().execute(async (trx) => {
      await sql`set local enable_sort = off`.execute(trx);
      return sql<{
        'QUERY PLAN': string;
      }>`explain select "serialNumber" from devices where status in (2, 5) order by "serialNumber" desc limit 10 offset 990`.execute(trx);
    });
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan Backward using devices_serial_search_cover_idx/);
    // a search in serial order tests serial and IMEI from the index entries, reading no row
    const search = await t.db.transaction().execute(async (trx) => {
      await sql`set local enable_sort = off`.execute(trx);
      await sql`set local enable_bitmapscan = off`.execute(trx);
      return sql<{
        'QUERY PLAN': string;
      }>`explain select "serialNumber" from devices d where lower(d."serialNumber") like '%t4%' or lower(d.imei) like '%t4%' order by "serialNumber" limit 10`.execute(
        trx,
      );
    });
    expect(search.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan using devices_serial_search_cover_idx/);
  });
});
