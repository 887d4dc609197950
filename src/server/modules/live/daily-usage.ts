// Daily usage: per device and Europe/London day, what its messages of that day say (the first and
// the last, how many of each kind, the lowest battery, whether a configuration change was waiting
// for it). Ingestion adds each batch's new messages in the transaction that stores them
// (ingest.ts), after the duplicates are gone (a message id stored before adds nothing), with one
// multi-row upsert that adds counts and keeps the earliest, latest and lowest values: adding is
// the same in any order, so messages that arrive late or out of order land on their own day and
// the rows always equal a count of the stored messages. The demo data's history is counted from
// the stored messages (rebuildDailyUsage); migration 030 did the same for what was stored before.
import { CompiledQuery, sql } from 'kysely';
import type { DB } from '../../db/index.js';
import type { DeviceDailyUsageTable } from '../../db/schema.js';
import { setBounded } from '../../platform/util.js';
import { newestFirmware } from '../../../shared/firmware.js';
import { DEVICE_MESSAGE } from '../../../shared/schemas/live.js';
import { londonDaySql } from '../alarm-reports/aggregates.js';
import { londonDayOf } from '../alarm-reports/time.js';

/** Count column and the message text it counts (a message of another text counts in `messages` only). */
export const DAILY_USAGE_COUNTS = [
  ['heartbeats', DEVICE_MESSAGE.heartbeat],
  ['locations', DEVICE_MESSAGE.location],
  ['checkIns', DEVICE_MESSAGE.checkIn],
  ['lowBatteries', DEVICE_MESSAGE.lowBattery],
  ['powerOns', DEVICE_MESSAGE.powerOn],
  ['powerOffs', DEVICE_MESSAGE.powerOff],
  ['chargings', DEVICE_MESSAGE.charging],
  ['sosAlarms', DEVICE_MESSAGE.sos],
  ['falls', DEVICE_MESSAGE.fall],
  ['configurationAcks', DEVICE_MESSAGE.configuration],
] as const satisfies readonly (readonly [keyof DeviceDailyUsageTable, string])[];
type CountColumn = (typeof DAILY_USAGE_COUNTS)[number][0];
const COUNT_OF = new Map<string, CountColumn>(DAILY_USAGE_COUNTS.map(([c, m]) => [m, c]));

export type DailyUsageRow = Omit<DeviceDailyUsageTable, never>;
const COLUMNS = [
  'deviceId',
  'day',
  'firstMessageAt',
  'lastMessageAt',
  'messages',
  ...DAILY_USAGE_COUNTS.map(([c]) => c),
  'minBattery',
  'configPending',
] as const satisfies readonly (keyof DailyUsageRow)[];

/** London day by the instant's UTC hour (the UK changes its clocks on the hour): Intl once an hour, not once a message. */
const days = new Map<string, string>();
export function londonDayOfIso(iso: string): string {
  const hour = iso.slice(0, 13); // ingested dates are canonical: 'YYYY-MM-DDTHH:mm:ss.sssZ'
  return days.get(hour) ?? setBounded(days, hour, londonDayOf(Date.parse(`${hour}:00:00.000Z`)), 20_000);
}

export type UsageMessage = { deviceId: string; date: string; message: string; battery: number | null };

/** The batch's messages as one row per device and day, in (device, day) order; `pending` devices had a configuration change waiting. */
export function usageRows(messages: Iterable<UsageMessage>, pending: ReadonlySet<string>): DailyUsageRow[] {
  const rows = new Map<string, DailyUsageRow>();
  for (const m of messages) {
    const day = londonDayOfIso(m.date);
    const key = `${m.deviceId}\u0000${day}`;
    let r = rows.get(key);
    if (!r) {
      r = {
        deviceId: m.deviceId,
        day,
        firstMessageAt: m.date,
        lastMessageAt: m.date,
        messages: 0,
        heartbeats: 0,
        locations: 0,
        checkIns: 0,
        lowBatteries: 0,
        powerOns: 0,
        powerOffs: 0,
        chargings: 0,
        sosAlarms: 0,
        falls: 0,
        configurationAcks: 0,
        minBattery: null,
        configPending: pending.has(m.deviceId) ? 1 : 0,
      };
      rows.set(key, r);
    }
    r.messages++;
    const col = COUNT_OF.get(m.message);
    if (col) r[col]++;
    if (m.date < r.firstMessageAt) r.firstMessageAt = m.date;
    if (m.date > r.lastMessageAt) r.lastMessageAt = m.date;
    if (m.battery !== null && (r.minBattery === null || m.battery < r.minBattery)) r.minBattery = m.battery;
  }
  // (device, day) order: two batches lock shared rows in one order and never deadlock
  return [...rows.values()].sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

const texts = new Map<string, string>();
/** Adds rows to the stored ones: counts add up, the earliest first and latest last message and the lowest battery stay. */
function upsertText(pg: boolean, rows: number): string {
  const key = `${pg}:${rows}`;
  const hit = texts.get(key);
  if (hit) return hit;
  const t = (c: string) => `"deviceDailyUsage"."${c}"`;
  const x = (c: string) => `excluded."${c}"`;
  const set = [
    `"firstMessageAt" = case when ${x('firstMessageAt')} < ${t('firstMessageAt')} then ${x('firstMessageAt')} else ${t('firstMessageAt')} end`,
    `"lastMessageAt" = case when ${x('lastMessageAt')} > ${t('lastMessageAt')} then ${x('lastMessageAt')} else ${t('lastMessageAt')} end`,
    ...['messages', ...DAILY_USAGE_COUNTS.map(([c]) => c)].map((c) => `"${c}" = ${t(c)} + ${x(c)}`),
    `"minBattery" = case when ${t('minBattery')} is null or ${x('minBattery')} < ${t('minBattery')} then ${x('minBattery')} else ${t('minBattery')} end`,
    `"configPending" = case when ${x('configPending')} > ${t('configPending')} then ${x('configPending')} else ${t('configPending')} end`,
  ].join(', ');
  let n = 0;
  const values = Array.from({ length: rows }, () => `(${COLUMNS.map(() => (pg ? `$${++n}` : '?')).join(', ')})`).join(', ');
  const text = `insert into "deviceDailyUsage" (${COLUMNS.map((c) => `"${c}"`).join(', ')}) values ${values} on conflict ("deviceId", "day") do update set ${set}`;
  return setBounded(texts, key, text, 64);
}

const CHUNK = 400;

/** Adds the rows (usageRows' order) to the stored daily usage. */
export async function addDailyUsage(trx: DB, pg: boolean, rows: readonly DailyUsageRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK);
    const params: unknown[] = [];
    for (const r of part) for (const c of COLUMNS) params.push(r[c]);
    await trx.executeQuery(CompiledQuery.raw(upsertText(pg, part.length), params));
  }
}

/** Counts every device's daily usage again from the stored messages (the demo data's history); configuration waiting is not known for them (0). */
export async function rebuildDailyUsage(db: DB, pg: boolean): Promise<number> {
  const day = londonDaySql(pg, '"date"');
  await sql`delete from "deviceDailyUsage"`.execute(db);
  const r = await sql
    .raw(
      `insert into "deviceDailyUsage" (${COLUMNS.map((c) => `"${c}"`).join(', ')})
       select "deviceId", ${day}, min("date"), max("date"), count(*), ${DAILY_USAGE_COUNTS.map(([, m]) => `sum(case when "message" = '${m}' then 1 else 0 end)`).join(', ')}, min("battery"), 0
       from "deviceMessages" group by "deviceId", ${day}`,
    )
    .execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** Raises the newest firmware of device types when a device reports a newer version. */
export async function noteFirmware(trx: DB, seen: ReadonlyMap<number, string>): Promise<void> {
  if (!seen.size) return;
  const stored = new Map(
    (
      await trx
        .selectFrom('deviceTypeFirmware')
        .select(['type', 'newestVersion'])
        .where('type', 'in', [...seen.keys()])
        .execute()
    ).map((r) => [Number(r.type), r.newestVersion]),
  );
  for (const [type, version] of [...seen].sort(([a], [b]) => a - b)) {
    const before = stored.get(type) ?? null;
    const after = newestFirmware(before, version);
    if (after === before) continue;
    await trx
      .insertInto('deviceTypeFirmware')
      .values({ type, newestVersion: after })
      .onConflict((oc) => oc.column('type').doUpdateSet({ newestVersion: after }))
      .execute();
  }
}

/** Counts the newest firmware of every device type again from the devices (the demo data). */
export async function rebuildTypeFirmware(db: DB): Promise<void> {
  const rows = await db.selectFrom('devices').select(['type', 'firmwareVersion']).distinct().where('firmwareVersion', 'is not', null).execute();
  const newest = new Map<number, string>();
  for (const r of rows) newest.set(Number(r.type), newestFirmware(newest.get(Number(r.type)) ?? null, r.firmwareVersion!));
  await db.deleteFrom('deviceTypeFirmware').execute();
  if (newest.size)
    await db
      .insertInto('deviceTypeFirmware')
      .values([...newest].map(([type, newestVersion]) => ({ type, newestVersion })))
      .execute();
}
