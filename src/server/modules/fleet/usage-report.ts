// The usage report of a customer for a Europe/London month (db first; rules:
// src/shared/usage-report.ts, shapes: src/shared/schemas/usage-report.ts). Read from the daily
// usage (deviceDailyUsage, one row per device and London day, kept by ingestion), the alarm reports
// (alarms raised, and days used: src/shared/usage-report.ts) and the devices' person assignment —
// never from the raw messages. Every read is
// narrowed by the caller's tenant scope: a customer outside it answers as unknown (undefined).
//
// Statements, whatever the customer's size: the customer; its allocated devices with their persons;
// the daily usage of those devices over the month and the month before, grouped per device (the
// primary key (deviceId, day) gives each device's days in order); each device's last day seen at
// or before the month's end (one index probe a device); the alarm reports of the customer raised in
// the month and the month before through alarmReports_customer_idx (customerId, alarmClosed); and,
// for the devices with an alarm only, their days already used by their messages.
import { sql } from 'kysely';
import type { DB } from '../../db/index.js';
import { byCustomer, byTenant, scopePredicate, type TenantScope } from '../../auth/tenant-scope.js';
import { DEVICE_TYPES, lookupName } from '../../../shared/codes.js';
import { londonIsoToday } from '../../../shared/dates.js';
import { countedDays, lastCountedDay, monthDays, monthRange, rateChange, shiftMonth, usageRate } from '../../../shared/usage-report.js';
import type { UsageReport, UsageReportRow } from '../../../shared/schemas/usage-report.js';
import { ALLOCATED } from './conditions.js';

const num = (x: unknown) => Number(x ?? 0);
/**
 * A day of daily usage on which the device was used by its messages: a check-in, a power-on, an SOS
 * alarm or a fall. The other half of a used day is an alarm raised that day (usedDays below).
 */
const USED_DAY = sql<number>`case when "u"."checkIns" + "u"."powerOns" + "u"."sosAlarms" + "u"."falls" > 0 then 1 else 0 end`;
const LOW_DAY = sql<number>`case when "u"."lowBatteries" > 0 then 1 else 0 end`;

/** The scope's narrowing of the devices `d` (every tenant: none). */
const inScope = (scope: TenantScope) => scopePredicate(scope, 'customerId', 'd.customerId') ?? sql<boolean>`1 = 1`;

type Device = { id: string; serialNumber: string; type: number; personId: string | null; firstName: string | null; lastName: string | null };

/** The customer's allocated devices with the persons they are assigned to, in the report's order (person, then serial; unassigned last). */
async function allocatedDevices(db: DB, scope: TenantScope, customerId: string): Promise<Device[]> {
  const rows = await byCustomer(
    db
      .selectFrom('devices')
      .leftJoin('persons', 'persons.id', 'devices.assignedPersonId')
      .select(['devices.id', 'devices.serialNumber', 'devices.type', 'persons.id as personId', 'persons.firstName', 'persons.lastName'])
      .where('devices.customerId', '=', customerId)
      .where('devices.status', '=', ALLOCATED),
    scope,
    'devices.customerId',
  ).execute();
  return rows as Device[];
}

/** Per device of the customer: used days, check-ins and low-battery days from `first` to `last` (London days, inclusive). */
async function usageByDevice(db: DB, scope: TenantScope, customerId: string, first: string, last: string) {
  const rows = await sql<{ deviceId: string; used: unknown; checkIns: unknown; low: unknown }>`
    select "u"."deviceId" as "deviceId", sum(${USED_DAY}) as "used", sum("u"."checkIns") as "checkIns", sum(${LOW_DAY}) as "low"
    from "devices" "d" join "deviceDailyUsage" "u" on "u"."deviceId" = "d"."id"
    where "d"."customerId" = ${customerId} and "d"."status" = ${sql.lit(ALLOCATED)} and "u"."day" >= ${first} and "u"."day" <= ${last} and ${inScope(scope)}
    group by "u"."deviceId"`.execute(db);
  return new Map(rows.rows.map((r) => [r.deviceId, { used: num(r.used), checkIns: num(r.checkIns), low: num(r.low) }]));
}

/** Each allocated device's last message at or before the end of London day `last`. */
async function lastSeen(db: DB, scope: TenantScope, customerId: string, last: string) {
  const rows = await sql<{ id: string; lastSeen: string | null }>`
    select "d"."id" as "id",
      (select "u"."lastMessageAt" from "deviceDailyUsage" "u" where "u"."deviceId" = "d"."id" and "u"."day" <= ${last} order by "u"."day" desc limit 1) as "lastSeen"
    from "devices" "d"
    where "d"."customerId" = ${customerId} and "d"."status" = ${sql.lit(ALLOCATED)} and ${inScope(scope)}`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, r.lastSeen]));
}

/** The alarms of a month per device serial: how many were raised, and the London days they started on. */
type Alarms = Map<string, { n: number; days: Set<string> }>;

/**
 * The customer's alarm reports raised (alarm started) in the month, per device serial. Reports
 * close after they start, so `alarmClosed >= from` bounds the index range without losing any.
 */
async function alarmsBySerial(db: DB, scope: TenantScope, customerId: string, range: { from: string; to: string }): Promise<Alarms> {
  const rows = await byCustomer(
    db
      .selectFrom('alarmReports')
      .select(['alarmReports.deviceSerial', 'alarmReports.alarmStarted'])
      .where('alarmReports.customerId', '=', customerId)
      .where('alarmReports.alarmClosed', '>=', range.from)
      .where('alarmReports.alarmStarted', '>=', range.from)
      .where('alarmReports.alarmStarted', '<', range.to),
    scope,
    'alarmReports.customerId',
  ).execute();
  const out: Alarms = new Map();
  for (const r of rows) {
    const serial = r.deviceSerial ?? '';
    let x = out.get(serial);
    if (!x) out.set(serial, (x = { n: 0, days: new Set() }));
    x.n++;
    x.days.add(londonIsoToday(new Date(r.alarmStarted)));
  }
  return out;
}

/** The days from `first` to `last` on which the devices were used by their messages ('deviceId day'). */
async function messageUsedDays(db: DB, deviceIds: string[], first: string, last: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < deviceIds.length; i += 500) {
    const ids = deviceIds.slice(i, i + 500);
    const rows = await sql<{ deviceId: string; day: string }>`
      select "u"."deviceId" as "deviceId", "u"."day" as "day" from "deviceDailyUsage" "u"
      where "u"."deviceId" in (${sql.join(ids)}) and "u"."day" >= ${first} and "u"."day" <= ${last} and ${USED_DAY} = 1`.execute(db);
    for (const r of rows.rows) out.add(`${r.deviceId} ${r.day}`);
  }
  return out;
}

type Usage = Map<string, { used: number; checkIns: number; low: number }>;

/**
 * Days used per device from `first` to `last` (src/shared/usage-report.ts): the days its messages
 * used (USED_DAY), and the days an alarm was raised from it that its messages did not already use.
 */
async function usedDays(db: DB, devices: Device[], usage: Usage, alarms: Alarms, first: string, last: string): Promise<Map<string, number>> {
  const alarmDays = new Map<string, string[]>();
  for (const d of devices) {
    const days = [...(alarms.get(d.serialNumber)?.days ?? [])].filter((day) => day >= first && day <= last);
    if (days.length) alarmDays.set(d.id, days);
  }
  const byMessages = alarmDays.size ? await messageUsedDays(db, [...alarmDays.keys()], first, last) : new Set<string>();
  return new Map(
    devices.map((d) => [d.id, (usage.get(d.id)?.used ?? 0) + (alarmDays.get(d.id) ?? []).filter((day) => !byMessages.has(`${d.id} ${day}`)).length]),
  );
}

/** The customer (id and name) when it is within the scope. */
export const customerInScope = (db: DB, scope: TenantScope, customerId: string) =>
  byTenant(db.selectFrom('customers').select(['id', 'name']).where('id', '=', customerId), scope, 'customers.tenantId').executeTakeFirst();

/**
 * The usage report of a customer for a London month ('YYYY-MM'), read at `now`; undefined when the
 * customer is unknown or outside the scope (the same answer).
 */
export async function usageReport(db: DB, scope: TenantScope, input: { customerId: string; month: string; now: Date }): Promise<UsageReport | undefined> {
  const { customerId, month } = input;
  const customer = await customerInScope(db, scope, customerId);
  if (!customer) return undefined;
  const today = londonIsoToday(input.now);
  const previousMonth = shiftMonth(month, -1);
  const { first } = monthDays(month);
  const prev = monthDays(previousMonth);
  const lastDay = lastCountedDay(month, today);
  const prevLastDay = lastCountedDay(previousMonth, today);

  const [devices, usage, before, seen, alarms, alarmsBefore] = await Promise.all([
    allocatedDevices(db, scope, customerId),
    lastDay ? usageByDevice(db, scope, customerId, first, lastDay) : Promise.resolve<Usage>(new Map()),
    prevLastDay ? usageByDevice(db, scope, customerId, prev.first, prevLastDay) : Promise.resolve<Usage>(new Map()),
    lastSeen(db, scope, customerId, monthDays(month).last),
    alarmsBySerial(db, scope, customerId, monthRange(month)),
    alarmsBySerial(db, scope, customerId, monthRange(previousMonth)),
  ]);
  const [used, usedBefore] = await Promise.all([
    lastDay ? usedDays(db, devices, usage, alarms, first, lastDay) : new Map<string, number>(),
    prevLastDay ? usedDays(db, devices, before, alarmsBefore, prev.first, prevLastDay) : new Map<string, number>(),
  ]);

  const name = (d: Device) => (d.personId ? `${d.firstName ?? ''} ${d.lastName ?? ''}`.trim() : null);
  const rows: UsageReportRow[] = devices
    .map((d) => {
      const u = usage.get(d.id);
      return {
        DeviceId: d.id,
        Serial: d.serialNumber,
        DeviceType: lookupName(DEVICE_TYPES, Number(d.type)),
        PersonId: d.personId,
        PersonName: name(d),
        DaysUsed: used.get(d.id) ?? 0,
        CheckIns: u?.checkIns ?? 0,
        Alarms: alarms.get(d.serialNumber)?.n ?? 0,
        LowBatteryDays: u?.low ?? 0,
        LastSeen: seen.get(d.id) ?? null,
      };
    })
    .sort((a, b) => {
      if ((a.PersonName === null) !== (b.PersonName === null)) return a.PersonName === null ? 1 : -1;
      const byName = (a.PersonName ?? '').localeCompare(b.PersonName ?? '', 'en-GB');
      return byName || (a.Serial < b.Serial ? -1 : a.Serial > b.Serial ? 1 : 0);
    });

  const days = countedDays(month, today);
  const previousDays = countedDays(previousMonth, today);
  const usedDeviceDays = rows.reduce((n, r) => n + r.DaysUsed, 0);
  const previousUsed = devices.reduce((n, d) => n + (usedBefore.get(d.id) ?? 0), 0);
  const rate = usageRate(usedDeviceDays, rows.length, days);
  const previousRate = usageRate(previousUsed, rows.length, previousDays);
  const listedAlarms = rows.reduce((n, r) => n + r.Alarms, 0);
  const allAlarms = [...alarms.values()].reduce((n, x) => n + x.n, 0);
  return {
    CustomerId: customer.id,
    CustomerName: customer.name,
    Month: month,
    PreviousMonth: previousMonth,
    Days: days,
    PreviousDays: previousDays,
    Devices: rows.length,
    UsedDeviceDays: usedDeviceDays,
    PreviousUsedDeviceDays: previousUsed,
    UsageRate: rate,
    PreviousUsageRate: previousRate,
    RateChange: rateChange(rate, previousRate),
    Totals: {
      DaysUsed: usedDeviceDays,
      CheckIns: rows.reduce((n, r) => n + r.CheckIns, 0),
      Alarms: listedAlarms,
      LowBatteryDays: rows.reduce((n, r) => n + r.LowBatteryDays, 0),
    },
    OtherAlarms: allAlarms - listedAlarms,
    Rows: rows,
  };
}
