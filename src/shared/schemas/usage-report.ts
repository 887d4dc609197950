// The usage report of a customer (ours; docs/fleet-health.md "Usage report"). THE CONTRACT between
// src/server/modules/fleet (usage-report.ts, routes.ts) and src/app/features/usage:
//
// - GET /ps-admin/customers/usage-report?customerId=…&month=YYYY-MM (AdminPanel.UsageReport.View)
//   → the report of the customer for a Europe/London month: one row per device allocated to the
//   customer, with its person, days used, check-ins, alarms raised, low-battery days and when it
//   was last seen, and the customer's usage rate against the month before. 404 for an unknown
//   customer (and for one outside the caller's tenant scope, the same answer); 400 for a month
//   that is not 'YYYY-MM'.
// - POST /ps-admin/customers/usage-report/export { customerId, month } (same permission) → the
//   rows as an .xlsx workbook, through the export pool.
// The rules (a used day, the counted days, the rate): src/shared/usage-report.ts.
import * as v from 'valibot';
import { guid, inputJson } from './common.js';
import { parseMonth } from '../management-report.js';
import { USAGE_TEXT } from '../messages.js';

/** The feature that lets a scheduled report send the usage report (absent: off). */
export const USAGE_SCHEDULE_FEATURE = 'ScheduledUsageReport';

const month = v.pipe(
  v.string(USAGE_TEXT.badMonth),
  inputJson({ type: 'string', pattern: '^(20\\d\\d|2100)-(0[1-9]|1[0-2])$' }),
  v.check((m) => parseMonth(m) !== null, USAGE_TEXT.badMonth),
);

/** GET /ps-admin/customers/usage-report (query) */
export const usageReportQuery = v.object({ customerId: guid(USAGE_TEXT.invalidCustomer), month }, USAGE_TEXT.badBody);
/** POST /ps-admin/customers/usage-report/export (body) */
export const usageReportExportBody = v.object({ customerId: guid(USAGE_TEXT.invalidCustomer), month }, USAGE_TEXT.badBody);
export type UsageReportParams = v.InferOutput<typeof usageReportQuery>;

const row = v.strictObject({
  DeviceId: v.string(),
  Serial: v.string(),
  DeviceType: v.string(),
  PersonId: v.nullable(v.string()),
  PersonName: v.nullable(v.string()),
  /** London days of the month on which the device checked in, powered on or raised an alarm */
  DaysUsed: v.number(),
  CheckIns: v.number(),
  /** alarm reports of the customer raised (alarm started) in the month with this device's serial */
  Alarms: v.number(),
  /** London days of the month on which the device sent a low-battery warning */
  LowBatteryDays: v.number(),
  /** the last message at or before the month's end (ISO instant), null if none */
  LastSeen: v.nullable(v.string()),
});
export type UsageReportRow = v.InferOutput<typeof row>;

export const usageReportSchema = v.strictObject({
  CustomerId: v.string(),
  CustomerName: v.string(),
  Month: v.string(),
  PreviousMonth: v.string(),
  /** days of the month that count (src/shared/usage-report.ts countedDays) */
  Days: v.number(),
  PreviousDays: v.number(),
  Devices: v.number(),
  UsedDeviceDays: v.number(),
  PreviousUsedDeviceDays: v.number(),
  /** percent, one decimal; null: nothing to measure */
  UsageRate: v.nullable(v.number()),
  PreviousUsageRate: v.nullable(v.number()),
  /** percentage points against the month before */
  RateChange: v.nullable(v.number()),
  Totals: v.strictObject({ DaysUsed: v.number(), CheckIns: v.number(), Alarms: v.number(), LowBatteryDays: v.number() }),
  /** alarm reports of the customer raised in the month whose device is not one of the rows */
  OtherAlarms: v.number(),
  Rows: v.array(row),
});
export type UsageReport = v.InferOutput<typeof usageReportSchema>;
