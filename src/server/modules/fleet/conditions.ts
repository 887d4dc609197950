// Fleet health categories as SQL conditions on a device row `d` (devices as d). The counts
// (repo.ts) and the device list's `fleetHealth` filter (modules/devices/repo.ts) use the same
// condition, so a count and the list it opens hold exactly the same devices. Each threshold is
// the customer's override, else the provider's, else the default (shared/schemas/fleet.ts), read
// in the statement itself: no look-up before it, and one snapshot for counts and thresholds.
// Imports no module: the devices module imports it.
import { sql, type RawBuilder } from 'kysely';
import { DEVICE_MESSAGE } from '../../../shared/schemas/live.js';
import { londonWallOf } from '../../../shared/london-wall.js';
import { FLEET_DEFAULTS, type FleetCategory, type ThresholdKey } from '../../../shared/schemas/fleet.js';

/** Asset status Allocated: a device in a customer account. */
export const ALLOCATED = 3;

/** Today in Europe/London, 'YYYY-MM-DD' (the days of deviceDailyUsage). */
export const londonToday = (now: Date) => {
  const w = londonWallOf(now.getTime());
  return `${w.y}-${String(w.m).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;
};

/** The threshold that holds for the device's customer. */
function threshold(k: ThresholdKey): RawBuilder<number> {
  const col = sql.ref(`ft.${k}`);
  return sql<number>`coalesce((select ${col} from "fleetThresholds" ft where ft."scope" = d."customerId"), (select ${col} from "fleetThresholds" ft where ft."scope" = ''), ${sql.lit(FLEET_DEFAULTS[k])})`;
}

/** `now` less `hours` as an ISO instant in the stored form ('2026-03-29T01:00:00.000Z'). */
function hoursBefore(pg: boolean, now: Date, hours: RawBuilder<number>) {
  const at = now.toISOString();
  return pg
    ? sql<string>`to_char((cast(${at} as timestamptz) - ${hours} * interval '1 hour') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${at}, '-' || ${hours} || ' hours')`;
}

/** The first of the last `days` London days, today included ('YYYY-MM-DD'). */
function firstOfLastDays(pg: boolean, now: Date, days: RawBuilder<number>) {
  const today = londonToday(now);
  return pg ? sql<string>`to_char(cast(${today} as date) - (${days} - 1), 'YYYY-MM-DD')` : sql<string>`date(${today}, '-' || (${days} - 1) || ' days')`;
}

/** A device of a customer, allocated: the devices fleet health looks at. */
export const allocatedSql = sql<boolean>`(d."status" = ${sql.lit(ALLOCATED)} and d."customerId" is not null)`;

/** The category's condition on `d` (without the allocated condition). */
export function categorySql(pg: boolean, category: FleetCategory, now: Date): RawBuilder<boolean> {
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

/** The device list's filter: allocated devices in the category. */
export const fleetHealthWhere = (pg: boolean, category: FleetCategory, now: Date) => sql<boolean>`(${allocatedSql} and ${categorySql(pg, category, now)})`;
