// The usage report's rules, one definition for the server, the page, the export and the tests
// (docs/fleet-health.md "Usage report"):
//
// - The report is of one customer and one Europe/London calendar month ('YYYY-MM', the months of
//   src/shared/management-report.ts), over the devices allocated to the customer (status
//   Allocated) when it is read, each with the person it is assigned to.
// - A device is **used** on a London day on which it checked in, was switched on, or raised an
//   alarm: its daily usage of that day counts a check-in, a power-on, an SOS or a fall, or an
//   alarm raised from it started that day (an alarm report with its serial, the same reports the
//   "Alarms raised" column counts). So a device with an alarm raised in the month always has a day
//   used. Heartbeats, locations and charging alone do not count: a device left in a drawer still
//   sends them.
// - The days of a month that count: every day of a past month; of the current month, its days up
//   to and including today (a day still to come cannot be used); none of a month still to come.
// - **Usage rate** = used device-days ÷ (devices × counted days), in percent with one decimal;
//   none (null) without devices or counted days. The month before is measured over the same
//   devices, all its days; the change is in percentage points.
import { monthRange, parseMonth, shiftMonth } from './management-report.js';

export { monthRange, shiftMonth };

const p2 = (n: number) => String(n).padStart(2, '0');

/** How many days a month has ('2026-02' → 28). */
export function daysInMonth(month: string): number {
  const p = parseMonth(month);
  if (!p) throw new Error(`not a month: ${month}`);
  return new Date(Date.UTC(p.y, p.m, 0)).getUTCDate();
}

/** The month's first and last London days, 'YYYY-MM-DD' (the daily usage's day keys). */
export function monthDays(month: string): { first: string; last: string } {
  return { first: `${month}-01`, last: `${month}-${p2(daysInMonth(month))}` };
}

/** How many days of the month count on London day `today` ('YYYY-MM-DD'): all of a past month, up to today of this one, none of a later one. */
export function countedDays(month: string, today: string): number {
  const { first, last } = monthDays(month);
  if (today < first) return 0;
  if (today > last) return daysInMonth(month);
  return Number(today.slice(8, 10));
}

/** The last day that counts ('YYYY-MM-DD'), or null when none does. */
export function lastCountedDay(month: string, today: string): string | null {
  const n = countedDays(month, today);
  return n === 0 ? null : `${month}-${p2(n)}`;
}

/** Used device-days against devices × days, in percent with one decimal; null when there is nothing to measure. */
export function usageRate(usedDeviceDays: number, devices: number, days: number): number | null {
  const possible = devices * days;
  return possible > 0 ? Math.round((usedDeviceDays / possible) * 1000) / 10 : null;
}

/** The change of the rate against the month before, in percentage points (one decimal); null when either is null. */
export const rateChange = (current: number | null, previous: number | null): number | null =>
  current === null || previous === null ? null : Math.round((current - previous) * 10) / 10;

/** '+2.5 pts', '−1 pts', 'no change', or '-' when either month had nothing to measure. */
export function rateChangeText(points: number | null): string {
  if (points === null) return '-';
  if (points === 0) return 'no change';
  return `${points > 0 ? '+' : '−'}${Math.abs(points).toLocaleString('en-GB', { maximumFractionDigits: 1 })} pts`;
}

/** '87.5 %', or '-' for none. */
export const rateText = (rate: number | null): string => (rate === null ? '-' : `${rate.toLocaleString('en-GB', { maximumFractionDigits: 1 })} %`);
