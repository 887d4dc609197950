// Daily usage (deviceDailyUsage, kept by ingestion) against the stored messages, on SQLite and on
// PostgreSQL with TEST_DB=pg: for random message streams (fast-check) cut into random batches —
// messages out of date order, the same message id again in one batch and in later ones, dates on
// both sides of London midnights and of the summer-time changeovers, batches side by side — every
// device's rows equal what a count of its stored messages by Europe/London day gives (Intl's
// calendar, not the code's), and counting them again from the messages (the seed's and migration's
// statement) gives the same rows. Also the day edges of British Summer Time one by one, the
// configuration-waiting flag, and the newest firmware of a device type.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { insertDevice } from '../helpers/live.js';
import { forgetIngestDevices, ingestMessages } from '../../src/server/modules/live/ingest.js';
import { DAILY_USAGE_COUNTS, rebuildDailyUsage } from '../../src/server/modules/live/daily-usage.js';
import { isPostgres } from '../../src/server/db/index.js';
import { DEVICE_MESSAGE } from '../../src/shared/schemas/live.js';

let t: TestDb;
const IMEIS = ['356100000000001', '356100000000002', '356100000000003'];
const ids: string[] = [];
/** Ingestion refuses dates more than 5 minutes ahead of the clock: the clock is after every generated date. */
const NOW = new Date('2026-12-01T12:00:00.000Z');

beforeAll(async () => {
  t = await createTestDb();
  for (const [i, imei] of IMEIS.entries()) ids.push((await insertDevice(t.db, { serialNumber: `USAGE-${i}`, imei, type: 640, firmwareVersion: '4.3.1' })).id);
  forgetIngestDevices();
});
afterAll(async () => {
  await t?.close();
});

async function clear() {
  await t.db.deleteFrom('deviceDailyUsage').where('deviceId', 'in', ids).execute();
  await t.db.deleteFrom('deviceMessages').where('deviceId', 'in', ids).execute();
  await t.db.deleteFrom('deviceLastMessages').where('deviceId', 'in', ids).execute();
  await t.db.deleteFrom('desiredConfigurations').where('deviceId', 'in', ids).execute();
}

const londonDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Rows as a count of the stored messages gives them, per device and London day (Intl's calendar). */
async function expectedRows() {
  const msgs = await t.db.selectFrom('deviceMessages').select(['deviceId', 'date', 'message', 'battery']).where('deviceId', 'in', ids).execute();
  const out = new Map<string, Record<string, unknown>>();
  for (const m of msgs) {
    const day = londonDay.format(new Date(m.date));
    const key = `${m.deviceId} ${day}`;
    const r = out.get(key) ?? {
      deviceId: m.deviceId,
      day,
      firstMessageAt: m.date,
      lastMessageAt: m.date,
      messages: 0,
      ...Object.fromEntries(DAILY_USAGE_COUNTS.map(([c]) => [c, 0])),
      minBattery: null,
      configPending: 0,
    };
    r.messages = (r.messages as number) + 1;
    for (const [c, text] of DAILY_USAGE_COUNTS) if (m.message === text) r[c] = (r[c] as number) + 1;
    if (m.date < (r.firstMessageAt as string)) r.firstMessageAt = m.date;
    if (m.date > (r.lastMessageAt as string)) r.lastMessageAt = m.date;
    if (m.battery !== null && (r.minBattery === null || m.battery < (r.minBattery as number))) r.minBattery = m.battery;
    out.set(key, r);
  }
  return [...out.values()].sort(byKey);
}
const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  `${a.deviceId as string} ${a.day as string}` < `${b.deviceId as string} ${b.day as string}` ? -1 : 1;

async function storedRows() {
  const rows = await t.db.selectFrom('deviceDailyUsage').selectAll().where('deviceId', 'in', ids).execute();
  return rows
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) && k !== 'day' ? Number(v) : v])))
    .sort(byKey);
}

/** Instants near the edges: London midnights in winter and summer, and the changeovers of 2026. */
const EDGES = [
  '2026-03-28T23:59:59.999Z', // Saturday 23:59 GMT
  '2026-03-29T00:00:00.000Z', // Sunday 00:00 GMT
  '2026-03-29T01:00:00.000Z', // 02:00 BST
  '2026-03-29T22:59:59.999Z', // Sunday 23:59 BST
  '2026-03-29T23:00:00.000Z', // Monday 00:00 BST
  '2026-07-14T22:59:59.999Z',
  '2026-07-14T23:00:00.000Z',
  '2026-10-24T22:59:59.999Z', // Saturday 23:59 BST
  '2026-10-24T23:00:00.000Z', // Sunday 00:00 BST
  '2026-10-25T00:59:59.999Z', // 01:59 BST
  '2026-10-25T01:00:00.000Z', // 01:00 GMT again
  '2026-10-25T23:59:59.999Z',
  '2026-10-26T00:00:00.000Z',
].map((s) => Date.parse(s));
const TEXTS = [...Object.values(DEVICE_MESSAGE), 'Geofence exit'];

const messageArb = fc.record({
  id: fc.integer({ min: 0, max: 60 }), // a small id space: the same id again is a duplicate
  device: fc.integer({ min: 0, max: IMEIS.length - 1 }),
  edge: fc.constantFrom(...EDGES),
  offsetMs: fc.oneof(fc.constant(0), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 })),
  text: fc.constantFrom(...TEXTS),
  battery: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
});

let run = 0;
type Generated = { id: number; device: number; edge: number; offsetMs: number; text: string; battery: number | null };
function gatewayMessage(m: Generated, prefix: string) {
  return {
    messageId: `${prefix}-${m.id}`,
    deviceIdentity: IMEIS[m.device]!,
    deviceType: 640,
    date: new Date(m.edge + m.offsetMs).toISOString(),
    message: m.text,
    battery: m.battery,
    signal: 50,
    rawMessage: 'raw',
    properties: {},
  };
}

describe('daily usage equals a count of the stored messages', () => {
  test('random streams in random batches, out of order, with duplicates, across the summer-time changeovers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(messageArb, { minLength: 1, maxLength: 80 }),
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 10 }),
        fc.boolean(),
        async (stream, cuts, sideBySide) => {
          await clear();
          const prefix = `r${++run}`;
          const all = stream.map((m) => gatewayMessage(m, prefix));
          const batches: (typeof all)[] = [];
          for (let i = 0, k = 0; i < all.length; k++) {
            const n = cuts[k % cuts.length]!;
            batches.push(all.slice(i, i + n));
            i += n;
          }
          // a batch sent again (a gateway's retry): every message a duplicate
          batches.push(batches[0]!);
          if (sideBySide && isPostgres(t.db)) await Promise.all(batches.map((b) => ingestMessages(t.db, b, NOW)));
          else for (const b of batches) await ingestMessages(t.db, b, NOW);
          const expected = await expectedRows();
          expect(await storedRows()).toEqual(expected);
          await rebuildDailyUsage(t.db, isPostgres(t.db));
          expect(await storedRows()).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('days', () => {
  test('a message belongs to its Europe/London day on both sides of midnight and of each changeover', async () => {
    await clear();
    const at = (date: string, id: string, text: string = DEVICE_MESSAGE.heartbeat, battery: number | null = 50) => ({
      messageId: `edge-${id}`,
      deviceIdentity: IMEIS[0]!,
      deviceType: 640,
      date,
      message: text,
      battery,
      signal: 50,
      rawMessage: 'raw',
      properties: {},
    });
    await ingestMessages(
      t.db,
      [
        at('2026-03-29T00:00:00.000Z', 'b', DEVICE_MESSAGE.checkIn, 40), // Sunday 29 March 00:00 GMT
        at('2026-03-28T23:59:59.999Z', 'a', DEVICE_MESSAGE.heartbeat, 90), // Saturday 28 March 23:59 GMT
        at('2026-03-29T22:59:59.999Z', 'c', DEVICE_MESSAGE.charging, 20), // Sunday 29 March 23:59 BST
        at('2026-03-29T23:00:00.000Z', 'd'), // Monday 30 March 00:00 BST
        at('2026-10-24T23:00:00.000Z', 'f', DEVICE_MESSAGE.powerOn, null), // Sunday 25 October 00:00 BST
        at('2026-10-24T22:59:59.999Z', 'e'), // Saturday 24 October 23:59 BST
        at('2026-10-25T23:59:59.999Z', 'g', DEVICE_MESSAGE.powerOff, 10), // Sunday 25 October 23:59 GMT
      ],
      NOW,
    );
    // late, and a duplicate of one already stored
    await ingestMessages(
      t.db,
      [at('2026-03-29T12:00:00.000Z', 'h', DEVICE_MESSAGE.lowBattery, 5), at('2026-03-29T00:00:00.000Z', 'b', DEVICE_MESSAGE.checkIn, 40)],
      NOW,
    );
    const rows = await storedRows();
    expect(rows.map((r) => [r.day, r.messages, r.firstMessageAt, r.lastMessageAt, r.minBattery])).toEqual([
      ['2026-03-28', 1, '2026-03-28T23:59:59.999Z', '2026-03-28T23:59:59.999Z', 90],
      ['2026-03-29', 3, '2026-03-29T00:00:00.000Z', '2026-03-29T22:59:59.999Z', 5],
      ['2026-03-30', 1, '2026-03-29T23:00:00.000Z', '2026-03-29T23:00:00.000Z', 50],
      ['2026-10-24', 1, '2026-10-24T22:59:59.999Z', '2026-10-24T22:59:59.999Z', 50],
      ['2026-10-25', 2, '2026-10-24T23:00:00.000Z', '2026-10-25T23:59:59.999Z', 10],
    ]);
    const sunday = rows.find((r) => r.day === '2026-03-29')!;
    expect([sunday.checkIns, sunday.chargings, sunday.lowBatteries, sunday.heartbeats]).toEqual([1, 1, 1, 0]);
    const autumn = rows.find((r) => r.day === '2026-10-25')!;
    expect([autumn.powerOns, autumn.powerOffs]).toEqual([1, 1]);
  });
});

describe('configuration waiting and firmware', () => {
  test("a day's row says a configuration change waited for the device until the device applied it", async () => {
    await clear();
    await t.db
      .insertInto('desiredConfigurations')
      .values({
        id: 'cfg-usage-1',
        deviceId: ids[1]!,
        payload: '{"isTrackingEnabled":true,"trackingIntervalMinutes":15}',
        requestedBy: null,
        requestedAt: '2026-11-01T08:00:00.000Z',
        appliedAt: null,
      })
      .execute();
    const m = (id: string, date: string, properties: Record<string, unknown> = {}, text: string = DEVICE_MESSAGE.heartbeat) => ({
      messageId: `cfg-${id}`,
      deviceIdentity: IMEIS[1]!,
      deviceType: 640,
      date,
      message: text,
      battery: 70,
      signal: 50,
      rawMessage: 'raw',
      properties,
    });
    await ingestMessages(t.db, [m('a', '2026-11-02T09:00:00.000Z')], NOW);
    await ingestMessages(t.db, [m('b', '2026-11-03T09:00:00.000Z', { AppliedConfigurationIds: ['cfg-usage-1'] }, DEVICE_MESSAGE.configuration)], NOW);
    await ingestMessages(t.db, [m('c', '2026-11-04T09:00:00.000Z')], NOW);
    const rows = await storedRows();
    expect(rows.map((r) => [r.day, r.configPending, r.configurationAcks])).toEqual([
      ['2026-11-02', 1, 0],
      ['2026-11-03', 0, 1],
      ['2026-11-04', 0, 0],
    ]);
  });

  test('the newest firmware of a device type rises when a device reports a newer version, never falls', async () => {
    const newest = async () => (await t.db.selectFrom('deviceTypeFirmware').select('newestVersion').where('type', '=', 640).executeTakeFirst())?.newestVersion;
    const m = (id: string, fw: string) => ({
      messageId: `fw-${id}-${run}`,
      deviceIdentity: IMEIS[2]!,
      deviceType: 640,
      date: '2026-11-20T10:00:00.000Z',
      message: DEVICE_MESSAGE.heartbeat,
      battery: 70,
      signal: 50,
      rawMessage: 'raw',
      properties: { FirmwareVersion: fw },
    });
    await ingestMessages(t.db, [m('a', '5.10.0')], NOW);
    expect(await newest()).toBe('5.10.0');
    await ingestMessages(t.db, [m('b', '5.9.9')], NOW);
    expect(await newest()).toBe('5.10.0');
    expect((await t.db.selectFrom('devices').select('firmwareVersion').where('id', '=', ids[2]!).executeTakeFirstOrThrow()).firmwareVersion).toBe('5.9.9');
  });
});
