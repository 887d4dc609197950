// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { londonDaySql } from './lib/alarm-stats.js';
import { DAILY_USAGE_COUNTS, newestFirmware } from './lib/device-daily-usage.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

/**
 * Fleet health and daily usage:
 * - deviceDailyUsage: per device and Europe/London day, the first and last message, the count of
 *   each message kind, the lowest battery and whether a configuration change was waiting. Kept by
 *   ingestion in the transaction that stores the messages (modules/live/daily-usage.ts); filled
 *   here from the messages already stored (configuration waiting: not known for those, 0).
 * - fleetThresholds: the fleet health thresholds, the provider's (scope '') and a customer's
 *   override (scope = the customer id; a null column takes the provider's value).
 * - deviceTypeFirmware: the newest firmware version reported for each device type (ingestion
 *   raises it when a device reports a newer one); filled here from the devices.
 */
export const m030: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPg(db);
    await run(
      db,
      `create table "deviceDailyUsage" (
        "deviceId" text not null references "devices" ("id") on delete cascade,
        "day" text not null,
        "firstMessageAt" text not null,
        "lastMessageAt" text not null,
        "messages" integer not null,
        ${DAILY_USAGE_COUNTS.map(([c]) => `"${c}" integer not null default 0`).join(',\n        ')},
        "minBattery" integer,
        "configPending" integer not null default 0,
        primary key ("deviceId", "day")
      )${pg ? '' : ' without rowid'}`,
    );
    const day = londonDaySql(pg, '"date"');
    await run(
      db,
      `insert into "deviceDailyUsage" ("deviceId", "day", "firstMessageAt", "lastMessageAt", "messages", ${DAILY_USAGE_COUNTS.map(([c]) => `"${c}"`).join(', ')}, "minBattery", "configPending")
       select "deviceId", ${day}, min("date"), max("date"), count(*), ${DAILY_USAGE_COUNTS.map(([, m]) => `sum(case when "message" = '${m}' then 1 else 0 end)`).join(', ')}, min("battery"), 0
       from "deviceMessages" group by "deviceId", ${day}`,
    );
    await run(
      db,
      `create table "fleetThresholds" (
        "scope" text primary key,
        "silentHours" integer,
        "lowBattery" integer,
        "notChargedDays" integer,
        "unusedDays" integer,
        "configHours" integer,
        "updatedAt" text not null
      )`,
    );
    await run(db, `create table "deviceTypeFirmware" ("type" integer primary key, "newestVersion" text not null)`);
    const versions = await sql<{
      type: number;
      v: string;
    }>`select distinct "type", "firmwareVersion" as "v" from "devices" where "firmwareVersion" is not null`.execute(db);
    const newest = new Map<number, string>();
    for (const r of versions.rows) newest.set(Number(r.type), newestFirmware(newest.get(Number(r.type)) ?? null, r.v));
    for (const [type, v] of newest) await sql`insert into "deviceTypeFirmware" ("type", "newestVersion") values (${type}, ${v})`.execute(db);
  },
  async down(db: Kysely<any>) {
    await run(db, `drop table "deviceTypeFirmware"`);
    await run(db, `drop table "fleetThresholds"`);
    await run(db, `drop table "deviceDailyUsage"`);
  },
};
