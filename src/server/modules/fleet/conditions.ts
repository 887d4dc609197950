// Fleet health categories as SQL conditions on a device's fleet state `s` (deviceFleetState as s:
// one row per allocated device with its last message, newest charging and use days, oldest
// configuration change not acknowledged and whether its firmware is behind, kept exact by the
// database's triggers; migration 032). The counts (repo.ts) and the device list's `fleetHealth`
// filter (modules/devices/repo.ts) read the same `categoryDevices`, so a count and the list it
// opens hold exactly the same devices. Each threshold is the customer's override, else the
// provider's, else the default (shared/schemas/fleet.ts), read in the statement itself: no look-up
// before it, and one snapshot for counts and thresholds. Customers with an override of a
// category's thresholds are few: their devices are read as their own branch (their thresholds, by
// customer), everyone else's with the provider's thresholds as one range of the category's index.
// Imports no module: the devices module imports it.
import { sql, type RawBuilder } from 'kysely';
import { DEVICE_MESSAGE } from '../../../shared/schemas/live.js';
import { londonWallOf } from '../../../shared/london-wall.js';
import { CATEGORY_THRESHOLDS, FLEET_DEFAULTS, type FleetCategory, type ThresholdKey } from '../../../shared/schemas/fleet.js';

/** Asset status Allocated: a device in a customer account. */
export const ALLOCATED = 3;

/** Today in Europe/London, 'YYYY-MM-DD' (the days of deviceDailyUsage). */
export const londonToday = (now: Date) => {
  const w = londonWallOf(now.getTime());
  return `${w.y}-${String(w.m).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;
};

/** The least integer both databases store: a lower bound every battery level passes. */
const MIN_INT = -2147483648;

type Threshold = (k: ThresholdKey) => RawBuilder<number>;

/** The provider's threshold (the default where it set none): one value for the whole statement. */
const providerThreshold: Threshold = (k) =>
  sql<number>`coalesce((select ${sql.ref(`pt.${k}`)} from "fleetThresholds" pt where pt."scope" = ''), ${sql.lit(FLEET_DEFAULTS[k])})`;

/** The threshold of the customer whose override row is `o`. */
const overrideThreshold: Threshold = (k) => sql<number>`coalesce(${sql.ref(`o.${k}`)}, ${providerThreshold(k)})`;

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

/**
 * The category's condition on the state row `s` with the thresholds `t`. No last message, no
 * charging day and no use day are '' in the state, before every instant and day. Each range has
 * a lower bound every value passes: PostgreSQL plans a range whose upper bound comes from the
 * thresholds' sub-query as a narrow one (an index range), where an upper bound alone is planned
 * as a third of the table (a scan of every allocated device).
 */
function stateCondition(pg: boolean, category: FleetCategory, now: Date, t: Threshold): RawBuilder<boolean> {
  switch (category) {
    case 'silent':
      return sql<boolean>`(s."lastMessageAt" >= '' and s."lastMessageAt" < ${hoursBefore(pg, now, t('silentHours'))})`;
    case 'notCharged':
      return sql<boolean>`(s."lastBattery" >= ${sql.lit(MIN_INT)} and s."lastBattery" <= ${t('lowBattery')} and s."lastChargedDay" < ${firstOfLastDays(pg, now, t('notChargedDays'))})`;
    case 'unused':
      return sql<boolean>`(s."lastUsedDay" >= '' and s."lastUsedDay" < ${firstOfLastDays(pg, now, t('unusedDays'))})`;
    case 'switchedOff':
      return sql<boolean>`s."lastMessage" = ${DEVICE_MESSAGE.powerOff}`;
    case 'configPending':
      return sql<boolean>`(s."configPendingSince" >= '' and s."configPendingSince" < ${hoursBefore(pg, now, t('configHours'))})`;
    case 'firmwareBehind':
      return sql<boolean>`s."firmwareBehind" = 1`;
  }
}

/**
 * The allocated devices in the category: rows ("customerId", "deviceId", "serialNumber"). The one
 * definition the counts and the device list share.
 */
export function categoryDevices(pg: boolean, category: FleetCategory, now: Date): RawBuilder<{ customerId: string; deviceId: string; serialNumber: string }> {
  const keys = CATEGORY_THRESHOLDS[category];
  if (!keys.length)
    return sql`select s."customerId", s."deviceId", s."serialNumber" from "deviceFleetState" s where ${stateCondition(pg, category, now, providerThreshold)}`;
  const overrides = sql.join(
    keys.map((k) => sql`${sql.ref(`o.${k}`)} is not null`),
    sql` or `,
  );
  return sql`select s."customerId", s."deviceId", s."serialNumber" from "deviceFleetState" s
      where ${stateCondition(pg, category, now, providerThreshold)}
        and not exists (select 1 from "fleetThresholds" o where o."scope" = s."customerId" and (${overrides}))
    union all
    select s."customerId", s."deviceId", s."serialNumber" from "fleetThresholds" o join "deviceFleetState" s on s."customerId" = o."scope"
      where o."scope" <> '' and (${overrides}) and ${stateCondition(pg, category, now, overrideThreshold)}`;
}

/** The device list's filter on a device row `d`: allocated devices in the category. */
export const fleetHealthWhere = (pg: boolean, category: FleetCategory, now: Date) =>
  sql<boolean>`d."id" in (select "deviceId" from (${categoryDevices(pg, category, now)}) "fleet")`;
