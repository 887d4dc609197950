// The fleet state (deviceFleetState, kept by the database's triggers) against what the device's
// tables say, on SQLite (PostgreSQL with TEST_DB=pg): random writes through the real paths —
// ingestion (out of order, duplicates, charging / check-in / power on / power off / low battery,
// acknowledged configuration changes, firmware reports raising the newest of a type), allocation,
// status changes out of and back into a customer account, configuration changes queued, the
// newest firmware rebuilt — and after each round every allocated device's state row holds exactly
// the facts of its tables, and each category holds exactly the devices the correlated definitions
// over the tables (the oracle below) select, at several instants and with a customer's override.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql, type RawBuilder } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertCustomer, insertDevice } from '../helpers/live.js';
import { forgetIngestDevices, ingestMessages } from '../../src/server/modules/live/ingest.js';
import { queueDesired } from '../../src/server/modules/live/repo.js';
import { rebuildTypeFirmware } from '../../src/server/modules/live/daily-usage.js';
import { allocateMany } from '../../src/server/modules/customers/allocation.js';
import { categoryDevices, londonToday } from '../../src/server/modules/fleet/conditions.js';
import { fleetHealth } from '../../src/server/modules/fleet/repo.js';
import { changeStatusMany, listDevices } from '../../src/server/modules/devices/repo.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import { deviceListBody } from '../../src/shared/schemas/devices.js';
import * as v from 'valibot';
import { isPostgres, type DB } from '../../src/server/db/index.js';
import { DEVICE_MESSAGE } from '../../src/shared/schemas/live.js';
import { FLEET_CATEGORIES, FLEET_DEFAULTS, type FleetCategory, type ThresholdKey } from '../../src/shared/schemas/fleet.js';

/** Tuesday 27 October 2026, 00:30 UTC: London has just left summer time (days change at midnight UTC now, 23:00 UTC before). */
const NOW = new Date('2026-10-27T00:30:00.000Z');
const H = 3_600_000;
const DEVICES = 24;
const ROUNDS = 6;

// ---------------------------------------------------------------- the oracle: the correlated definitions over the tables

function threshold(k: ThresholdKey): RawBuilder<number> {
  const col = sql.ref(`ft.${k}`);
  return sql<number>`coalesce((select ${col} from "fleetThresholds" ft where ft."scope" = d."customerId"), (select ${col} from "fleetThresholds" ft where ft."scope" = ''), ${sql.lit(FLEET_DEFAULTS[k])})`;
}
function hoursBefore(pg: boolean, now: Date, hours: RawBuilder<number>) {
  const at = now.toISOString();
  return pg
    ? sql<string>`to_char((cast(${at} as timestamptz) - ${hours} * interval '1 hour') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${at}, '-' || ${hours} || ' hours')`;
}
function firstOfLastDays(pg: boolean, now: Date, days: RawBuilder<number>) {
  const today = londonToday(now);
  return pg ? sql<string>`to_char(cast(${today} as date) - (${days} - 1), 'YYYY-MM-DD')` : sql<string>`date(${today}, '-' || (${days} - 1) || ' days')`;
}
function oracleSql(pg: boolean, category: FleetCategory, now: Date): RawBuilder<boolean> {
  switch (category) {
    case 'silent':
      return sql<boolean>`not exists (select 1 from "deviceLastMessages" lm where lm."deviceId" = d."id" and lm."date" >= ${hoursBefore(pg, now, threshold('silentHours'))})`;
    case 'notCharged':
      return sql<boolean>`(exists (select 1 from "deviceLastMessages" lm where lm."deviceId" = d."id" and lm."battery" is not null and lm."battery" <= ${threshold('lowBattery')})
        and not exists (select 1 from "deviceDailyUsage" u where u."deviceId" = d."id" and u."day" >= ${firstOfLastDays(pg, now, threshold('notChargedDays'))} and u."chargings" > 0))`;
    case 'unused':
      return sql<boolean>`not exists (select 1 from "deviceDailyUsage" u where u."deviceId" = d."id" and u."day" >= ${firstOfLastDays(pg, now, threshold('unusedDays'))} and (u."checkIns" > 0 or u."powerOns" > 0))`;
    case 'switchedOff':
      return sql<boolean>`exists (select 1 from "deviceLastMessages" lm where lm."deviceId" = d."id" and lm."message" = ${DEVICE_MESSAGE.powerOff})`;
    case 'configPending':
      return sql<boolean>`exists (select 1 from "desiredConfigurations" dc where dc."deviceId" = d."id" and dc."appliedAt" is null and dc."kind" = 'configuration' and dc."requestedAt" < ${hoursBefore(pg, now, threshold('configHours'))})`;
    case 'firmwareBehind':
      return sql<boolean>`(d."firmwareVersion" is not null and exists (select 1 from "deviceTypeFirmware" tf where tf."type" = d."type" and tf."newestVersion" <> d."firmwareVersion"))`;
  }
}
async function oracle(db: DB, category: FleetCategory, now: Date): Promise<string[]> {
  const r = await sql<{
    id: string;
  }>`select d."id" from "devices" d where d."status" = 3 and d."customerId" is not null and ${oracleSql(isPostgres(db), category, now)}`.execute(db);
  return r.rows.map((x) => x.id).sort();
}
async function fromState(db: DB, category: FleetCategory, now: Date): Promise<string[]> {
  const r = await sql<{ deviceId: string }>`select "deviceId" from (${categoryDevices(isPostgres(db), category, now)}) x`.execute(db);
  return r.rows.map((x) => x.deviceId).sort();
}

/** Each allocated device's facts, worked out in JavaScript from its tables. */
async function expectedState(db: DB) {
  const devices = await db.selectFrom('devices').select(['id', 'customerId', 'type', 'firmwareVersion', 'serialNumber', 'status']).execute();
  const last = new Map((await db.selectFrom('deviceLastMessages').selectAll().execute()).map((r) => [r.deviceId, r]));
  const usage = await db.selectFrom('deviceDailyUsage').selectAll().execute();
  const configs = await db.selectFrom('desiredConfigurations').selectAll().execute();
  const newest = new Map((await db.selectFrom('deviceTypeFirmware').selectAll().execute()).map((r) => [Number(r.type), r.newestVersion]));
  const maxDay = (id: string, f: (u: (typeof usage)[number]) => boolean) =>
    usage
      .filter((u) => u.deviceId === id && f(u))
      .map((u) => u.day)
      .sort()
      .pop() ?? '';
  return devices
    .filter((d) => Number(d.status) === 3 && d.customerId !== null)
    .map((d) => {
      const lm = last.get(d.id);
      const pending = configs
        .filter((c) => c.deviceId === d.id && c.appliedAt === null && c.kind === 'configuration')
        .map((c) => c.requestedAt)
        .sort();
      const nv = newest.get(Number(d.type));
      return {
        deviceId: d.id,
        customerId: d.customerId,
        type: Number(d.type),
        firmwareVersion: d.firmwareVersion,
        serialNumber: d.serialNumber,
        lastMessageAt: lm?.date ?? '',
        lastMessage: lm?.message ?? null,
        lastBattery: lm?.battery == null ? null : Number(lm.battery),
        lastChargedDay: maxDay(d.id, (u) => Number(u.chargings) > 0),
        lastUsedDay: maxDay(d.id, (u) => Number(u.checkIns) > 0 || Number(u.powerOns) > 0),
        configPendingSince: pending[0] ?? null,
        firmwareBehind: d.firmwareVersion !== null && nv !== undefined && nv !== d.firmwareVersion ? 1 : 0,
      };
    })
    .sort((a, b) => a.deviceId.localeCompare(b.deviceId));
}
async function storedState(db: DB) {
  const rows = await db.selectFrom('deviceFleetState').selectAll().orderBy('deviceId').execute();
  return rows
    .map((r) => ({ ...r, type: Number(r.type), lastBattery: r.lastBattery == null ? null : Number(r.lastBattery), firmwareBehind: Number(r.firmwareBehind) }))
    .sort((a, b) => a.deviceId.localeCompare(b.deviceId));
}

// ---------------------------------------------------------------- random writes through the real paths

/** mulberry32: the same stream on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let t: TestApp;
const customers: string[] = [];
const devices: { id: string; imei: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  for (const name of ['State One', 'State Two', 'State Three']) customers.push((await insertCustomer(t.db, undefined, name)).id);
  // the second customer overrides the provider's silent and unused thresholds
  await t.db
    .insertInto('fleetThresholds')
    .values({ scope: customers[1]!, silentHours: 6, lowBattery: null, notChargedDays: null, unusedDays: 2, configHours: 1, updatedAt: NOW.toISOString() })
    .execute();
  await t.db
    .insertInto('fleetThresholds')
    .values({ scope: '', silentHours: 30, lowBattery: 25, notChargedDays: 2, unusedDays: 3, configHours: 12, updatedAt: NOW.toISOString() })
    .execute();
  await t.db.insertInto('deviceTypeFirmware').values({ type: 640, newestVersion: '5.2.0' }).execute();
  for (let i = 0; i < DEVICES; i++) {
    const imei = `35630000000${String(i).padStart(4, '0')}`;
    const allocated = i % 4 !== 3;
    const row = await insertDevice(t.db, {
      serialNumber: `FS-${String(i).padStart(3, '0')}`,
      imei,
      type: 640,
      firmwareVersion: ['5.1.0', '5.2.0', null][i % 3] ?? null,
      status: allocated ? 3 : 1,
      customerId: allocated ? customers[i % 3]! : null,
    });
    devices.push({ id: row.id, imei });
  }
});
afterAll(async () => {
  await t?.close();
});

const KINDS = [
  DEVICE_MESSAGE.heartbeat,
  DEVICE_MESSAGE.checkIn,
  DEVICE_MESSAGE.powerOn,
  DEVICE_MESSAGE.powerOff,
  DEVICE_MESSAGE.charging,
  DEVICE_MESSAGE.lowBattery,
  DEVICE_MESSAGE.location,
  DEVICE_MESSAGE.configuration,
];

async function round(r: () => number, n: number) {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  // configuration changes queued for a few devices, some long ago
  const queued = devices.filter(() => r() < 0.2).map((d) => d.id);
  if (queued.length) await queueDesired(t.db, queued, 'configuration', null, null, new Date(NOW.getTime() - Math.floor(r() * 48) * H).toISOString());
  // messages, out of order, a few duplicated, some acknowledging queued changes or reporting firmware
  const pending = await t.db.selectFrom('desiredConfigurations').select(['id', 'deviceId']).where('appliedAt', 'is', null).execute();
  const batch: Record<string, unknown>[] = [];
  for (let i = 0; i < 30; i++) {
    const d = pick(devices);
    const kind = pick(KINDS);
    const properties: Record<string, unknown> = {};
    if (kind === DEVICE_MESSAGE.configuration) {
      const ids = pending.filter((p) => p.deviceId === d.id && r() < 0.7).map((p) => p.id);
      if (ids.length) properties.AppliedConfigurationIds = ids;
    }
    if (r() < 0.08) properties.FirmwareVersion = pick(['5.1.0', '5.2.0', '5.3.0', '5.2.1']);
    const m = {
      messageId: `fs-${n}-${i}`,
      deviceIdentity: d.imei,
      deviceType: 640,
      // up to 9 days back, across London midnights
      date: new Date(NOW.getTime() - Math.floor(r() * 9 * 24 * 60) * 60_000).toISOString(),
      message: kind,
      battery: r() < 0.1 ? null : Math.floor(r() * 100),
      signal: 50,
      rawMessage: 'raw',
      properties,
    };
    batch.push(m);
    if (r() < 0.1) batch.push({ ...m });
  }
  forgetIngestDevices();
  await ingestMessages(t.db, batch, NOW);
  // allocation and status changes: some leave the account, some come back, one moves to awaiting return
  const rows = await t.db.selectFrom('devices').select(['id', 'etag', 'status', 'customerId']).execute();
  const leaving = rows.filter((x) => x.customerId !== null && r() < 0.15);
  if (leaving.length)
    await t.db.transaction().execute((trx) =>
      changeStatusMany(
        trx,
        leaving.map((x) => ({ id: x.id, etag: x.etag })),
        r() < 0.5 ? 1 : 5,
        NOW,
      ),
    );
  const awaiting = rows.filter((x) => x.customerId !== null && !leaving.includes(x) && r() < 0.05);
  if (awaiting.length)
    await t.db.transaction().execute((trx) =>
      changeStatusMany(
        trx,
        awaiting.map((x) => ({ id: x.id, etag: x.etag })),
        4,
        NOW,
      ),
    );
  const fresh = await t.db.selectFrom('devices').select(['id', 'etag', 'status', 'customerId']).where('customerId', 'is', null).execute();
  const coming = fresh.filter((x) => [1, 2, 5].includes(Number(x.status)) && r() < 0.4);
  if (coming.length)
    await t.db
      .transaction()
      .execute((trx) =>
        allocateMany(
          trx,
          { devices: coming.map((x) => ({ id: x.id, etag: x.etag, typeValue: null })), customerId: pick(customers), orderNumber: null, force: true },
          NOW,
        ),
      );
  // the newest firmware of each type worked out again from the devices (as a repair does)
  if (r() < 0.3) await rebuildTypeFirmware(t.db);
}

describe('the fleet state equals its tables after random writes through the real paths', () => {
  test(`${ROUNDS} rounds: every allocated device's facts, and each category at three instants`, async () => {
    const r = random(35);
    for (let n = 0; n < ROUNDS; n++) {
      await round(r, n);
      const stored = await storedState(t.db);
      expect(stored).toEqual(await expectedState(t.db));
      for (const at of [NOW, new Date(NOW.getTime() + 30 * H), new Date(NOW.getTime() + 5 * 24 * H)]) {
        const h = await fleetHealth(t.db, at);
        for (const c of FLEET_CATEGORIES) {
          const want = await oracle(t.db, c, at);
          expect(await fromState(t.db, c, at), `${c} at ${at.toISOString()}, round ${n}`).toEqual(want);
          expect(h.Counts[c]).toBe(want.length);
        }
      }
    }
    // the writes reached every kind of fact: the test saw each category non-empty somewhere
    const seen = await Promise.all(FLEET_CATEGORIES.map(async (c) => (await oracle(t.db, c, new Date(NOW.getTime() + 30 * H))).length));
    expect(seen.filter((x) => x > 0).length).toBeGreaterThanOrEqual(5);
  });

  test("each category's drill-down pages, by number, Next and Previous, both ways, are the oracle's devices in serial order", async () => {
    const at = new Date(NOW.getTime() + 30 * H);
    const serialOf = new Map((await t.db.selectFrom('devices').select(['id', 'serialNumber']).execute()).map((d) => [d.id, d.serialNumber]));
    // pages of two devices (the API's least is 10, more than a category holds here): the repository's own paging
    const page = (category: FleetCategory, body: Record<string, unknown>) =>
      listDevices(t.db, ALL_TENANTS, { ...v.parse(deviceListBody, { fleetHealth: category, ...body }), pageSize: 2 }, at);
    let walked = 0;
    for (const category of FLEET_CATEGORIES) {
      const ascending = (await oracle(t.db, category, at)).map((id) => serialOf.get(id)!).sort();
      for (const desc of [false, true]) {
        const want = desc ? [...ascending].reverse() : ascending;
        const pages = Math.max(1, Math.ceil(want.length / 2));
        const byNumber: string[] = [];
        for (let n = 1; n <= pages; n++) {
          const p = await page(category, { page: n, desc });
          expect(p.totalCount).toBe(want.length);
          byNumber.push(...p.devices.map((d) => d.serialNumber));
        }
        expect(byNumber, `${category} by page number, desc ${desc}`).toEqual(want);
        let p = await page(category, { page: 1, desc });
        const forward = [...p.devices];
        for (let n = 2; n <= pages; n++) {
          p = await page(category, { page: n, desc, after: p.devices.at(-1)!.id });
          forward.push(...p.devices);
        }
        expect(
          forward.map((d) => d.serialNumber),
          `${category} by Next, desc ${desc}`,
        ).toEqual(want);
        const backward = [...p.devices];
        for (let n = pages - 1; n >= 1; n--) {
          p = await page(category, { page: n, desc, before: p.devices[0]!.id });
          backward.unshift(...p.devices);
        }
        expect(
          backward.map((d) => d.serialNumber),
          `${category} by Previous, desc ${desc}`,
        ).toEqual(want);
        if (pages >= 3) walked++;
      }
    }
    // the walk went through several pages for most categories
    expect(walked).toBeGreaterThanOrEqual(6);
  });

  test("a device's serial number changed in the database is the state's too (a drill-down's page order)", async () => {
    const [d] = await t.db.selectFrom('deviceFleetState').select(['deviceId', 'serialNumber']).orderBy('deviceId').limit(1).execute();
    await t.db
      .updateTable('devices')
      .set({ serialNumber: `${d!.serialNumber}-R` })
      .where('id', '=', d!.deviceId)
      .execute();
    expect(await storedState(t.db)).toEqual(await expectedState(t.db));
    expect((await t.db.selectFrom('deviceFleetState').select('serialNumber').where('deviceId', '=', d!.deviceId).executeTakeFirst())?.serialNumber).toBe(
      `${d!.serialNumber}-R`,
    );
  });

  test('a device deleted leaves the state; a daily usage row deleted (retention) moves its newest days back', async () => {
    const row = await t.db.selectFrom('deviceFleetState').select(['deviceId', 'lastChargedDay']).where('lastChargedDay', '<>', '').executeTakeFirstOrThrow();
    await t.db.deleteFrom('deviceDailyUsage').where('deviceId', '=', row.deviceId).where('day', '=', row.lastChargedDay).execute();
    expect(await storedState(t.db)).toEqual(await expectedState(t.db));
    await t.db.deleteFrom('deviceLastMessages').where('deviceId', '=', row.deviceId).execute();
    await t.db.deleteFrom('desiredConfigurations').where('deviceId', '=', row.deviceId).execute();
    expect(await storedState(t.db)).toEqual(await expectedState(t.db));
    await t.db.deleteFrom('deviceDailyUsage').where('deviceId', '=', row.deviceId).execute();
    await t.db.deleteFrom('devices').where('id', '=', row.deviceId).execute();
    const after = await storedState(t.db);
    expect(after.some((x) => x.deviceId === row.deviceId)).toBe(false);
    expect(after).toEqual(await expectedState(t.db));
  });
});
