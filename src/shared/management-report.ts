// The monthly management report's rules, one definition for the server, the page and the tests:
// what a month is (a Europe/London calendar month: from the London midnight that starts its first
// day to the one that starts the next month's, so summer-time changes move the UTC bounds), the
// month the report opens on (last month), the month before, the response-target shares and their
// change against the month before. The bands and the 10 s / 40 s windows are the charts' own
// (src/shared/schemas/alarm-reports.ts).
import { TZDate } from '@date-fns/tz';
import { TIME_ZONE } from './dates.js';
import { RESPONSE_WINDOWS, STARTED_BANDS, startedBandsWithin } from './schemas/alarm-reports.js';

/** A month as the report names it: 'YYYY-MM'. */
export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** The most missed alarms the report lists (MissedTotal counts them all). */
export const MISSED_LIST_MAX = 50;
/** How many of the busiest persons and devices the report lists. */
export const BUSIEST_MAX = 10;

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const p2 = (n: number) => String(n).padStart(2, '0');

/** Year and month (1–12) of 'YYYY-MM', or null when it is not a month. */
export function parseMonth(month: string): { y: number; m: number } | null {
  const match = MONTH_PATTERN.exec(month);
  if (!match) return null;
  const y = Number(match[1]);
  return y < 2000 || y > 2100 ? null : { y, m: Number(match[2]) };
}

/** The month `delta` months from `month` ('2026-01', -1 → '2025-12'). */
export function shiftMonth(month: string, delta: number): string {
  const p = parseMonth(month);
  if (!p) throw new Error(`not a month: ${month}`);
  const i = p.y * 12 + (p.m - 1) + delta;
  return `${Math.floor(i / 12)}-${p2((i % 12) + 1)}`;
}

/** The instant (ms) London's y-m-1 00:00 begins. */
const londonMonthStart = (y: number, m: number) => new TZDate(y, m - 1, 1, 0, 0, 0, TIME_ZONE).getTime();

/** [from, to) of a London month as ISO instants (the stored closed dates compare as text in this form). */
export function monthRange(month: string): { from: string; to: string } {
  const p = parseMonth(month);
  if (!p) throw new Error(`not a month: ${month}`);
  const next = parseMonth(shiftMonth(month, 1))!;
  return { from: new Date(londonMonthStart(p.y, p.m)).toISOString(), to: new Date(londonMonthStart(next.y, next.m)).toISOString() };
}

/** The London month ('YYYY-MM') an instant falls in. */
export function londonMonthOf(at: Date | number): string {
  const d = new TZDate(typeof at === 'number' ? at : at.getTime(), TIME_ZONE);
  return `${d.getFullYear()}-${p2(d.getMonth() + 1)}`;
}

/** The month the report opens on: the London month before the one `now` is in. */
export const defaultMonth = (now: Date | number) => shiftMonth(londonMonthOf(now), -1);

/** 'October 2026'. */
export function monthLabel(month: string): string {
  const p = parseMonth(month);
  return p ? `${MONTH_NAMES[p.m - 1]} ${p.y}` : month;
}

/** A share in percent with two decimals (as the response-target panel shows it), null of nothing. */
export const sharePercent = (count: number, total: number): number | null => (total > 0 ? Math.round((count / total) * 10000) / 100 : null);

/** The change of a share against the month before, in percentage points (two decimals); null when either month had no alarms. */
export const shareChange = (current: number | null, previous: number | null): number | null =>
  current === null || previous === null ? null : Math.round((current - previous) * 100) / 100;

/** How many alarms of the Verification Started band counts (in STARTED_BANDS order) count as within `window` seconds. */
export function withinCount(startedBands: readonly number[], window: number): number {
  return startedBands.slice(0, startedBandsWithin(window)).reduce((sum, n) => sum + n, 0);
}

export type TargetShare = {
  Count: number;
  Percent: number | null;
  TargetPercent: number;
  Met: boolean;
  PreviousCount: number;
  PreviousPercent: number | null;
  /** Percentage points against the month before (null when either month had no alarms). */
  Change: number | null;
};

/** One response target of the month and the month before, from each month's Verification Started band counts and total. */
export function targetShare(
  window: number,
  target: number,
  month: { total: number; started: readonly number[] },
  before: { total: number; started: readonly number[] },
): TargetShare {
  const count = withinCount(month.started, window);
  const previousCount = withinCount(before.started, window);
  const percent = sharePercent(count, month.total);
  const previousPercent = sharePercent(previousCount, before.total);
  return {
    Count: count,
    Percent: percent,
    TargetPercent: target,
    Met: percent !== null && percent >= target,
    PreviousCount: previousCount,
    PreviousPercent: previousPercent,
    Change: shareChange(percent, previousPercent),
  };
}

/** The response windows the report holds the month against (the panel's 10 s and 40 s). */
export const REPORT_WINDOWS = [RESPONSE_WINDOWS.within10, RESPONSE_WINDOWS.within40] as const;
/** How many alarms missed the 10 s target: every alarm outside the first Verification Started band. */
export const missedCount = (total: number, startedBands: readonly number[]) => total - withinCount(startedBands, STARTED_BANDS[0].to);
